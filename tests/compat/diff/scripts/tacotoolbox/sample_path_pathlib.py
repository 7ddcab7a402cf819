# T34/T35: Sample(id=, path=pathlib.Path) is a FILE; path stored absolute; metadata row.
import pathlib
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
s = Sample(id="a", path=pathlib.Path(f))
K.emit({"id": s.id, "type": s.type, "path": str(s.path), "path_type": type(s.path).__name__,
        "is_abs": s.path.is_absolute(), "meta": K.diffkit.enc(s.export_metadata())})
