# inputs: flat_zip
# B7/B8/B9: plan_zip2folder → one CopyTask per DATA member (src, dest, offset, size);
# execute(task) copies the bytes; finalize(plan) writes the metadata and returns the path.
# tacobridge 0.3.0 fails here with tacoreader 2.4.21 (AttributeError '_view_name').
import hashlib
import pathlib
import zipfile
import tacobridge
from _bkit import K

wd = K.workdir()
out = wd / "w" / "f"
doc = {"ok": False, "error": None, "tasks": None, "same_bytes": None, "has_collection": None}
try:
    plan = tacobridge.plan_zip2folder(str(wd / "flat.tacozip"), out)
    tasks = sorted(plan.tasks, key=lambda t: t.dest)
    doc["tasks"] = [[str(pathlib.Path(t.dest).relative_to(wd)), t.size, t.offset is not None] for t in tasks]
    for t in plan.tasks:
        tacobridge.execute(t)
    r = tacobridge.finalize(plan)
    with zipfile.ZipFile(wd / "flat.tacozip") as z:
        doc["same_bytes"] = all(hashlib.sha256(z.read(str(pathlib.Path(t.dest).relative_to(out)))).digest() ==
                                hashlib.sha256(pathlib.Path(t.dest).read_bytes()).digest() for t in tasks)
    doc["has_collection"] = (r / "COLLECTION.json").is_file()
    doc["ok"] = True
except Exception as e:  # noqa: BLE001
    doc["error"] = type(e).__name__
K.emit(doc)
