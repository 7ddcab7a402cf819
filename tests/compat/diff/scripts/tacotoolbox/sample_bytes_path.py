# T36/T39: bytes as path make a FILE whose path is a file name under temp_dir; temp_dir does
# not become a metadata column.
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="b", path=b"hello bytes", temp_dir=wd / "tmp")
K.emit({"type": s.type, "parent": str(s.path.parent), "columns": s.export_metadata().schema.names,
        "has_temp_dir_attr": hasattr(s, "temp_dir")})
