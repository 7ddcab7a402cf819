"""``taco:header`` of TACOTIFF files needs the ``tacotiff`` package, which taco-cpp does not
reimplement: :class:`Header` raises NotSupportedError when computed."""

from __future__ import annotations

import pyarrow as pa


from ..._exceptions import NotSupportedError
from ..datamodel import SampleExtension


class Header(SampleExtension):
    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("taco:header", pa.binary())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"taco:header": "TACOTIFF header bytes"}

    def _compute(self, sample) -> pa.Table:
        raise NotSupportedError("tacotoolbox compat: the TACOTIFF Header extension needs the 'tacotiff' package; "
                                "taco-cpp does not compute taco:header")
