# T20/T75/T76: sample extensions (Scaling per band, Split, a dict) and a tortilla extension
# (a user's TortillaExtension) as written columns with their descriptions in
# taco:field_schema.
import pyarrow as pa
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.sample import Scaling, Split
from tacotoolbox.tortilla.datamodel import TortillaExtension
import _tbkit as K


class Order(TortillaExtension):
    def get_schema(self):
        return pa.schema([pa.field("order:idx", pa.int32())])

    def get_field_descriptions(self):
        return {"order:idx": "position in the tortilla"}

    def _compute(self, tortilla):
        return pa.Table.from_pydict({"order:idx": list(range(len(tortilla.samples)))}, schema=self.get_schema())


wd = K.workdir()
samples = []
for k, f in enumerate(K.make_files(wd, 4)):
    s = Sample(id=f"s{k}", path=f)
    s.extend_with(K.stac(k))
    s.extend_with(Scaling(scale_factor=[0.5, 0.25], scale_offset=[0.0, 1.0], padding=[0, 0, 1, 1]))
    s.extend_with(Split(split=["train", "test", "validation", "train"][k]))
    s.extend_with({"score": float(k) / 3})
    samples.append(s)
t = Tortilla(samples)
t.extend_with(Order())
tacotoolbox.create(K.taco(t), wd / "w" / "ext")
K.emit(K.dump(wd / "w" / "ext"))
