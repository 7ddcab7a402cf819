"""``geotiff:stats`` per band, computed by the taco-cpp core (GDAL): continuous [min, max,
mean, std, valid%, p25, p50, p75, p95] or, with ``categorical=True``, class probabilities in
the order of ``class_values``. A sample's ``scaling:scale_factor``/``scale_offset`` (scalars)
are applied to continuous statistics, as tacotoolbox does."""

from __future__ import annotations

import pathlib

import pyarrow as pa

from taco_cpp import _native
from ..datamodel import SampleExtension


class GeotiffStats(SampleExtension):
    """``GeotiffStats(categorical=False, class_values=None)``."""

    _fields = (("categorical", False), ("class_values", None))

    def _validate(self):
        if self.class_values is not None:
            object.__setattr__(self, "class_values", [int(v) for v in self.class_values])

    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("geotiff:stats", pa.list_(pa.list_(pa.float32())))])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"geotiff:stats": "Per-band statistics (List[List[Float32]]): categorical mode returns class "
                                 "probabilities, continuous mode returns [min, max, mean, std, valid%, p25, p50, p75, p95]"}

    def _compute(self, sample) -> pa.Table:
        if not isinstance(sample.path, pathlib.Path):
            raise TypeError(f"GeotiffStats requires sample.path to be a Path, got {type(sample.path).__name__}. "
                            f"This extension only works with FILE samples pointing to GeoTIFF files.")
        factor = getattr(sample, "scaling:scale_factor", None)
        offset = getattr(sample, "scaling:scale_offset", None)
        scaled = (not self.categorical and isinstance(factor, (int, float)) and isinstance(offset, (int, float))
                  and (factor != 1.0 or offset != 0.0))
        ext = _native.ext_geotiff_stats(bool(self.categorical), [float(v) for v in (self.class_values or [])],
                                        float(factor) if scaled else 1.0, float(offset) if scaled else 0.0)
        native = _native.Sample.from_file(sample.id if not sample.id.startswith("__") else "s", str(sample.path))
        values = {n: v for n, _t, v, _d in ext.compute(native)}
        return pa.Table.from_pydict({"geotiff:stats": [values.get("geotiff:stats")]}, schema=self.get_schema())
