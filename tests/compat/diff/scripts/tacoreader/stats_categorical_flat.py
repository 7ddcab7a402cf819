"""stats_categorical() on continuous stats: what it returns or raises."""
# inputs: flat_zip
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"b0": diffkit.run(ds.stats_categorical, 0)})
