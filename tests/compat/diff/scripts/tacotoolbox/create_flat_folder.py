# T1/T19: create(taco, out) writes a FOLDER for a name without .zip; the returned list and
# the written DATA/METADATA/COLLECTION.json compare value for value (see _tbkit.dump).
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla

import _tbkit as K

wd = K.workdir()
files = K.make_files(wd, 4)
samples = []
for k, f in enumerate(files):
    s = Sample(id=f"s{k}", path=f)
    s.extend_with(K.stac(k))
    s.extend_with({"cloud_cover": k * 2.5, "split": "train" if k % 2 else "test"})
    samples.append(s)
t = K.taco(Tortilla(samples))
paths = tacotoolbox.create(t, wd / "w" / "flat")
K.emit({"returned": [str(p.relative_to(wd)) for p in paths], "types": [type(p).__name__ for p in paths],
        "dataset": K.dump(wd / "w" / "flat")})
