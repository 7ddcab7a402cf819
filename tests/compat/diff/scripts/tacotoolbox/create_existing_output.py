# T11/T12: an existing output (ZIP or FOLDER) and the reserved FOLDER names .tacocat, DATA,
# METADATA are refused with TacoValidationError.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="s", path=K.make_files(wd, 1)[0])]))
(wd / "w").mkdir()
(wd / "w" / "exists.tacozip").write_bytes(b"x")
(wd / "w" / "exists_dir").mkdir()
out = {}
for name in ("exists.tacozip", "exists_dir", "DATA", "METADATA", ".tacocat"):
    try:
        tacotoolbox.create(t, wd / "w" / name)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = type(e).__name__
K.emit(out)
