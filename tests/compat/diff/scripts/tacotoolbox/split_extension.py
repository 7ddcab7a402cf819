# T76: Split(split=) adds "split" (train/test/validation); anything else refused.
from tacotoolbox.datamodel import Sample
from tacotoolbox.datamodel.sample import Split
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
out = {}
for v in ("train", "test", "validation", "val"):
    try:
        s = Sample(id="a", path=f)
        s.extend_with(Split(split=v))
        out[v] = K.diffkit.enc(s.export_metadata())
    except Exception as e:  # noqa: BLE001
        out[v] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
