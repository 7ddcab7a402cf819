# T4: split_size forms: "1.5KB", "2k", "100" are accepted; "4TB", "-1", "abc", "0" refused
# with TacoValidationError.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="s", path=K.make_files(wd, 1)[0])]))
out = {}
for i, size in enumerate(("1.5KB", "2k", "100", "4TB", "-1", "abc", "0")):
    try:
        out[size] = [p.name for p in tacotoolbox.create(t, wd / "w" / f"o{i}.tacozip", split_size=size)]
    except Exception as e:  # noqa: BLE001
        out[size] = {"class": type(e).__name__}
K.emit(out)
