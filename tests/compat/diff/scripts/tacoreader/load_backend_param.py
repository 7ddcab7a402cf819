"""load(backend=...) per call: the type of .data and of its frame for each backend."""
# inputs: flat_zip
# parity: R8 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for b in ("pyarrow", "pandas", "polars"):
    ds = tacoreader.load(f"{W}/flat.tacozip", backend=b)
    d = ds.data
    out[b] = [type(d).__name__, type(d._data).__module__.split(".")[0], len(d), list(d.columns)]
diffkit.emit(out)
