# T73: ISTAC(crs, geometry WKB, time_start, ...): centroid computed from the footprint.
import struct
from tacotoolbox.datamodel.sample import ISTAC
from tacotoolbox.datamodel import Sample
import _tbkit as K


def polygon(pts):
    ring = pts + [pts[0]]
    return struct.pack("<BIII", 1, 3, 1, len(ring)) + b"".join(struct.pack("<dd", x, y) for x, y in ring)


wd = K.workdir()
geom = polygon([(500000.0, 4500000.0), (500640.0, 4500000.0), (500640.0, 4500640.0), (500000.0, 4500640.0)])
i = ISTAC(crs="EPSG:32630", geometry=geom, time_start=K.T0, time_end=K.T0 + 2 * K.DAY)
s = Sample(id="a", path=K.make_files(wd, 1)[0])
s.extend_with(i)
K.emit({"centroid": i.centroid.hex(), "middle": i.time_middle, "meta": K.diffkit.enc(s.export_metadata())})
