"""tacoreader.v1.load of a Tortilla and a TACO v1 file: the footer frame and its class."""
# Columns in prefix order, dtypes, values, internal:subfile; a list of files is concatenated
# and sorted by tortilla:id (its index follows the order the files were read in: reset).
# inputs: legacy
# parity: R61
import sys

import diffkit
import pandas as pd
import tacoreader.v1 as v1

W = sys.argv[1]


def frame(d):
    return {"class": type(d).__name__, "mro": [c.__name__ for c in type(d).__mro__[1:3]], "frame": pd.DataFrame(d)}


out = {}
for name in ("flat.tortilla", "nested.taco"):
    out[name] = frame(v1.load(f"{W}/legacy/{name}"))
both = v1.load([f"{W}/legacy/nested.taco", f"{W}/legacy/flat.tortilla"])
out["list"] = frame(both.reset_index(drop=True))
out["all"] = sorted(v1.__all__)
diffkit.emit(out)
