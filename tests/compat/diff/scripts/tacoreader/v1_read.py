"""tacoreader.v1 TortillaDataFrame.read(i) and TortillaDataSeries.read(), two levels deep."""
# A GDAL item gives its /vsisubfile/ path, BYTES its bytes, TORTILLA the nested frame
# (offsets absolute).
# inputs: legacy
# parity: R61
import sys

import diffkit
import pandas as pd
import tacoreader.v1 as v1

W = sys.argv[1]


def enc(x):
    if isinstance(x, pd.DataFrame):
        return {"class": type(x).__name__, "frame": diffkit.enc(pd.DataFrame(x))}
    return diffkit.enc(x)


nested = v1.load(f"{W}/legacy/nested.taco")
flat = v1.load(f"{W}/legacy/flat.tortilla")
out = {"flat": [enc(flat.read(i)) for i in range(len(flat))],
       "nested": [enc(nested.read(i)) for i in range(len(nested))],
       "child": [enc(nested.read(1).read(i)) for i in range(2)],
       "series": [enc(nested.iloc[i].read()) for i in range(len(nested))],
       "series_class": type(nested.iloc[0]).__name__,
       "filtered": enc(nested[nested["tortilla:file_format"] == "TORTILLA"].read(1)),
       "bad_index": diffkit.run(flat.read, 9)}
off_len, path = nested.read(1).read(0)[len("/vsisubfile/"):].split(",", 1)
off, n = map(int, off_len.split("_"))
with open(path, "rb") as f:
    f.seek(off)
    out["child_tiff_magic"] = f.read(4).hex()
diffkit.emit(out)
