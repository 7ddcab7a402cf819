# T38: type="FILE"/"FOLDER" checked against the path; "auto" inferred; a mismatch is refused.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
out = {"file_ok": Sample(id="a", path=f, type="FILE").type}
t = Tortilla([Sample(id="x", path=f)])
out["folder_ok"] = Sample(id="b", path=t, type="FOLDER").type
for name, kw in (("file_as_folder", dict(id="c", path=f, type="FOLDER")), ("folder_as_file", dict(id="d", path=t, type="FILE"))):
    try:
        Sample(**kw)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError), "mismatch": "Type mismatch" in str(e)}
K.emit(out)
