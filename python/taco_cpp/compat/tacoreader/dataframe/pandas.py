"""The pandas backend (``tacoreader.use("pandas")``)."""

from __future__ import annotations

import importlib.util

from .._exceptions import TacoBackendError
from .base import _MAX_REPR_ROWS, _PADDING_PREFIX, TacoDataFrame, _check_writable

# imported on first use (importing pandas costs more than the rest of tacoreader)
HAS_PANDAS = importlib.util.find_spec("pandas") is not None


def _pd():
    import pandas

    return pandas


class TacoDataFramePandas(TacoDataFrame):
    backend = "pandas"

    @classmethod
    def from_arrow(cls, arrow_table, format_type, source=None, current_level=0):
        if not HAS_PANDAS:
            raise TacoBackendError("Pandas backend requires pandas package.\nInstall with: pip install pandas")
        return cls(arrow_table.to_pandas(), format_type, source, current_level)

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, key):
        result = self._data[key]
        if isinstance(result, _pd().DataFrame):
            return self._wrap_same(result)
        return result

    def __setitem__(self, key: str, value):
        _check_writable(key)
        self._data[key] = value

    @property
    def columns(self):
        return self._data.columns.tolist()

    @property
    def shape(self):
        return self._data.shape

    def head(self, n: int = 5):
        return self._data.head(n)

    def tail(self, n: int = 5):
        return self._data.tail(n)

    def _get_row(self, position: int) -> dict:
        return self._data.iloc[position].to_dict()

    def _to_arrow(self):
        import pyarrow as pa

        return pa.Table.from_pandas(self._data, preserve_index=False)

    def to_pandas(self):
        return self._data.copy()

    def query(self, expr: str, **kwargs):
        return self._wrap_same(self._data.query(expr, **kwargs))

    def sort_values(self, by, ascending=True, **kwargs):
        return self._wrap_same(self._data.sort_values(by=by, ascending=ascending, **kwargs))

    def assign(self, **kwargs):
        for name in kwargs:
            _check_writable(name)
        return self._wrap_same(self._data.assign(**kwargs))

    def groupby(self, by, **kwargs):
        return self._data.groupby(by=by, **kwargs)

    @property
    def loc(self):
        return self._data.loc

    @property
    def iloc(self):
        return self._data.iloc

    def __repr__(self) -> str:
        shown = self._data.head(_MAX_REPR_ROWS)
        if "id" in shown.columns:
            shown = shown[~shown["id"].astype(str).str.startswith(_PADDING_PREFIX)]
        return str(shown) + self._footer()
