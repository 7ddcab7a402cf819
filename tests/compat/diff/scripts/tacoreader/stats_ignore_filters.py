"""Statistics after a filter: upstream aggregates all of level 0."""
# inputs: flat_zip
# parity: R36 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
f = ds.filter_datetime("2023-01-01/2023-01-31")
diffkit.emit({"all": diffkit.run(ds.stats_mean, 0), "filtered": diffkit.run(f.stats_mean, 0)})
