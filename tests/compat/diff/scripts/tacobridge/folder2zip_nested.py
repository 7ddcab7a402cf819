# inputs: nested_folder
# B5: folder2zip of a FOLDER with FOLDER samples: every __meta__ member keeps the children's
# internal:current_id / internal:parent_id (tacobridge builds it from the level table's rows),
# next to internal:offset / internal:size; values compared member by member.
import io
import zipfile

import pyarrow.parquet as pq

import tacobridge
from _bkit import K

wd = K.workdir()
(wd / "w").mkdir()
r = tacobridge.folder2zip(wd / "nested_folder", wd / "w" / "nested.tacozip", progress=False)
d = K.dump(r)
d["members"] = sorted(d["members"])  # tacobridge adds DATA files in directory-listing order
with zipfile.ZipFile(r) as z:
    meta = {n: pq.read_table(io.BytesIO(z.read(n))).schema.names for n in sorted(z.namelist())
            if n.endswith("/__meta__")}
K.emit({"returned": r.name, "meta_columns": meta, "dataset": d})
