# T7: consolidate=False: parts only, no .tacocat/.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 4, size=1000))]
paths = tacotoolbox.create(K.taco(Tortilla(samples)), wd / "w" / "p.zip", split_size="1500B", consolidate=False)
K.emit({"returned": [p.name for p in paths], "listing": sorted(p.name for p in (wd / "w").iterdir())})
