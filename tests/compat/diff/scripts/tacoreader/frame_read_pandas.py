"""TacoDataFrame (pandas).read() of FILE and FOLDER rows."""
# inputs: nested_zip
# parity: R41 R42 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip", backend="pandas")
d = ds.data
kids = d.read(2)
diffkit.emit({"kids": type(kids).__name__, "cols": list(kids.columns), "file": kids.read(1), "by_id": d.read("t3").read("image.tif")})
