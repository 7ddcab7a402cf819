# T6: group_by="region": one ZIP per value, {stem}_{value}.tacozip (value sanitised), and a
# .tacocat/ of the groups.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
regions = ["eu/west", "asia", "eu/west", "africa", "asia"]
samples = []
for k, f in enumerate(K.make_files(wd, 5)):
    s = Sample(id=f"s{k}", path=f, region=regions[k])
    s.extend_with(K.stac(k))
    samples.append(s)
paths = tacotoolbox.create(K.taco(Tortilla(samples)), wd / "w" / "g.tacozip", group_by="region")
out = {"returned": sorted(p.name for p in paths), "listing": sorted(p.name for p in (wd / "w").iterdir())}
out["groups"] = {p.name: K.dump(p)["files"]["METADATA/level0.parquet"] for p in paths}
K.emit(out)
