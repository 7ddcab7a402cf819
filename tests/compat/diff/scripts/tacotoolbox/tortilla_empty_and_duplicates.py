# T13/T51: an empty tortilla and duplicate sibling ids are refused (ValueError).
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 2)
out = {}
for name, samples in (("empty", []), ("dups", [Sample(id="a", path=f[0]), Sample(id="a", path=f[1])])):
    try:
        Tortilla(samples)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = K.diffkit.exc(e)
K.emit(out)
