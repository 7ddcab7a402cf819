# T53: a FILE placed before a FOLDER gives a UserWarning (FOLDERs first is the convention).
import warnings
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 2)
folder = Sample(id="dir", path=Tortilla([Sample(id="k", path=f[0])]))
with warnings.catch_warnings(record=True) as got:
    warnings.simplefilter("always")
    Tortilla([Sample(id="file", path=f[1]), folder], strict_schema=False)
    Tortilla([folder, Sample(id="file2", path=f[1])], strict_schema=False)
K.emit([{"category": w.category.__name__, "message": str(w.message)} for w in got])
