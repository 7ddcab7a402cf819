# inputs: nested_folder
# B7/B9: plan_folder2zip → ZipEntry(src, arc_path) per data file; finalize writes the ZIP.
import tacobridge
from _bkit import K

wd = K.workdir()
(wd / "w").mkdir()
plan = tacobridge.plan_folder2zip(wd / "nested_folder", wd / "w" / "n.tacozip")
doc = {"plan_type": type(plan).__name__, "arc_paths": sorted(e.arc_path for e in plan.entries)}
r = tacobridge.finalize(plan)
doc["dataset"] = K.dump(r)
K.emit(doc)
