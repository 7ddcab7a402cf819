# inputs: deep_zip
# B4: zip2folder of a ZIP with two levels of FOLDER samples: each DATA/<folder>/__meta__ holds the children's
# rows of their level with internal:current_id / internal:parent_id (no internal:relative_path,
# no offsets); values compared file by file.
import pyarrow.parquet as pq

import tacobridge
from _bkit import K

wd = K.workdir()
r = tacobridge.zip2folder(wd / "deep.tacozip", wd / "w" / "deep_folder")
meta = {p.relative_to(r).as_posix(): pq.read_table(p).schema.names for p in sorted(r.rglob("__meta__"))}
K.emit({"returned": [type(r).__name__, str(r.relative_to(wd))], "meta_columns": meta, "dataset": K.dump(r)})
