# T40: ids with "/", "\", ":" or a leading "__" are refused; others kept.
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
out = {}
for sid in ("ok_id", "a/b", "a\\b", "a:b", "__x", "_x", "a.b", "with space"):
    try:
        out[sid] = Sample(id=sid, path=f).id
    except Exception as e:  # noqa: BLE001
        out[sid] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
