"""``TacoDataFrame``: the rows of a level in the chosen backend, with ``read()`` navigation.

A frame remembers the taco-cpp object its rows came from (a dataset view or a FOLDER's
children). ``read(key)`` resolves ``key`` on the frame's own rows (a position, or the first
row with that id), returns a FILE row's ``internal:gdal_vsi`` and, for a FOLDER row, asks
the core for its children (found by the row's ``internal:gdal_vsi``, so frames filtered or
sorted by the backend still navigate correctly).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .._exceptions import TacoNavigationError
from .._translate import translated

_PADDING_PREFIX = "__TACOPAD__"
_MAX_REPR_ROWS = 20
_PROTECTED = {"id", "type"}


def _check_writable(name: str) -> None:
    """Refuses a change to a column that read() navigates by (id, type, internal:*)."""
    if name in _PROTECTED or name.startswith("internal:"):
        raise ValueError(f"Cannot modify protected column: '{name}' (id, type and internal:* are needed by read())")


class TacoDataFrame(ABC):
    """Rows of one level (backend-specific table) plus hierarchical navigation."""

    backend = ""

    def __init__(self, data: Any, format_type: str, source: Any = None, current_level: int = 0):
        self._data_value = data
        self._loader = None
        self._format_type = format_type
        self._source = source  # taco_cpp TacoDataset (level 0) or TacoFrame (deeper)
        self._current_level = current_level
        self._vsi_positions = None

    @property
    def _data(self):
        """The backend's table; a FOLDER's children are turned into it on first use (navigation
        alone, ``read(i).read("x.tif")``, never builds it)."""
        if self._data_value is None and self._loader is not None:
            self._data_value, self._loader = self._loader(), None
        return self._data_value

    @_data.setter
    def _data(self, value):
        self._data_value, self._loader = value, None

    @classmethod
    def _children(cls, node, format_type: str, current_level: int):
        """A frame of a FOLDER's children (a taco_cpp TacoFrame), built lazily: its rows are the
        child __meta__ columns + internal:gdal_vsi, as upstream's."""
        frame = cls.__new__(cls)
        TacoDataFrame.__init__(frame, None, format_type, node, current_level)
        frame._loader = lambda: cls.from_arrow(node.data_raw, format_type, source=node,
                                               current_level=current_level)._data
        return frame

    def _read_native(self, key):
        """read(key) straight through the core while the rows were never needed (None: take
        the general path, which also gives upstream's errors)."""
        if type(key) is int:
            if not 0 <= key < len(self._source):
                return None
        elif type(key) is not str:
            return None
        from .... import errors as core_errors

        try:
            node = self._source.read(key)
        except core_errors.TacoError:
            return None
        if isinstance(node, str):
            return node
        return type(self)._children(node, self._format_type, self._current_level + 1)

    # ---- backend hooks --------------------------------------------------------------
    @classmethod
    @abstractmethod
    def from_arrow(cls, arrow_table, format_type: str, source: Any = None, current_level: int = 0):
        """A frame of this backend holding `arrow_table`."""

    @abstractmethod
    def _get_row(self, position: int) -> dict:
        """Row `position` of this frame as a dict."""

    @abstractmethod
    def _to_arrow(self):
        """This frame's rows as a pyarrow Table."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def __getitem__(self, key): ...

    @property
    @abstractmethod
    def columns(self):
        """The column names."""

    @property
    @abstractmethod
    def shape(self):
        """(rows, columns)."""

    @abstractmethod
    def head(self, n: int = 5):
        """The first ``n`` rows, in the backend's type."""

    @abstractmethod
    def tail(self, n: int = 5):
        """The last ``n`` rows, in the backend's type."""

    # ---- shared -----------------------------------------------------------------------
    def _wrap_same(self, data):
        return type(self)(data, self._format_type, self._source, self._current_level)

    def _get_position(self, key: int | str) -> int:
        if isinstance(key, bool) or not isinstance(key, (int, str)):
            raise TacoNavigationError(f"a key is a position (int) or an id (str), got {type(key).__name__}")
        n = len(self)
        if isinstance(key, int):
            if key < 0 or key >= n:
                raise TacoNavigationError(f"Position {key} out of range [0, {n - 1}]")
            return key
        table = self._to_arrow()
        if "id" not in table.column_names:
            raise TacoNavigationError("Cannot search by ID: 'id' column not found")
        ids = table.column("id").to_pylist()
        try:
            return ids.index(key)
        except ValueError:
            raise TacoNavigationError(f"ID '{key}' not found") from None

    def _source_position(self, vsi: str) -> int:
        if self._vsi_positions is None:
            table = self._source.data
            positions = {}
            for i, v in enumerate(table.column("internal:gdal_vsi").to_pylist()):
                positions.setdefault(v, i)
            self._vsi_positions = positions
        try:
            return self._vsi_positions[vsi]
        except KeyError:
            raise TacoNavigationError(f"the row with internal:gdal_vsi '{vsi}' is not in the dataset view") from None

    def read(self, key: int | str):
        """A FILE row's GDAL path (str), or a FOLDER row's children (a TacoDataFrame)."""
        if self._data_value is None and self._loader is not None:
            fast = self._read_native(key)
            if fast is not None:
                return fast
        row = self._get_row(self._get_position(key))
        if "type" not in row or "internal:gdal_vsi" not in row:
            raise TacoNavigationError("navigation needs the 'type' and 'internal:gdal_vsi' columns")
        if row["type"] == "FILE":
            return row["internal:gdal_vsi"]
        if self._source is None:
            raise TacoNavigationError("this frame was not made by tacoreader.load(); it cannot navigate")
        with translated("navigation"):
            children = self._source.read(self._source_position(row["internal:gdal_vsi"]))
        return type(self)._children(children, self._format_type, self._current_level + 1)

    def _footer(self) -> str:
        n = len(self)
        shown = f" (showing first {_MAX_REPR_ROWS})" if n > _MAX_REPR_ROWS else ""
        return f"\n[TacoDataFrame: {n} rows{shown}, format={self._format_type}, backend={self.backend}]"
