# T37: a Tortilla as path makes a FOLDER (path null in the metadata row).
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
files = K.make_files(wd, 2)
kids = Tortilla([Sample(id=f"k{i}", path=f) for i, f in enumerate(files)])
s = Sample(id="folder", path=kids)
K.emit({"type": s.type, "path_type": type(s.path).__name__, "meta": K.diffkit.enc(s.export_metadata())})
