# inputs: nested_zip
# B4: zip2folder of a two-level dataset (DATA/<folder>/__meta__ files, level1.parquet).
import tacobridge
from _bkit import K

wd = K.workdir()
r = tacobridge.zip2folder(str(wd / "nested.tacozip"), str(wd / "w" / "nested"), workers=2, progress=False)
K.emit(K.dump(r))
