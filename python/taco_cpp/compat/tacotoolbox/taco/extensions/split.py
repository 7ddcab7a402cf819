"""split:strategy."""

from __future__ import annotations

from typing import Literal

import pyarrow as pa

from ..._model import REQUIRED
from ..datamodel import TacoExtension

SplitStrategyType = Literal["random", "stratified", "manual", "other", "none", "unknown"]


class SplitStrategy(TacoExtension):
    """``SplitStrategy(strategy=)``: random, stratified, manual, other, none, unknown."""

    _fields = (("strategy", REQUIRED),)

    def _validate(self):
        if self.strategy not in SplitStrategyType.__args__:
            raise ValueError(f"strategy: Input should be one of {SplitStrategyType.__args__}, got {self.strategy!r}")

    def get_schema(self) -> pa.Schema:
        return pa.schema([pa.field("split:strategy", pa.string())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {"split:strategy": "Dataset partitioning method (random, stratified, manual, other, none, or unknown)"}

    def _compute(self, taco) -> pa.Table:
        return pa.Table.from_pylist([{"split:strategy": self.strategy}])
