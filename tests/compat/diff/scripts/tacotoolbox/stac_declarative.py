# T72: STAC(crs, tensor_shape, geotransform, time_start, ...) is declarative: the centroid
# (EPSG:4326 WKB) is computed; time_middle = (start + end) // 2; start > end refused;
# tensor_shape with fewer than 2 dimensions refused; a bad CRS refused.
from tacotoolbox.datamodel.sample import STAC
import _tbkit as K

K.workdir()
s = K.stac(2, time_end=K.T0 + 3 * K.DAY)
out = {"dump": {k: (v.hex() if isinstance(v, bytes) else v) for k, v in s.model_dump().items()},
       "schema": K.diffkit.enc(s.get_schema()), "descriptions": s.get_field_descriptions()}
gt = (0.0, 1.0, 0.0, 0.0, 0.0, -1.0)
for name, kw in (("order", dict(time_end=K.T0 - 1)), ("shape", dict(tensor_shape=(5,))), ("crs", dict(crs="EPSG:999999")),
                 ("datetime", dict(time_start="2020-01-01T00:00:00"))):
    args = dict(crs="EPSG:4326", tensor_shape=(1, 4, 4), geotransform=gt, time_start=K.T0)
    args.update(kw)
    try:
        STAC(**args)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
