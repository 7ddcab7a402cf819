"""ISTAC for irregular footprints, declared by the caller (crs, WKB geometry in that CRS,
times in µs); the centroid (EPSG:4326 WKB) is computed from the geometry."""

from __future__ import annotations

import pyarrow as pa

from ..._geo import check_lonlat, point_wkb, to_lonlat, wkb_coords
from ..._model import REQUIRED
from ..datamodel import SampleExtension
from .stac import _check_times

_TS = pa.timestamp("us", tz=None)


def geometry_centroid(crs: str, geometry: bytes, check_antimeridian: bool = False, sample_id: str | None = None) -> bytes:
    """The centroid of a WKB Point/LineString/Polygon: for a polygon the area centroid of its
    outer ring, for a line the mean of its vertices, then moved to EPSG:4326."""
    id_str = f"[{sample_id}] " if sample_id else ""
    xs, ys = wkb_coords(geometry)
    if check_antimeridian and max(xs) - min(xs) > 180:
        xs = [x + 360 if x < 0 else x for x in xs]
    cx, cy = _centroid(xs, ys, geometry)
    try:
        lon, lat = to_lonlat(crs, cx, cy)
    except ValueError as e:
        raise ValueError(f"{id_str}{e}") from e
    if lon > 180:
        lon -= 360
    check_lonlat(lon, lat, f"({cx}, {cy})", id_str)
    return point_wkb(lon, lat)


def _centroid(xs, ys, wkb) -> tuple[float, float]:
    kind = int.from_bytes(wkb[1:5], "little" if wkb[0] == 1 else "big") & 0xFFFF
    if kind == 3 and len(xs) >= 4:
        a = cx = cy = 0.0
        for i in range(len(xs) - 1):
            cross = xs[i] * ys[i + 1] - xs[i + 1] * ys[i]
            a += cross
            cx += (xs[i] + xs[i + 1]) * cross
            cy += (ys[i] + ys[i + 1]) * cross
        if a != 0:
            return cx / (3 * a), cy / (3 * a)
    return sum(xs) / len(xs), sum(ys) / len(ys)


class ISTAC(SampleExtension):
    """``ISTAC(crs=, geometry=, time_start=, time_end=None, time_middle=None, centroid=None,
    check_antimeridian=False, sample_id=None)``."""

    _fields = (("sample_id", None), ("crs", REQUIRED), ("geometry", REQUIRED), ("time_start", REQUIRED),
               ("time_end", None), ("time_middle", None), ("centroid", None), ("check_antimeridian", False))

    def _validate(self):
        _check_times(self)
        if self.centroid is None:
            object.__setattr__(self, "centroid", geometry_centroid(self.crs, bytes(self.geometry),
                                                                   bool(self.check_antimeridian), self.sample_id))

    def get_schema(self) -> pa.Schema:
        return pa.schema([
            pa.field("istac:crs", pa.string()), pa.field("istac:geometry", pa.binary()),
            pa.field("istac:time_start", _TS), pa.field("istac:time_end", _TS),
            pa.field("istac:time_middle", _TS), pa.field("istac:centroid", pa.binary())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {
            "istac:crs": "Coordinate reference system (WKT2, EPSG, or PROJ)",
            "istac:geometry": "Spatial footprint in source CRS (WKB)",
            "istac:time_start": "Start timestamp (μs since Unix epoch, UTC)",
            "istac:time_end": "End timestamp (μs since Unix epoch, UTC)",
            "istac:time_middle": "Middle timestamp (μs since Unix epoch, UTC)",
            "istac:centroid": "Center point in EPSG:4326 (WKB)",
        }

    def _compute(self, sample) -> pa.Table:
        return pa.Table.from_pydict({
            "istac:crs": [self.crs], "istac:geometry": [self.geometry], "istac:time_start": [self.time_start],
            "istac:time_end": [self.time_end], "istac:time_middle": [self.time_middle],
            "istac:centroid": [self.centroid]}, schema=self.get_schema())
