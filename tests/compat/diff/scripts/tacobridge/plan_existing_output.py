# inputs: flat_zip, flat_folder
# B7/B10: planning into an existing output raises TacoPlanError (nothing written).
import tacobridge
from _bkit import K

wd = K.workdir()
(wd / "w").mkdir()
(wd / "w" / "taken").mkdir()
(wd / "w" / "taken.tacozip").write_bytes(b"x")
out = {}
for name, fn in (("zip2folder", lambda: tacobridge.plan_zip2folder(str(wd / "flat.tacozip"), wd / "w" / "taken")),
                 ("folder2zip", lambda: tacobridge.plan_folder2zip(wd / "flat_folder", wd / "w" / "taken.tacozip"))):
    try:
        fn()
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = type(e).__name__
K.emit(out)
