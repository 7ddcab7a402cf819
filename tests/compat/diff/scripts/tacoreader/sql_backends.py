"""sql() returns a pyarrow Table, pandas DataFrame or polars DataFrame by backend."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for b in ("pyarrow", "pandas", "polars"):
    ds = tacoreader.load(f"{W}/nested.tacozip", backend=b)
    r = ds.sql('SELECT "l1:id", "l0:id" FROM l1 ORDER BY "l0:id", "l1:id"')
    out[b] = r
diffkit.emit(out)
