"""TacoDataFrame (pandas): [column] access and values."""
# inputs: flat_zip
# parity: R41 R42 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
d = ds.data
col = d["id"]
diffkit.emit({"type": type(col).__module__.split(".")[0] + "." + type(col).__name__, "ids": list(col.to_list() if hasattr(col, "to_list") else col.to_pylist())})
