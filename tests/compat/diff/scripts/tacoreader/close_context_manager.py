"""close() and the context manager."""
# inputs: flat_zip
# parity: R17 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

with tacoreader.load(f"{W}/flat.tacozip") as ds:
    n = len(ds.data)
ds2 = tacoreader.load(f"{W}/flat.tacozip")
r = ds2.close()
diffkit.emit({"n": n, "close": r, "type": type(ds).__name__})
