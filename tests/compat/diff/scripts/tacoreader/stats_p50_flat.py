"""stats_p50() over level 0 of a flat dataset (geotiff:stats): one band and a list."""
# inputs: flat_zip
# parity: R35 R37 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"b0": diffkit.run(ds.stats_p50, 0), "both": diffkit.run(ds.stats_p50, [0, 1])})
