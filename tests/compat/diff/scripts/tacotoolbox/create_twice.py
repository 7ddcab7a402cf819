# T14: the same Taco written twice. tacotoolbox deletes the temporary files of bytes samples
# after the first create, so the second fails; compat keeps the bytes in memory and writes
# both (deliberate difference).
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=b"abc", temp_dir=wd / "tmp"), Sample(id="b", path=b"de", temp_dir=wd / "tmp")]))
out = {"first": [p.name for p in tacotoolbox.create(t, wd / "w" / "one.tacozip")]}
try:
    out["second"] = [p.name for p in tacotoolbox.create(t, wd / "w" / "two.tacozip")]
except Exception as e:  # noqa: BLE001
    out["second"] = type(e).__name__
K.emit(out)
