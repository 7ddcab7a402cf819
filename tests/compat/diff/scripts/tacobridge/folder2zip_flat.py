# inputs: flat_folder
# B5: folder2zip(source, output) -> Path: a ZIP whose members and values match.
import tacobridge
from _bkit import K

wd = K.workdir()
(wd / "w").mkdir()
r = tacobridge.folder2zip(wd / "flat_folder", wd / "w" / "flat.tacozip", progress=False)
d = K.dump(r)
d["members"] = sorted(d["members"])  # tacobridge adds DATA files in directory-listing order
K.emit({"returned": r.name, "dataset": d})
