"""filter_datetime(level=1) cascades to the level-0 parents."""
# inputs: nested_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
f = ds.filter_datetime("2023-01-01/2023-02-28", level=1)
diffkit.emit({"ids": f.data["id"].to_pylist()})
