# T61/T62/T63: id lowercase [a-z0-9_-], title <= 250 chars, tasks from the TaskType list;
# missing required fields refused. Errors are pydantic ValidationErrors (ValueError).
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
tort = Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])])
out = {}
for name, kw in (("upper", {"name": "Abc"}), ("symbol", {"name": "a.b"}), ("ok", {"name": "a-b_c9"}),
                 ("title", {"title": "x" * 251}), ("title250", {"title": "x" * 250}),
                 ("task", {"tasks": ["not-a-task"]}), ("tasks_ok", {"tasks": ["segmentation", "other", "foundation-model"]})):
    try:
        t = K.taco(tort, **kw)
        out[name] = t.id
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
try:
    from tacotoolbox.datamodel import Taco
    Taco(tortilla=tort, id="x")
    out["missing"] = "no error"
except Exception as e:  # noqa: BLE001
    out["missing"] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
