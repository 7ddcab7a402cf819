# T75: Scaling with scalars (float32 columns), per-band lists (list<float32>), nothing
# (all null), padding of 4; zero factor and 3-item padding refused.
from tacotoolbox.datamodel import Sample
from tacotoolbox.datamodel.sample import Scaling
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 1)[0]
out = {}
for name, kw in (("scalar", dict(scale_factor=0.0001, scale_offset=-0.1)),
                 ("per_band", dict(scale_factor=[0.1, 0.2, 0.3], scale_offset=0.5, padding=[1, 2, 3, 4])),
                 ("empty", {}), ("zero", dict(scale_factor=0.0)), ("zero_in_list", dict(scale_factor=[1.0, 0.0])),
                 ("padding3", dict(padding=[1, 2, 3]))):
    try:
        s = Sample(id="a", path=f)
        s.extend_with(Scaling(**kw))
        out[name] = K.diffkit.enc(s.export_metadata())
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
