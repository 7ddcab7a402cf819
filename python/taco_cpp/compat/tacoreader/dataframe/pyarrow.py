"""The default backend: a pyarrow Table."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from .base import _MAX_REPR_ROWS, _PADDING_PREFIX, TacoDataFrame


class TacoDataFrameArrow(TacoDataFrame):
    backend = "pyarrow"

    @classmethod
    def from_arrow(cls, arrow_table, format_type, source=None, current_level=0):
        return cls(arrow_table, format_type, source, current_level)

    def __len__(self) -> int:
        return self._data.num_rows

    def __getitem__(self, key):
        return self._data[key]

    @property
    def columns(self):
        return self._data.column_names

    @property
    def shape(self):
        return (self._data.num_rows, self._data.num_columns)

    def head(self, n: int = 5) -> pa.Table:
        return self._data.slice(0, min(n, self._data.num_rows))

    def tail(self, n: int = 5) -> pa.Table:
        return self._data.slice(max(0, self._data.num_rows - n))

    def _get_row(self, position: int) -> dict:
        return self._data.slice(position, 1).to_pylist()[0]

    def _to_arrow(self) -> pa.Table:
        return self._data

    def to_arrow(self) -> pa.Table:
        return self._data

    def __repr__(self) -> str:
        shown = self._data.slice(0, _MAX_REPR_ROWS)
        if "id" in shown.column_names:
            shown = shown.filter(pc.invert(pc.starts_with(shown.column("id"), _PADDING_PREFIX)))
        return str(shown) + self._footer()
