# inputs: flat_zip
# B7/B8/B9: plan_zip2folder → one CopyTask per DATA member (src, dest, offset, size);
# execute(task) copies the bytes; finalize(plan) writes the metadata and returns the path.
import tacobridge
from _bkit import K

wd = K.workdir()
out = wd / "w" / "f"
plan = tacobridge.plan_zip2folder(str(wd / "flat.tacozip"), out)
tasks = sorted(plan.tasks, key=lambda t: t.dest)
doc = {"plan_type": type(plan).__name__, "n": len(tasks),
       "tasks": [{"dest": str(__import__("pathlib").Path(t.dest).relative_to(wd)), "size": t.size,
                  "has_offset": t.offset is not None} for t in tasks]}
for t in plan.tasks:
    tacobridge.execute(t)
r = tacobridge.finalize(plan)
doc["returned"] = str(r.relative_to(wd))
doc["dataset"] = K.dump(r)
K.emit(doc)
