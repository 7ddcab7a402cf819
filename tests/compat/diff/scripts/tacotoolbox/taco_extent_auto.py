# T68: the extent is computed from the first level with STAC centroids and times (time
# range from time_middle when present, else time_start); no STAC anywhere: the global box
# and no temporal extent; a FOLDER tree: the level below when level 0 has no STAC.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 6)
flat = [Sample(id=f"s{k}", path=f[k]) for k in range(3)]
for k, s in enumerate(flat):
    s.extend_with(K.stac(k * 50, time_end=K.T0 + (k * 50 + 5) * K.DAY))
plain = [Sample(id=f"p{k}", path=f[k]) for k in range(2)]
nested = []
for r in range(2):
    leaf = Sample(id="img", path=f[3 + r])
    leaf.extend_with(K.stac(r * 200))
    nested.append(Sample(id=f"n{r}", path=Tortilla([leaf])))
K.emit({"flat": K.taco(Tortilla(flat)).extent.model_dump(), "plain": K.taco(Tortilla(plain)).extent.model_dump(),
        "nested": K.taco(Tortilla(nested)).extent.model_dump()})
