# T1/T18: the nested dataset as a ZIP: member list, data bytes, level tables (with
# internal:offset/size of every member), __meta__ tables, COLLECTION.json.
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
    roots.append(root)
tacotoolbox.create(K.taco(Tortilla(roots)), wd / "w" / "nested.tacozip")
K.emit(K.dump(wd / "w" / "nested.tacozip"))
