"""Coordinates for the declarative STAC/ISTAC extensions: a point from a CRS to lon/lat
(EPSG:4326, x = longitude), and points as WKB. pyproj is used when it is installed (it is a
dependency of tacotoolbox, so a script that ran on tacotoolbox has it; the numbers are then
the same), else GDAL's osr (Debian's python3-gdal)."""

from __future__ import annotations

import math
import struct


def to_lonlat(crs: str, x: float, y: float) -> tuple[float, float]:
    try:
        from pyproj import CRS, Transformer
        from pyproj.exceptions import CRSError
    except ImportError:
        return _osr_to_lonlat(crs, x, y)
    try:
        src = CRS.from_string(crs)
    except CRSError as e:
        raise ValueError(f"Invalid CRS: {crs}") from e
    return Transformer.from_crs(src, CRS.from_epsg(4326), always_xy=True).transform(x, y)


def _osr_to_lonlat(crs: str, x: float, y: float) -> tuple[float, float]:
    from osgeo import osr

    src = osr.SpatialReference()
    if src.SetFromUserInput(crs) != 0:
        raise ValueError(f"Invalid CRS: {crs}")
    src.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    dst = osr.SpatialReference()
    dst.ImportFromEPSG(4326)
    dst.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    lon, lat, _ = osr.CoordinateTransformation(src, dst).TransformPoint(x, y)
    return lon, lat


def check_lonlat(lon: float, lat: float, where: str, id_str: str = "") -> None:
    if math.isnan(lon) or math.isnan(lat):
        raise ValueError(f"{id_str}Centroid is NaN. Source: {where}")
    if math.isinf(lon) or math.isinf(lat):
        raise ValueError(f"{id_str}Centroid is Inf. Source: {where}")
    if not -180 <= lon <= 180:
        raise ValueError(f"{id_str}Longitude {lon} out of bounds [-180, 180]")
    if not -90 <= lat <= 90:
        raise ValueError(f"{id_str}Latitude {lat} out of bounds [-90, 90]")


def point_wkb(lon: float, lat: float) -> bytes:
    """ISO WKB of a 2-D point, little-endian (what shapely writes)."""
    return struct.pack("<BIdd", 1, 1, float(lon), float(lat))


def wkb_point(wkb: bytes) -> tuple[float, float]:
    """(x, y) of a WKB point, or the centre of the bounding box of a WKB polygon."""
    order = "<" if wkb[0] == 1 else ">"
    kind = struct.unpack(order + "I", wkb[1:5])[0] & 0xFFFF
    if kind == 1:
        return struct.unpack(order + "dd", wkb[5:21])
    xs, ys = wkb_coords(wkb)
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def wkb_coords(wkb: bytes) -> tuple[list[float], list[float]]:
    """All x and y of a WKB Point/LineString/Polygon (2-D)."""
    order = "<" if wkb[0] == 1 else ">"
    kind = struct.unpack(order + "I", wkb[1:5])[0] & 0xFFFF
    pos = 5
    xs, ys = [], []
    if kind == 1:
        x, y = struct.unpack(order + "dd", wkb[pos:pos + 16])
        return [x], [y]
    rings = 1
    if kind == 3:
        rings = struct.unpack(order + "I", wkb[pos:pos + 4])[0]
        pos += 4
    elif kind != 2:
        raise ValueError(f"unsupported WKB geometry type {kind}")
    for _ in range(rings):
        n = struct.unpack(order + "I", wkb[pos:pos + 4])[0]
        pos += 4
        for _ in range(n):
            x, y = struct.unpack(order + "dd", wkb[pos:pos + 16])
            pos += 16
            xs.append(x)
            ys.append(y)
    return xs, ys
