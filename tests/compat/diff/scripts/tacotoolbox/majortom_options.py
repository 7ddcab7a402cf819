# T83: MajorTOM latitude_range/longitude_range (outside: null code) and sep; no stac:centroid
# column refused.
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.sample import STAC
from tacotoolbox.datamodel.tortilla import MajorTOM
import _tbkit as K

wd = K.workdir()
pts = [(0.5, 0.5), (-3.7, 40.4), (10.0, 70.0)]
f = K.make_files(wd, 3)


def tort():
    samples = []
    for k, (lon, lat) in enumerate(pts):
        s = Sample(id=f"s{k}", path=f[k])
        s.extend_with(STAC(crs="EPSG:4326", tensor_shape=(1, 2, 2), geotransform=(lon, 0.001, 0.0, lat, 0.0, -0.001), time_start=K.T0))
        samples.append(s)
    return Tortilla(samples)


out = {}
t = tort()
t.extend_with(MajorTOM(dist_km=100, sep="-"))
out["sep"] = t.export_metadata().column("majortom:code").to_pylist()
t = tort()
t.extend_with(MajorTOM(dist_km=100, latitude_range=(-60, 60)))
out["lat_range"] = t.export_metadata().column("majortom:code").to_pylist()
try:
    Tortilla([Sample(id="x", path=f[0])]).extend_with(MajorTOM())
    out["no_stac"] = "no error"
except ValueError as e:
    out["no_stac"] = str(e).splitlines()[0]
K.emit(out)
