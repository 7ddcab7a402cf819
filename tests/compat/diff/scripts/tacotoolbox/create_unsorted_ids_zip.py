# T17: FOLDER samples whose children are not in id order ("t_c" before "b_img"): tacotoolbox
# attaches level-1 internal:offset/size by position in the sorted archive, so rows point at
# a sibling's bytes; compat looks them up by archive path (deliberate difference; the dump
# names the member each offset points at).
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 4, size=300)
roots = []
for r in range(2):
    kids = [Sample(id="t_c", path=f[r * 2]), Sample(id="b_img", path=f[r * 2 + 1])]
    roots.append(Sample(id=f"r{r}", path=Tortilla(kids)))
tacotoolbox.create(K.taco(Tortilla(roots)), wd / "w" / "u.tacozip")
d = K.dump(wd / "w" / "u.tacozip")
l1 = d["files"]["METADATA/level1.parquet"]
cols = l1["columns"]
pairs = [[r[cols.index("id")], r[cols.index("internal:parent_id")], r[cols.index("internal:offset")]] for r in l1["rows"]]
l1["rows"] = "see pairs"
K.emit({"level1": l1, "pairs": pairs, "deliberate": d["deliberate"]})
