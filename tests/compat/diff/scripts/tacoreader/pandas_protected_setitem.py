"""pandas backend: assigning a protected column raises ValueError; others work."""
# inputs: flat_zip
# parity: R44 R46 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
d = ds.data
out = {}
for col in ("id", "type", "internal:gdal_vsi", "new_col"):
    try:
        d[col] = 1
        out[col] = "ok"
    except Exception as e:
        out[col] = type(e).__name__
diffkit.emit(out)
