"""The tacotoolbox script of docs/python.md's migration guide ("From tacoreader and
tacotoolbox"), as a user runs it: FOLDER samples of two GeoTIFFs with metadata, one create().
`make bench-peers` runs it unchanged twice: with the real tacotoolbox, and after
`taco_cpp.compat.install()`. Usage: toolbox_script.py SRC METAS.pickle OUT.tacozip; prints the
seconds of the body (imports excluded, as for every row of the benchmark)."""

import pathlib
import pickle
import sys
import time

import tacotoolbox
from tacotoolbox.datamodel import Sample, Taco, Tortilla

src, metas_file, out = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
metas = pickle.loads(pathlib.Path(metas_file).read_bytes())

t0 = time.perf_counter()
samples = []
for m in metas:
    folder = src / m["id"]
    files = Tortilla([Sample(id=name, path=folder / name) for name in ("before.tif", "after.tif")])
    s = Sample(id=m["id"], path=files)
    s.extend_with({k: v for k, v in m.items() if k != "id"})
    samples.append(s)
taco = Taco(tortilla=Tortilla(samples), id="bench_small", dataset_version="1.0.0", description="peer benchmark dataset",
            licenses=["CC-BY-4.0"], providers=[{"name": "taco-cpp bench"}], tasks=["classification"])
tacotoolbox.create(taco, out)
print(time.perf_counter() - t0)
