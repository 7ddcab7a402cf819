"""``split``: train, test or validation."""

from __future__ import annotations

import pyarrow as pa

from ..._model import REQUIRED
from ..datamodel import SampleExtension


class Split(SampleExtension):
    """``Split(split="train" | "test" | "validation")``."""

    _fields = (("split", REQUIRED),)

    def _validate(self):
        if self.split not in ("train", "test", "validation"):
            raise ValueError(f"split: Input should be 'train', 'test' or 'validation', got {self.split!r}")

    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("split", pa.string())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"split": "Dataset partition identifier (train, test, or validation)"}

    def _compute(self, sample) -> pa.Table:
        return pa.Table.from_pydict({"split": [self.split]}, schema=self.get_schema())
