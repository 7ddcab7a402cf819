"""filter_datetime() then filter_bbox() chained."""
# inputs: flat_zip
# parity: R28 R31 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
f = ds.filter_datetime("2023-01-01/2023-06-30").filter_bbox(-180, -90, 180, 90)
diffkit.emit({"ids": f.data["id"].to_pylist()})
