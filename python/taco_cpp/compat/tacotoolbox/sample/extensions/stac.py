"""STAC for regular rasters, declared by the caller (crs, tensor_shape, geotransform,
times in µs since the epoch); the centroid is computed in EPSG:4326 as WKB."""

from __future__ import annotations

import pyarrow as pa

from ..._geo import check_lonlat, point_wkb, to_lonlat
from ..._model import REQUIRED
from ..datamodel import SampleExtension

_TS = pa.timestamp("us", tz=None)


def raster_centroid(crs: str, geotransform, raster_shape, sample_id: str | None = None) -> bytes:
    """WKB point (EPSG:4326) of the centre of a raster of ``raster_shape`` (rows, cols)."""
    id_str = f"[{sample_id}] " if sample_id else ""
    x0, dx, _, y0, _, dy = geotransform
    rows, cols = raster_shape
    cx, cy = x0 + (cols / 2) * dx, y0 + (rows / 2) * dy
    try:
        lon, lat = to_lonlat(crs, cx, cy)
    except ValueError as e:
        raise ValueError(f"{id_str}{e}") from e
    check_lonlat(lon, lat, f"({cx}, {cy})", id_str)
    return point_wkb(lon, lat)


def _check_times(ext) -> None:
    id_str = f"[{ext.sample_id}] " if ext.sample_id else ""
    for name in ("time_start", "time_end", "time_middle"):
        v = getattr(ext, name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise ValueError(f"{name}: Input should be a valid integer (µs since the Unix epoch), got {type(v).__name__}")
    if ext.time_end is not None and ext.time_start > ext.time_end:
        raise ValueError(f"{id_str}time_start ({ext.time_start}) > time_end ({ext.time_end})")
    if ext.time_end is not None and ext.time_middle is None:
        object.__setattr__(ext, "time_middle", (ext.time_start + ext.time_end) // 2)


class STAC(SampleExtension):
    """``STAC(crs=, tensor_shape=, geotransform=, time_start=, centroid=None, time_end=None,
    time_middle=None, sample_id=None)``."""

    _fields = (("sample_id", None), ("crs", REQUIRED), ("tensor_shape", REQUIRED), ("geotransform", REQUIRED),
               ("time_start", REQUIRED), ("centroid", None), ("time_end", None), ("time_middle", None))

    def _validate(self):
        object.__setattr__(self, "tensor_shape", tuple(int(v) for v in self.tensor_shape))
        gt = tuple(float(v) for v in self.geotransform)
        if len(gt) != 6:
            raise ValueError("geotransform: Tuple should have 6 items")
        object.__setattr__(self, "geotransform", gt)
        _check_times(self)
        if self.centroid is None:
            if len(self.tensor_shape) < 2:
                id_str = f"[{self.sample_id}] " if self.sample_id else ""
                raise ValueError(f"{id_str}tensor_shape must have >= 2 dimensions")
            object.__setattr__(self, "centroid", raster_centroid(
                self.crs, self.geotransform, (self.tensor_shape[-2], self.tensor_shape[-1]), self.sample_id))

    def get_schema(self) -> pa.Schema:
        return pa.schema([
            pa.field("stac:crs", pa.string()), pa.field("stac:tensor_shape", pa.list_(pa.int64())),
            pa.field("stac:geotransform", pa.list_(pa.float64())), pa.field("stac:time_start", _TS),
            pa.field("stac:centroid", pa.binary()), pa.field("stac:time_end", _TS),
            pa.field("stac:time_middle", _TS)])

    def get_field_descriptions(self) -> dict[str, str]:
        return {
            "stac:crs": "Coordinate reference system (WKT2, EPSG, or PROJ)",
            "stac:tensor_shape": "Raster dimensions [bands, height, width]",
            "stac:geotransform": "GDAL affine transform",
            "stac:time_start": "Start timestamp (μs since Unix epoch, UTC)",
            "stac:centroid": "Center point in EPSG:4326 (WKB)",
            "stac:time_end": "End timestamp (μs since Unix epoch, UTC)",
            "stac:time_middle": "Middle timestamp (μs since Unix epoch, UTC)",
        }

    def _compute(self, sample) -> pa.Table:
        return pa.Table.from_pydict({
            "stac:crs": [self.crs], "stac:tensor_shape": [list(self.tensor_shape)],
            "stac:geotransform": [list(self.geotransform)], "stac:time_start": [self.time_start],
            "stac:centroid": [self.centroid], "stac:time_end": [self.time_end],
            "stac:time_middle": [self.time_middle]}, schema=self.get_schema())
