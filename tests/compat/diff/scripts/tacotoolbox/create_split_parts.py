# T4/T5/T7: split_size small enough for 2 samples per part: parts {stem}_part0001.tacozip...
# and a .tacocat/ beside them (consolidate=True).
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = []
for k, f in enumerate(K.make_files(wd, 5, size=1000)):
    s = Sample(id=f"s{k}", path=f)
    s.extend_with(K.stac(k))
    samples.append(s)
paths = tacotoolbox.create(K.taco(Tortilla(samples)), wd / "w" / "big.tacozip", split_size="2KB")
out = {"returned": [str(p.relative_to(wd)) for p in paths], "listing": sorted(p.name for p in (wd / "w").iterdir())}
out["parts"] = {p.name: K.dump(p) for p in paths}
out["tacocat"] = K.dump(wd / "w" / ".tacocat")
K.emit(out)
