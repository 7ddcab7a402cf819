# T71: a user-written TacoExtension subclass: its one-row table becomes attributes.
import pyarrow as pa
from tacotoolbox.taco.datamodel import TacoExtension
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K


class Census(TacoExtension):
    def get_schema(self):
        return pa.schema([pa.field("census:n", pa.int64())])

    def get_field_descriptions(self):
        return {"census:n": "samples"}

    def _compute(self, taco):
        return pa.table({"census:n": [len(taco.tortilla.samples)], "census:ids": [[s.id for s in taco.tortilla.samples]]})


wd = K.workdir()
t = K.taco(Tortilla([Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 3))]))
t.extend_with(Census())
K.emit({"n": getattr(t, "census:n"), "ids": getattr(t, "census:ids")})
