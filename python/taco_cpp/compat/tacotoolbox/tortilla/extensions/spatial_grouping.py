"""spatialgroup:code: samples ordered along a Z-order (Morton) curve of their stac:centroid
and cut into groups of at most ``target_count`` samples and/or ``target_size`` bytes."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from taco_cpp import _native
from ..._geo import wkb_point
from ..datamodel import TortillaExtension

_BITS = 21


def z_order(lon: float, lat: float) -> int:
    """Morton code of a lon/lat: both scaled to [0, 1], then to 21-bit integers, bits
    interleaved (lon in the even bits)."""
    top = (1 << _BITS) - 1
    ix = int((lon + 180.0) / 360.0 * top)
    iy = int((lat + 90.0) / 180.0 * top)
    code = 0
    for i in range(_BITS):
        code |= ((ix >> i) & 1) << (2 * i)
        code |= ((iy >> i) & 1) << (2 * i + 1)
    return code


class SpatialGrouping(TortillaExtension):
    """``SpatialGrouping(target_count=None, target_size=None)`` (at least one; sizes like
    "512MB", 1024-based)."""

    _fields = (("target_count", None), ("target_size", None))

    def _validate(self):
        if self.target_count is None and self.target_size is None:
            raise ValueError("Must specify at least one of 'target_count' or 'target_size'.")
        limit = None
        if self.target_size is not None:
            try:
                limit = _native.parse_size(str(self.target_size))
            except ValueError as e:
                raise ValueError(f"Invalid target_size format: {e}\nUse format like '1GB', '512MB', '1024KB'") from e
            if limit <= 0:
                raise ValueError(f"target_size must be positive. Got: {self.target_size}")
        object.__setattr__(self, "_target_size_bytes", limit)

    def model_dump(self) -> dict:
        return {k: v for k, v in super().model_dump().items() if k != "_target_size_bytes"}

    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("spatialgroup:code", pa.string())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"spatialgroup:code": "Spatial group identifier using Z-order curve for compact bounding boxes."}

    def _compute(self, tortilla) -> pa.Table:
        table = tortilla._metadata_table
        if "stac:centroid" not in table.schema.names:
            raise ValueError("Column 'stac:centroid' not found in tortilla metadata.\n"
                             f"Available columns: {table.schema.names}\n"
                             "Ensure samples have STAC extension applied.")
        rows, keys = [], []
        for i, wkb in enumerate(table.column("stac:centroid").to_pylist()):
            if wkb is None:
                continue
            lon, lat = wkb_point(wkb)
            rows.append(i)
            keys.append(z_order(lon, lat))
        if not rows:
            raise ValueError("No valid centroids found in column 'stac:centroid'")
        codes: list[str | None] = [None] * table.num_rows
        group = count = size = 0
        for k in np.argsort(np.array(keys)):
            i = rows[int(k)]
            nbytes = tortilla.samples[i]._size_bytes
            if count > 0 and ((self.target_count and count >= self.target_count) or
                              (self._target_size_bytes and size + nbytes > self._target_size_bytes)):
                group, count, size = group + 1, 0, 0
            codes[i] = f"sg{group:04d}"
            count += 1
            size += nbytes
        return pa.Table.from_pydict({"spatialgroup:code": codes}, schema=self.get_schema())
