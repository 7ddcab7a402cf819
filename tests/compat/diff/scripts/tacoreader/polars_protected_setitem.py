"""polars backend: assigning a protected column raises ValueError; other columns are set or added."""
# inputs: flat_zip
# parity: R44 R46 (PARITY.md, tacoreader 2.4.21; found by tacoreader's own tests on compat)
import sys

import diffkit
import polars as pl
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="polars")
d = ds.data
out = {}
for col, value in (("id", 1), ("type", "FILE"), ("internal:gdal_vsi", "x"), ("new_col", list(range(len(d)))),
                   ("twice", pl.Series("ignored", [2] * len(d)))):
    try:
        d[col] = value
        out[col] = "ok"
    except Exception as e:
        out[col] = type(e).__name__
out["columns"] = list(d.columns)
out["new_col"] = d["new_col"].to_list()
out["twice"] = d["twice"].to_list()
diffkit.emit(out)
