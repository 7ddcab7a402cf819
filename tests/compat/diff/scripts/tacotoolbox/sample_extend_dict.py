# T42: extend_with(dict) adds fields in place and returns None.
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
r = s.extend_with({"v": 1, "w": 2.0, "ns:key": "t"})
K.emit({"returned": repr(r), "meta": K.diffkit.enc(s.export_metadata()), "attr": getattr(s, "ns:key")})
