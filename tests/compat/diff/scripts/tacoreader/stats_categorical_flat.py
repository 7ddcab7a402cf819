"""stats_categorical() on continuous stats: what it returns or raises."""
# inputs: flat_zip
# parity: R35 R37 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"b0": diffkit.run(ds.stats_categorical, 0)})
