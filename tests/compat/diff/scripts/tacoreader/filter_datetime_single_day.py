"""filter_datetime('YYYY-MM-DD'): that whole day."""
# inputs: flat_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"d": ds.filter_datetime("2023-02-10").data["id"].to_pylist(),
              "none": ds.filter_datetime("2023-02-11").data["id"].to_pylist()})
