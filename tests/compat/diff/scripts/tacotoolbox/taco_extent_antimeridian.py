# T68/T29: centroids on both sides of the antimeridian: tacotoolbox keeps only the side
# with the larger span (a box that leaves out samples); compat gives the box across 180°
# (west > east) that holds every centroid (deliberate difference).
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.sample import STAC
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 3)
samples = []
for k, lon in enumerate((179.0, 179.5, -179.8)):
    s = Sample(id=f"s{k}", path=f[k])
    s.extend_with(STAC(crs="EPSG:4326", tensor_shape=(1, 2, 2), geotransform=(lon - 0.001, 0.001, 0.0, 10.0, 0.0, -0.001),
                       time_start=K.T0))
    samples.append(s)
e = K.taco(Tortilla(samples)).extent.model_dump()
K.emit({"spatial": [round(v, 6) for v in e["spatial"]], "temporal": e["temporal"]})
