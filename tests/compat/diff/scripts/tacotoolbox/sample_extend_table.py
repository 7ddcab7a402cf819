# T42: extend_with(pa.Table of one row) keeps the table's Arrow types; 2 rows refused.
import pyarrow as pa
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
s = Sample(id="a", path=K.make_files(wd, 1)[0])
s.extend_with(pa.table({"f32": pa.array([1.5], pa.float32()), "i16": pa.array([7], pa.int16()),
                        "lst": pa.array([[1, 2]], pa.list_(pa.int32()))}))
out = {"meta": K.diffkit.enc(s.export_metadata())}
try:
    s.extend_with(pa.table({"x": [1, 2]}))
    out["two_rows"] = "no error"
except Exception as e:  # noqa: BLE001
    out["two_rows"] = K.diffkit.exc(e)
K.emit(out)
