"""polars backend: to_polars, filter, select, sort, limit."""
# inputs: flat_zip
# parity: R45 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import polars as pl

ds = tacoreader.load(f"{W}/flat.tacozip", backend="polars")
d = ds.data
out = {"to_polars": type(d.to_polars()).__name__}
for name, fn in (("filter", lambda: d.filter(pl.col("cloud_cover") > 20)), ("select", lambda: d.select(["id"])),
                 ("sort", lambda: d.sort("cloud_cover", descending=True)), ("limit", lambda: d.limit(2))):
    try:
        r = fn()
        out[name] = [type(r).__name__, len(r)]
    except Exception as e:
        out[name] = type(e).__name__
diffkit.emit(out)
