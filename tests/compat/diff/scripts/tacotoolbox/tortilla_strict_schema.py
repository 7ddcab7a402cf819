# T52: differing schemas are refused with strict_schema=True (ValueError naming the sample)
# and aligned (core first, the rest by name, missing values null) with strict_schema=False.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 3)
mk = lambda: [Sample(id="a", path=f[0], z=1, b="x"), Sample(id="b", path=f[1], a=2.5), Sample(id="c", path=f[2])]  # noqa: E731
out = {}
try:
    Tortilla(mk())
    out["strict"] = "no error"
except ValueError as e:
    out["strict"] = {"class": type(e).__name__, "first_line": str(e).splitlines()[0]}
out["loose"] = K.diffkit.enc(Tortilla(mk(), strict_schema=False).export_metadata())
K.emit(out)
