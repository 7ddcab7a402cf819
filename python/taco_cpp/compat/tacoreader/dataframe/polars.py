"""The polars backend (``tacoreader.use("polars")``), when polars is installed."""

from __future__ import annotations

import importlib.util

from .._exceptions import TacoBackendError
from .base import _MAX_REPR_ROWS, _PADDING_PREFIX, TacoDataFrame, _check_writable

# imported on first use (importing polars costs more than the rest of tacoreader)
HAS_POLARS = importlib.util.find_spec("polars") is not None


def _pl():
    import polars

    return polars


class TacoDataFramePolars(TacoDataFrame):
    backend = "polars"

    @classmethod
    def from_arrow(cls, arrow_table, format_type, source=None, current_level=0):
        if not HAS_POLARS:
            raise TacoBackendError("Polars backend requires polars package.\nInstall with: pip install polars")
        return cls(_pl().from_arrow(arrow_table), format_type, source, current_level)

    def __len__(self) -> int:
        return self._data.height

    def __getitem__(self, key):
        result = self._data[key]
        if isinstance(result, _pl().DataFrame):
            return self._wrap_same(result)
        return result

    def __setitem__(self, key: str, value):
        # polars frames are immutable: the column is replaced (or added) in a new frame
        _check_writable(key)
        pl = _pl()
        column = value.alias(key) if isinstance(value, (pl.Series, pl.Expr)) else pl.Series(key, value)
        self._data = self._data.with_columns(column)

    @property
    def columns(self):
        return self._data.columns

    @property
    def shape(self):
        return self._data.shape

    def head(self, n: int = 5):
        return self._data.head(n)

    def tail(self, n: int = 5):
        return self._data.tail(n)

    def _get_row(self, position: int) -> dict:
        return self._data.row(position, named=True)

    def _to_arrow(self):
        return self._data.to_arrow()

    def to_polars(self):
        return self._data.clone()

    def filter(self, *args, **kwargs):
        return self._wrap_same(self._data.filter(*args, **kwargs))

    def select(self, *args, **kwargs):
        return self._wrap_same(self._data.select(*args, **kwargs))

    def with_columns(self, *args, **kwargs):
        return self._wrap_same(self._data.with_columns(*args, **kwargs))

    def sort(self, by, *args, **kwargs):
        return self._wrap_same(self._data.sort(by, *args, **kwargs))

    def limit(self, n: int):
        return self._wrap_same(self._data.limit(n))

    def group_by(self, *args, **kwargs):
        return self._data.group_by(*args, **kwargs)

    def __repr__(self) -> str:
        shown = self._data.head(_MAX_REPR_ROWS)
        if "id" in shown.columns:
            shown = shown.filter(~_pl().col("id").str.starts_with(_PADDING_PREFIX))
        return str(shown) + self._footer()
