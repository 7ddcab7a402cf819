"""sql() with the pandas backend: dtypes and index."""
# inputs: flat_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
r = ds.sql('SELECT "l0:id", "l0:cloud_cover", "l0:split" FROM l0 ORDER BY 1')
diffkit.emit({"r": r})
