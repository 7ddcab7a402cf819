# T83: MajorTOM(dist_km) codes of samples spread over the globe ("0100km_0003U_0005R").
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.sample import STAC
from tacotoolbox.datamodel.tortilla import MajorTOM
import _tbkit as K

wd = K.workdir()
pts = [(0.5, 0.5), (-3.7, 40.4), (151.2, -33.9), (-74.0, 40.7), (139.7, 35.7), (18.4, -33.9), (-179.5, 60.0), (10.0, 84.0)]
f = K.make_files(wd, len(pts))
out = {}
for dist in (100, 50, 10):
    samples = []
    for k, (lon, lat) in enumerate(pts):
        s = Sample(id=f"s{k}", path=f[k])
        s.extend_with(STAC(crs="EPSG:4326", tensor_shape=(1, 2, 2), geotransform=(lon - 0.001, 0.001, 0.0, lat + 0.001, 0.0, -0.001),
                           time_start=K.T0))
        samples.append(s)
    t = Tortilla(samples)
    t.extend_with(MajorTOM(dist_km=dist))
    out[str(dist)] = t.export_metadata().column("majortom:code").to_pylist()
K.emit(out)
