# inputs: deep_folder
# B5: folder2zip of a three-level FOLDER dataset.
import tacobridge
from _bkit import K

wd = K.workdir()
(wd / "w").mkdir()
r = tacobridge.folder2zip(wd / "deep_folder", wd / "w" / "deep.tacozip")
K.emit(K.dump(r))
