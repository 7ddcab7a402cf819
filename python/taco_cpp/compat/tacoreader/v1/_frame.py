"""TortillaDataFrame / TortillaDataSeries: the pandas frame ``tacoreader.v1.load`` returns.

``read(i)`` by the row's ``tortilla:file_format``: TORTILLA → the nested Tortilla's frame,
BYTES → the item's bytes, any other (a GDAL driver) → its ``internal:subfile`` path."""

from __future__ import annotations

import re

import pandas as pd

from . import _header

_PREFIXES = ("internal:", "tortilla:", "stac:", "rai:")
_SUBFILE = re.compile(r"/vsisubfile/(\d+)_(\d+),(.+)")


def order_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns by prefix (internal:, tortilla:, stac:, rai:), then the others, each group in
    its current order."""
    cols = list(frame.columns)
    first = [c for p in _PREFIXES for c in cols if isinstance(c, str) and c.startswith(p)]
    return frame[first + [c for c in cols if c not in first]]


def _subfile_parts(subfile: str) -> tuple[int, int, str]:
    offset, length, path = _SUBFILE.match(subfile).groups()
    return int(offset), int(length), _header.local_path(path)


def _read_row(row) -> object:
    fmt = row["tortilla:file_format"]
    if fmt == "TORTILLA":
        _, _, path = _subfile_parts(row["internal:subfile"])
        from .loader import frame_at

        return frame_at(path, int(row["tortilla:offset"]))
    if fmt == "BYTES":
        offset, length, path = _subfile_parts(row["internal:subfile"])
        return _header.read_range(path, offset, length)
    return row["internal:subfile"]


class TortillaDataSeries(pd.Series):
    @property
    def _constructor(self):
        return TortillaDataSeries

    def read(self):
        return _read_row(self)


class TortillaDataFrame(pd.DataFrame):
    def __init__(self, data=None, *args, **kwargs):
        kind = type(data).__name__
        if kind == "GeoDataFrame":
            data = order_columns(data.drop("geometry", axis=1))
        elif kind == "DataFrame":
            data = order_columns(data)
        elif kind != "TortillaDataFrame":
            raise ValueError(f"Unsupported data type: {kind}. Only GeoDataFrame, DataFrame, and TortillaDataFrame are "
                             "supported.")
        super().__init__(data, *args, **kwargs)

    @property
    def _constructor(self):
        return TortillaDataFrame

    @property
    def _constructor_sliced(self):
        return TortillaDataSeries

    def read(self, idx):
        return _read_row(self.iloc[idx])

    def to_geodataframe(self, inplace=False):
        try:
            from geopandas import GeoDataFrame, points_from_xy
        except ImportError:
            raise ImportError("geopandas is required to convert to GeoDataFrame") from None
        if inplace:
            return GeoDataFrame(data=self, crs="EPSG:4326")
        pts = [w.replace("POINT (", "").replace(")", "").split() for w in self["stac:centroid"]]
        return GeoDataFrame(data=self, geometry=points_from_xy([float(p[0]) for p in pts], [float(p[1]) for p in pts]),
                            crs="EPSG:4326")

    def plot(self, *args, **kwargs):
        self.to_geodataframe(inplace=False).plot(*args, **kwargs)
