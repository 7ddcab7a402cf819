# T1/T58: three levels (root FOLDER > FOLDER > FILE) as a FOLDER dataset.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 8)
roots = []
for r in range(2):
    mids = []
    for m, mid in enumerate(("a", "b")):
        leaves = [Sample(id=f"b{b}.tif", path=f[r * 4 + m * 2 + b], band=b) for b in range(2)]
        mids.append(Sample(id=mid, path=Tortilla(leaves)))
    root = Sample(id=f"r{r}", path=Tortilla(mids))
    root.extend_with(K.stac(r))
    roots.append(root)
tacotoolbox.create(K.taco(Tortilla(roots)), wd / "w" / "deep")
K.emit(K.dump(wd / "w" / "deep"))
