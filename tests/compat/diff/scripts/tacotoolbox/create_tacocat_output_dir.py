# T23: create_tacocat(inputs, output=DIR) writes DIR/.tacocat/; inputs in different
# directories without output are refused.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 4)
parts = []
for p in range(2):
    out = wd / f"d{p}" / f"part{p}.tacozip"
    tacotoolbox.create(K.taco(Tortilla([Sample(id=f"s{k}", path=f[p * 2 + k]) for k in range(2)])), out)
    parts.append(out)
res = {}
try:
    tacotoolbox.create_tacocat(parts)
    res["no_output"] = "no error"
except Exception as e:  # noqa: BLE001
    res["no_output"] = type(e).__name__
tacotoolbox.create_tacocat(parts, output=wd / "cat")
res["listing"] = sorted(p.name for p in (wd / "cat" / ".tacocat").iterdir())
res["level0"] = K.dump(wd / "cat" / ".tacocat")["files"]["level0.parquet"]
K.emit(res)
