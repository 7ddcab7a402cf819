# T42/T10: an extension column of an Arrow type the taco-cpp core does not store (int16):
# tacotoolbox writes it as int16; compat refuses it before writing anything, naming the column.
import io
import zipfile

import pyarrow as pa
import pyarrow.parquet as pq
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 2)
samples = []
for k in range(2):
    s = Sample(id=f"s{k}", path=f[k])
    s.extend_with(pa.table({"i16": pa.array([k], pa.int16())}))
    samples.append(s)
out = {}
(wd / "w").mkdir()
try:
    tacotoolbox.create(K.taco(Tortilla(samples)), str(wd / "w" / "i16.tacozip"))
    with zipfile.ZipFile(wd / "w" / "i16.tacozip") as z:
        t = pq.read_table(io.BytesIO(z.read("METADATA/level0.parquet")))
    out["written"] = {"type": str(t.schema.field("i16").type), "values": t.column("i16").to_pylist()}
except Exception as e:  # noqa: BLE001
    out["written"] = {"exception": type(e).__name__, "names_column": "i16" in str(e)}
out["left"] = sorted(p.name for p in (wd / "w").iterdir())
K.emit(out)
