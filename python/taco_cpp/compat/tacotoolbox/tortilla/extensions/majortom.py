"""majortom:code of each sample (from its stac:centroid): "0100km_0003U_0005R", computed by
the taco-cpp core's MajorTOM grid."""

from __future__ import annotations

import pyarrow as pa

from taco_cpp import _native
from ..._geo import wkb_point
from ..datamodel import TortillaExtension


class MajorTOM(TortillaExtension):
    """``MajorTOM(dist_km=100, latitude_range=(-85, 85), longitude_range=(-180, 180),
    sep="_")``: ``sep`` joins the code's parts; the ranges are kept as given (tacotoolbox's
    codes do not depend on them for points on the grid)."""

    _fields = (("dist_km", 100.0), ("latitude_range", (-85.0, 85.0)), ("longitude_range", (-180.0, 180.0)),
               ("sep", "_"))

    def _validate(self):
        object.__setattr__(self, "dist_km", float(self.dist_km))
        object.__setattr__(self, "latitude_range", tuple(float(v) for v in self.latitude_range))
        object.__setattr__(self, "longitude_range", tuple(float(v) for v in self.longitude_range))
        if self.dist_km <= 0:
            raise ValueError("dist_km must be positive")

    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("majortom:code", pa.string())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"majortom:code": "MajorTOM spherical grid cell identifier (e.g., 0100km_0003U_0005R) with ~dist_km spacing"}

    def _compute(self, tortilla) -> pa.Table:
        table = tortilla._metadata_table
        if "stac:centroid" not in table.schema.names:
            raise ValueError("Column 'stac:centroid' not found in tortilla metadata.\n"
                             f"Available columns: {table.schema.names}\n"
                             "Ensure samples have STAC extension applied.")
        codes = []
        for wkb in table.column("stac:centroid").to_pylist():
            if wkb is None:
                codes.append(None)
                continue
            lon, lat = wkb_point(wkb)
            code = _native.major_tom_code(lon, lat, self.dist_km)
            codes.append(code.replace("_", self.sep) if self.sep != "_" else code)
        return pa.Table.from_pydict({"majortom:code": codes}, schema=self.get_schema())
