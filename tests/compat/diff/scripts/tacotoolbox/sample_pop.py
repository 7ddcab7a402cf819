# T44: pop(field) removes the field and returns it as a one-row table with its type;
# unknown field KeyError, core field ValueError.
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
s.extend_with(K.stac(0))
s.extend_with({"cloud": 3.5})
out = {"popped": K.diffkit.enc(s.pop("stac:crs")), "cloud": K.diffkit.enc(s.pop("cloud")),
       "left": s.export_metadata().schema.names, "has": hasattr(s, "cloud")}
for f in ("missing", "id"):
    try:
        s.pop(f)
    except Exception as e:  # noqa: BLE001
        out[f] = {"class": type(e).__name__}
K.emit(out)
