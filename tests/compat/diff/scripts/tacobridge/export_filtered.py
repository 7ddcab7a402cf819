# inputs: flat_zip
# B1/B2: export(dataset.sql(...), out). tacoreader 2.4.21's datasets lack the attribute
# tacobridge 0.3.0 reads (AttributeError '_joined_levels'): upstream fails; compat writes
# the filtered subset (deliberate difference).
import tacoreader
import tacobridge
from _bkit import K

wd = K.workdir()
ds = tacoreader.load(str(wd / "flat.tacozip"))
sub = ds.sql("SELECT * FROM data WHERE split = 'train'")
try:
    r = tacobridge.export(sub, wd / "w" / "train.tacozip")
    doc = {"ok": True, "level0_ids": K.dump(r)["files"]["METADATA/level0.parquet"]["rows"]}
except Exception as e:  # noqa: BLE001
    doc = {"ok": False, "error": type(e).__name__}
K.emit(doc)
