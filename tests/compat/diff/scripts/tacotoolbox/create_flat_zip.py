# T1/T2/T18: create(taco, "x.tacozip") writes a ZIP (auto format); members in order, data
# bytes, metadata tables and COLLECTION.json compare value for value.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla

import _tbkit as K

wd = K.workdir()
files = K.make_files(wd, 5)
samples = []
for k, f in enumerate(files):
    s = Sample(id=f"s{k}", path=f)
    s.extend_with(K.stac(k))
    samples.append(s)
t = K.taco(Tortilla(samples))
paths = tacotoolbox.create(t, str(wd / "w" / "flat.tacozip"))
K.emit({"returned": [str(p.relative_to(wd)) for p in paths], "dataset": K.dump(wd / "w" / "flat.tacozip")})
