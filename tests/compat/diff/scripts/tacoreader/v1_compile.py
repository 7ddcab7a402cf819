"""tacoreader.v1.compile: a subset of a TACO v1 frame written as a new Tortilla."""
# The subset holds a nested TORTILLA and a BYTES item; the file is compared byte for byte,
# then read back.
# inputs: legacy
# parity: R63
import sys

import diffkit
import pandas as pd
import tacoreader.v1 as v1

W = sys.argv[1]
nested = v1.load(f"{W}/legacy/nested.taco")
sub = nested[nested["tortilla:id"].isin(["t1", "readme"])]
r = v1.compile(sub, f"{W}/out/sub.tortilla", quiet=True)
back = v1.load(str(r))
diffkit.emit({"returned": [type(r).__name__, r.name], "frame": pd.DataFrame(back),
              "child": pd.DataFrame(back.read(0)), "bytes": back.read(1),
              "bad_unit": diffkit.run(v1.compile, sub, f"{W}/out/x.tortilla", chunk_size_iter="10XB")})
