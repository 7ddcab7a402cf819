# T28: tacotoolbox._tacollection.create_tacollection(inputs, output): TACOLLECTION.json of
# two ZIPs (summed pit_schema, merged extent, taco:sources).
import json
import tacotoolbox
from tacotoolbox._tacollection import create_tacollection
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 4)
parts = []
for p in range(2):
    samples = []
    for k in range(2):
        s = Sample(id=f"s{k}", path=f[p * 2 + k])
        s.extend_with(K.stac(p * 40 + k))
        samples.append(s)
    out = wd / "w" / f"part{p}.tacozip"
    tacotoolbox.create(K.taco(Tortilla(samples)), out)
    parts.append(out)
create_tacollection([str(p) for p in parts], output=wd / "w" / "TACOLLECTION.json")
c = json.loads((wd / "w" / "TACOLLECTION.json").read_text())
pit = c.get("taco:pit_schema") or {}
K.emit({"keys": sorted(c), "pit_shape": pit.pop("shape", None), "pit": pit, "extent": c.get("extent"), "sources": c.get("taco:sources")})
