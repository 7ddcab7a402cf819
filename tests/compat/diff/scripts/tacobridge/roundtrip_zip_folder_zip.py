# inputs: nested_zip
# B4/B5: ZIP -> FOLDER -> ZIP keeps every data member and metadata value.
import tacobridge
from _bkit import K

wd = K.workdir()
f = tacobridge.zip2folder(wd / "nested.tacozip", wd / "w" / "f")
z = tacobridge.folder2zip(f, wd / "w" / "back.tacozip")
K.emit(K.dump(z))
