# T43: keys must match ^[a-zA-Z0-9_]+(:\w+)?$ and may not be core fields.
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
out = {}
for key in ("a-b", "a:b:c", "id", "type", "path", "good_key", "ns:ok", "x y"):
    try:
        s.extend_with({key: 1})
        out[key] = "ok"
    except Exception as e:  # noqa: BLE001
        out[key] = K.diffkit.exc(e)
K.emit(out)
