# T23/T24: create_tacocat of parts in subdirectories of the output directory: what each row's
# internal:source_file says, and whether a reader of the .tacocat finds the parts' bytes.
import pyarrow.parquet as pq
import tacoreader
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 4)
parts = []
for p in range(2):
    out = wd / "cat" / f"d{p}" / f"part{p}.tacozip"
    tacotoolbox.create(K.taco(Tortilla([Sample(id=f"s{p}{k}", path=f[p * 2 + k]) for k in range(2)])), out)
    parts.append(out)
res = {}
try:
    tacotoolbox.create_tacocat(parts, output=wd / "cat")
    res["source_file"] = pq.read_table(wd / "cat" / ".tacocat" / "level0.parquet").column(
        "internal:source_file").to_pylist()
except Exception as e:  # noqa: BLE001
    res["source_file"] = type(e).__name__


def first_bytes():
    ds = tacoreader.load(str(wd / "cat" / ".tacocat"))
    vsi = ds.data.read(0)
    path = vsi.split(",", 1)[1] if vsi.startswith("/vsisubfile/") else vsi
    off, size = map(int, vsi[len("/vsisubfile/"):].split(",", 1)[0].split("_"))
    with open(path, "rb") as fh:
        fh.seek(off)
        return fh.read(size) == f[0].read_bytes()


res["reads_part_bytes"] = K.run(first_bytes)
K.emit(res)
