# T60: Taco(...) keeps the given fields; optional ones default (taco_version "0.5.0" on the
# object, title/curators/keywords None); extra keywords become attributes.
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])]), name="my-set_1", custom_field={"k": 1})
K.emit({"id": t.id, "dataset_version": t.dataset_version, "licenses": t.licenses, "tasks": t.tasks,
        "taco_version": t.taco_version, "title": t.title, "curators": t.curators, "keywords": t.keywords,
        "providers": [p.model_dump() for p in t.providers], "provider_type": type(t.providers[0]).__name__,
        "custom": t.custom_field, "extent": t.extent.model_dump()})
