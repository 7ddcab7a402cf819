"""flatten() by backend: pandas and polars frames."""
# inputs: nested_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for b in ("pandas", "polars"):
    ds = tacoreader.load(f"{W}/nested.tacozip", backend=b)
    f = ds.sort("l0:id").sort("l1:id").flatten()
    out[b] = [type(f).__module__.split(".")[0], list(f.columns), len(f)]
diffkit.emit(out)
