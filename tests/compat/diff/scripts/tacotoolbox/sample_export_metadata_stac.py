# T45/T72: export_metadata() after STAC: column order, Arrow types, values (centroid WKB).
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
s.extend_with(K.stac(3, bands=4, time_end=K.T0 + 10 * K.DAY))
K.emit(K.diffkit.enc(s.export_metadata()))
