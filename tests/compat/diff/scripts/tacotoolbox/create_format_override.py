# T3: output_format="folder" with a .zip name writes the FOLDER at the stem;
# output_format="zip" with a plain name writes a ZIP at that name; a bad format refused.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 2))]))
out = {"folder": [str(p.relative_to(wd)) for p in tacotoolbox.create(t, wd / "w" / "x.zip", output_format="folder")],
       "zip": [str(p.relative_to(wd)) for p in tacotoolbox.create(t, wd / "w" / "plain", output_format="zip")]}
out["is_dir"] = (wd / "w" / "x").is_dir()
out["is_file"] = (wd / "w" / "plain").is_file()
try:
    tacotoolbox.create(t, wd / "w" / "y", output_format="tar")
    out["bad"] = "no error"
except Exception as e:  # noqa: BLE001
    out["bad"] = K.diffkit.exc(e)
K.emit(out)
