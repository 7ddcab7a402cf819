# T56: export_metadata(deep=N) flattens N levels down with internal:parent_id and
# internal:current_id; deeper than the tree or negative is a ValueError.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 8)
roots = []
for r in range(2):
    mids = []
    for m in range(2):
        leaves = [Sample(id=f"leaf{b}", path=f[r * 4 + m * 2 + b], band=b) for b in range(2)]
        mids.append(Sample(id=f"m{m}", path=Tortilla(leaves), level="mid"))
    roots.append(Sample(id=f"r{r}", path=Tortilla(mids)))
t = Tortilla(roots)
out = {"d1": K.diffkit.enc(t.export_metadata(deep=1)), "d2": K.diffkit.enc(t.export_metadata(deep=2))}
for d in (3, -1, 6):
    try:
        t.export_metadata(deep=d)
        out[str(d)] = "no error"
    except ValueError as e:
        out[str(d)] = str(e)
K.emit(out)
