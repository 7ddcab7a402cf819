"""GeoEnrich needs Google Earth Engine (network and credentials): taco-cpp does not
reimplement it. The class takes upstream's arguments; computing it raises NotSupportedError."""

from __future__ import annotations

import pyarrow as pa

from ..._exceptions import NotSupportedError
from ..datamodel import TortillaExtension


class GeoEnrich(TortillaExtension):
    """``GeoEnrich(variables=None, scale_m=5120, batch_size=250, max_concurrency=8,
    show_progress=True)``."""

    _fields = (("variables", None), ("scale_m", 5120.0), ("batch_size", 250), ("max_concurrency", 8),
               ("show_progress", True))

    def get_schema(self) -> pa.Schema:
        raise NotSupportedError("GeoEnrich: Earth Engine variables are not available in taco-cpp")

    def get_field_descriptions(self) -> dict[str, str]:
        return {}

    def _compute(self, tortilla) -> pa.Table:
        raise NotSupportedError("GeoEnrich needs Google Earth Engine (network access and credentials); "
                                "taco_cpp.compat.tacotoolbox does not support it. Compute the columns "
                                "elsewhere and add them with sample.extend_with({...}).")
