# T50/T58: Tortilla(samples): len, samples, metadata table (level 0), export_metadata().
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"s{k}", path=f, v=k) for k, f in enumerate(K.make_files(wd, 3))]
t = Tortilla(samples)
K.emit({"len": len(t), "ids": [s.id for s in t.samples], "table": K.diffkit.enc(t.metadata_table),
        "export": K.diffkit.enc(t.export_metadata())})
