# T41: extra keywords become extension fields with types inferred by pyarrow.
import datetime as dt
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
s = Sample(id="a", path=f, cloud=12.5, count=3, flag=True, name="x", tags=["a", "b"],
           when=dt.datetime(2024, 5, 1, 12, 0), nested={"k": 1})
K.emit({"meta": K.diffkit.enc(s.export_metadata()), "cloud": s.cloud, "tags": s.tags})
