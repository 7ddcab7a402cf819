"""publications: DOI, citation, summary."""

from __future__ import annotations

import pyarrow as pa

from ..._model import REQUIRED, Model
from ..datamodel import TacoExtension


class Publication(Model):
    _fields = (("doi", REQUIRED), ("citation", REQUIRED), ("summary", None))


class Publications(TacoExtension):
    """``Publications(publications=[Publication, ...])``."""

    _fields = (("publications", REQUIRED),)

    def _validate(self):
        object.__setattr__(self, "publications",
                           [p if isinstance(p, Publication) else Publication(**p) for p in self.publications])

    def get_schema(self) -> pa.Schema:
        item = pa.struct([pa.field("doi", pa.string()), pa.field("citation", pa.string()),
                          pa.field("summary", pa.string())])
        return pa.schema([pa.field("publications", pa.list_(item))])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"publications": "List of academic publications with DOI, citation, and optional summary "
                                "describing dataset methodology or applications"}

    def _compute(self, taco) -> pa.Table:
        rows = [{"doi": p.doi, "citation": p.citation, "summary": p.summary} for p in self.publications]
        return pa.Table.from_pylist([{"publications": rows}])
