# T67: PIT at Taco creation: root samples of one type; FOLDERs with the same child count,
# ids and types at level 1; deeper, the same counts.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 12)
fold = lambda sid, ids, off=0: Sample(id=sid, path=Tortilla([Sample(id=i, path=f[off + k]) for k, i in enumerate(ids)]))  # noqa: E731
cases = {
    "mixed": lambda: [fold("a", ["x"]), Sample(id="b", path=f[5])],
    "counts": lambda: [fold("a", ["x", "y"]), fold("b", ["x"])],
    "ids": lambda: [fold("a", ["x", "y"]), fold("b", ["x", "z"])],
    "ok": lambda: [fold("a", ["x", "y"]), fold("b", ["x", "y"], 2)],
    "deep_counts": lambda: [Sample(id="a", path=Tortilla([fold("m", ["p", "q"])])), Sample(id="b", path=Tortilla([fold("m", ["p"], 6)]))],
}
out = {}
for name, mk in cases.items():
    try:
        out[name] = K.taco(Tortilla(mk(), strict_schema=False)).id
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "pit": "PIT violation" in str(e)}
K.emit(out)
