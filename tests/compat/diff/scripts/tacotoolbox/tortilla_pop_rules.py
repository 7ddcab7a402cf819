# T55: Tortilla.pop refuses core fields (ValueError), unknown fields (KeyError) and fields
# that come from the samples (ValueError).
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = Tortilla([Sample(id=f"s{k}", path=f, v=k) for k, f in enumerate(K.make_files(wd, 2))])
out = {}
for f in ("id", "nope", "v"):
    try:
        t.pop(f)
        out[f] = "no error"
    except Exception as e:  # noqa: BLE001
        out[f] = K.diffkit.exc(e)
K.emit(out)
