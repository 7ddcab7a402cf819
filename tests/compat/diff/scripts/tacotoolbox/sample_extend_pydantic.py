# T42: extend_with(a pydantic model, name=) adds "name:field" keys (class name lower-cased
# when no name is given).
import pydantic
from tacotoolbox.datamodel import Sample
import _tbkit as K


class Quality(pydantic.BaseModel):
    score: float
    ok: bool


wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
s.extend_with(Quality(score=0.5, ok=True))
s.extend_with(Quality(score=0.9, ok=False), name="q2")
K.emit({"score": getattr(s, "quality:score"), "q2": getattr(s, "q2:ok"),
        "columns": s.export_metadata().schema.names})
