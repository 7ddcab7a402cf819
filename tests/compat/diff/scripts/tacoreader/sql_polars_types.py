"""sql() with the polars backend: dtypes of list and timestamp columns."""
# inputs: flat_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="polars")
r = ds.sql('SELECT "l0:id", "l0:stac:time_start", "l0:stac:tensor_shape", "l0:cloud_cover" FROM l0 ORDER BY 1')
diffkit.emit({"r": r})
