# T36: Sample(path=bytes) written into a ZIP and a FOLDER: the bytes are the members.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"note{k}.txt", path=(f"note {k} " * (k + 1)).encode(), temp_dir=wd / "tmp") for k in range(3)]
t = K.taco(Tortilla(samples))
tacotoolbox.create(t, wd / "w" / "b.tacozip")
K.emit({"zip": K.dump(wd / "w" / "b.tacozip")})
