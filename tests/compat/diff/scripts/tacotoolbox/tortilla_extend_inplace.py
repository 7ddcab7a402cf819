# T54/T59: Tortilla.extend_with(TortillaExtension) changes the tortilla and returns it; a
# user-written TortillaExtension runs; column conflicts and wrong row counts are refused.
import pyarrow as pa
from tacotoolbox.tortilla.datamodel import TortillaExtension
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K


class Rank(TortillaExtension):
    start: int = 0

    def get_schema(self):
        return pa.schema([pa.field("rank:pos", pa.int32())])

    def get_field_descriptions(self):
        return {"rank:pos": "position"}

    def _compute(self, tortilla):
        return pa.Table.from_pydict({"rank:pos": [self.start + i for i in range(len(tortilla.samples))]},
                                    schema=self.get_schema())


class Bad(TortillaExtension):
    def get_schema(self):
        return pa.schema([pa.field("bad", pa.int64())])

    def get_field_descriptions(self):
        return {}

    def _compute(self, tortilla):
        return pa.table({"bad": [1]})


wd = K.workdir()
t = Tortilla([Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 3))])
r = t.extend_with(Rank(start=10))
out = {"same_object": r is t, "table": K.diffkit.enc(t.export_metadata())}
for name, ext in (("conflict", Rank()), ("rows", Bad())):
    try:
        t.extend_with(ext)
        out[name] = "no error"
    except ValueError as e:
        out[name] = str(e)
out["pop"] = K.diffkit.enc(t.pop("rank:pos"))
out["after_pop"] = t.export_metadata().schema.names
K.emit(out)
