# T49: a user-written SampleExtension subclass (pydantic-style keyword fields) runs, its
# schema and descriptions are kept; schema_only/return_none give nulls with the schema.
import pyarrow as pa
from tacotoolbox.sample.datamodel import SampleExtension
from tacotoolbox.datamodel import Sample
import _tbkit as K


class Brightness(SampleExtension):
    gain: float = 2.0

    def get_schema(self):
        return pa.schema([pa.field("bright:value", pa.float32()), pa.field("bright:size", pa.int64())])

    def get_field_descriptions(self):
        return {"bright:value": "mean byte times gain", "bright:size": "bytes"}

    def _compute(self, sample):
        raw = sample.path.read_bytes()
        return pa.Table.from_pydict({"bright:value": [sum(raw) / len(raw) * self.gain], "bright:size": [len(raw)]},
                                    schema=self.get_schema())


wd = K.workdir()
f = K.make_files(wd, 2)
a = Sample(id="a", path=f[0])
a.extend_with(Brightness(gain=3.0))
b = Sample(id="b", path=f[1])
b.extend_with(Brightness(schema_only=True))
c = Sample(id="c", path=f[1])
c.extend_with(Brightness(return_none=True))
K.emit({"a": K.diffkit.enc(a.export_metadata()), "b": K.diffkit.enc(b.export_metadata()),
        "c": K.diffkit.enc(c.export_metadata())})
