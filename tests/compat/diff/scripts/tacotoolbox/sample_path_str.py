# T35: a str path is taken as a pathlib.Path (relative paths made absolute).
import os
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
K.make_files(wd, 1)
os.chdir(wd)
s = Sample(id="a", path="src/f0.bin")
K.emit({"type": s.type, "path": str(s.path), "path_type": type(s.path).__name__})
