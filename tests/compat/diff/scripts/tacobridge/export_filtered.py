# inputs: flat_zip
# B1/B2: export(dataset filtered by time, out). tacoreader 2.4.21's datasets lack the
# attribute tacobridge 0.3.0 reads (AttributeError '_joined_levels'): upstream fails; compat
# writes the subset (deliberate difference). (In 2.4.21 sql() returns a table, not a dataset.)
import tacoreader
import tacobridge
from _bkit import K

wd = K.workdir()
ds = tacoreader.load(str(wd / "flat.tacozip"))
sub = ds.filter_datetime("2023-01-01/2023-04-30")
doc = {"ok": False, "error": None, "ids": None}
try:
    r = tacobridge.export(sub, wd / "w" / "train.tacozip")
    t = K.dump(r)["files"]["METADATA/level0.parquet"]
    doc.update(ok=True, ids=[row[t["columns"].index("id")] for row in t["rows"]])
except Exception as e:  # noqa: BLE001
    doc["error"] = type(e).__name__
K.emit(doc)
