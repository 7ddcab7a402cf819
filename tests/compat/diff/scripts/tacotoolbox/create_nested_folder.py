# T1/T19/T37: a FOLDER dataset of FOLDER samples (2 children each, STAC on both levels):
# levels 0 and 1 (METADATA/level*.parquet, DATA/<id>/__meta__), data bytes, collection.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 6)
roots = []
for r in range(3):
    kids = []
    for j, name in enumerate(("image.tif", "mask.tif")):
        s = Sample(id=name, path=f[r * 2 + j])
        s.extend_with(K.stac(r * 2 + j, bands=2 - j))
        kids.append(s)
    root = Sample(id=f"tile{r}", path=Tortilla(kids))
    root.extend_with(K.stac(r * 2))
    root.extend_with({"region": ["north", "south", "east"][r]})
    roots.append(root)
tacotoolbox.create(K.taco(Tortilla(roots)), wd / "w" / "nested")
K.emit(K.dump(wd / "w" / "nested"))
