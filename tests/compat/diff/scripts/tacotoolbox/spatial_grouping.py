# T84: SpatialGrouping(target_count=) and (target_size=): Z-order groups "sg0000"...;
# neither given, a bad size: refused.
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.sample import STAC
from tacotoolbox.tortilla.extensions.spatial_grouping import SpatialGrouping
import _tbkit as K

wd = K.workdir()
pts = [(0.5, 0.5), (-3.7, 40.4), (151.2, -33.9), (-74.0, 40.7), (139.7, 35.7), (18.4, -33.9), (-3.6, 40.5), (0.6, 0.4)]
f = K.make_files(wd, len(pts), size=1000)


def tort():
    samples = []
    for k, (lon, lat) in enumerate(pts):
        s = Sample(id=f"s{k}", path=f[k])
        s.extend_with(STAC(crs="EPSG:4326", tensor_shape=(1, 2, 2), geotransform=(lon, 0.001, 0.0, lat, 0.0, -0.001), time_start=K.T0))
        samples.append(s)
    return Tortilla(samples)


out = {}
for name, kw in (("count3", dict(target_count=3)), ("size", dict(target_size="2KB")), ("both", dict(target_count=2, target_size="3KB"))):
    t = tort()
    t.extend_with(SpatialGrouping(**kw))
    out[name] = t.export_metadata().column("spatialgroup:code").to_pylist()
for name, kw in (("none", {}), ("bad_size", dict(target_size="lots"))):
    try:
        SpatialGrouping(**kw)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
