# T6: group_by on an integer column warns (UserWarning) and names files by the number;
# an unknown column is a TacoCreationError.
import warnings
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"s{k}", path=f, zone=k % 2) for k, f in enumerate(K.make_files(wd, 4))]
t = K.taco(Tortilla(samples))
with warnings.catch_warnings(record=True) as got:
    warnings.simplefilter("always")
    paths = tacotoolbox.create(t, wd / "w" / "z.tacozip", group_by="zone", consolidate=False)
out = {"returned": sorted(p.name for p in paths),
       "warnings": [w.category.__name__ for w in got if "integer" in str(w.message)]}
try:
    tacotoolbox.create(t, wd / "w2" / "z.tacozip", group_by="nope")
    out["unknown"] = "no error"
except Exception as e:  # noqa: BLE001
    out["unknown"] = type(e).__name__
K.emit(out)
