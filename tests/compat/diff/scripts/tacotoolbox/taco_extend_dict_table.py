# T69: Taco.extend_with(dict | one-row pa.Table) sets attributes in place and returns None.
import pyarrow as pa
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])]))
r1 = t.extend_with({"sensor": "s2", "bands": [1, 2]})
r2 = t.extend_with(pa.table({"rev": [3], "tags": [["a", "b"]]}))
K.emit({"returned": [repr(r1), repr(r2)], "sensor": t.sensor, "bands": t.bands, "rev": t.rev, "tags": t.tags})
