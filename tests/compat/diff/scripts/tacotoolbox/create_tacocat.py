# T22/T24/T25/T26: create_tacocat(inputs) → .tacocat/ in the inputs' directory (level
# tables with internal:source_file, COLLECTION.json with summed PIT and taco:sources);
# returns None; an existing .tacocat refused.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 6)
parts = []
for p in range(2):
    samples = []
    for k in range(3):
        s = Sample(id=f"p{p}s{k}", path=f[p * 3 + k])
        s.extend_with(K.stac(p * 3 + k))
        samples.append(s)
    out = wd / "w" / f"part{p}.tacozip"
    tacotoolbox.create(K.taco(Tortilla(samples)), out)
    parts.append(out)
r = tacotoolbox.create_tacocat([str(p) for p in parts])
res = {"returned": repr(r), "tacocat": K.dump(wd / "w" / ".tacocat")}
try:
    tacotoolbox.create_tacocat(parts)
    res["again"] = "no error"
except Exception as e:  # noqa: BLE001
    res["again"] = type(e).__name__
K.emit(res)
