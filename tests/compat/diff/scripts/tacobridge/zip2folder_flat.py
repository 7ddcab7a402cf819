# inputs: flat_zip
# B4: zip2folder(source, output) -> Path: a FOLDER with the same data and metadata values.
import tacobridge
from _bkit import K

wd = K.workdir()
r = tacobridge.zip2folder(wd / "flat.tacozip", wd / "w" / "flat_folder")
K.emit({"returned": [type(r).__name__, str(r.relative_to(wd))], "dataset": K.dump(r)})
