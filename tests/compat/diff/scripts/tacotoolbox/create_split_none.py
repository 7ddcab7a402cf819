# T4: split_size=None never splits (one ZIP however large the samples are, no .tacocat).
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 4, size=2000))]
paths = tacotoolbox.create(K.taco(Tortilla(samples)), wd / "w" / "one.tacozip", split_size=None)
K.emit({"returned": [p.name for p in paths], "listing": sorted(p.name for p in (wd / "w").iterdir())})
