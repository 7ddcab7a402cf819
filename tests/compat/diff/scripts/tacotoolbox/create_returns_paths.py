# T1: create returns a list of pathlib.Path; Path and str outputs both accepted.
import pathlib
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="s", path=K.make_files(wd, 1)[0])]))
a = tacotoolbox.create(t, str(wd / "w" / "a.TACOZIP"))
b = tacotoolbox.create(t, pathlib.Path(wd / "w" / "b"))
K.emit({"a": [(type(p).__name__, p.name) for p in a], "b": [(type(p).__name__, p.name) for p in b],
        "a_is_zip": (wd / "w" / "a.TACOZIP").is_file()})
