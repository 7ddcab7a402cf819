"""pyarrow backend: to_arrow() gives the Table of .data."""
# inputs: flat_zip
# parity: R43 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
t = ds.data.to_arrow()
diffkit.emit({"type": type(t).__name__, "t": t.select(["id", "type", "cloud_cover", "split"])})
