"""``TacoDataset`` of tacoreader 2.4 on a taco-cpp dataset view.

``sql``/``filter_bbox``/``filter_datetime`` return new lazy datasets; ``data``/``data_raw``
are TacoDataFrames of the dataset's backend; ``read(key)`` = ``data.read(key)``; the
``stats_*`` methods aggregate ``geotiff:stats`` (over the current view: unlike tacoreader,
filters are honoured).
"""

from __future__ import annotations

from typing import Any

from ...reader import TacoDataset as _CoreDataset
from ._constants import NAVIGATION_COLUMN_DESCRIPTIONS, NAVIGATION_COLUMNS_BY_FORMAT
from ._translate import translated
from .dataframe import create_dataframe
from .schema import PITSchema


def _to_backend(table, backend: str):
    if backend == "pandas":
        return table.to_pandas()
    if backend == "polars":
        import polars as pl

        return pl.from_arrow(table)
    return table

_NAVIGATION_COLUMNS = NAVIGATION_COLUMNS_BY_FORMAT
_NAVIGATION_DESCRIPTIONS = NAVIGATION_COLUMN_DESCRIPTIONS


class TacoDataset:
    """A TACO dataset with a lazy SQL interface (tacoreader 2.4 API)."""

    def __init__(self, core: _CoreDataset, backend: str = "pyarrow", extent_modified: bool = False):
        self._core = core
        self._dataframe_backend = backend
        self._extent_modified = extent_modified
        self._closed = False
        self._sort_by = None
        self._sort_descending = False
        self._limit_n = None
        self._table = None  # the level-0 rows (pyarrow), read once per dataset view

    def _derived(self, core: _CoreDataset) -> "TacoDataset":
        return TacoDataset(core, self._dataframe_backend, extent_modified=True)

    # ---- metadata (STAC-like attributes) ------------------------------------------------
    @property
    def id(self) -> str:
        return self._core.id

    @property
    def version(self) -> str:
        return self._core.version

    @property
    def description(self) -> str:
        return self._core.description or ""

    @property
    def tasks(self) -> list:
        return list(self._core.tasks or [])

    @property
    def extent(self) -> dict:
        return dict(self._core.extent or {})

    @property
    def providers(self) -> list:
        return list(self._core.providers or [])

    @property
    def licenses(self) -> list:
        return list(self._core.licenses or [])

    @property
    def title(self):
        return self._core.title

    @property
    def curators(self):
        return self._core.curators

    @property
    def keywords(self):
        return self._core.keywords

    @property
    def pit_schema(self) -> PITSchema:
        with translated("query"):
            return PITSchema(self._core.pit_schema.to_dict())

    @property
    def field_schema(self) -> dict:
        return self._core.field_schema

    @property
    def collection(self) -> dict:
        """COLLECTION.json (a copy)."""
        return self._core.collection

    @property
    def _format(self) -> str:
        return self._core.format

    # ---- lifetime -----------------------------------------------------------------------
    def close(self) -> None:
        """Kept for API compatibility: the engine is freed when the last view is dropped."""
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    # ---- queries ------------------------------------------------------------------------
    def sql(self, query: str):
        """Run ``query`` now and return the backend's frame (pyarrow.Table, pandas or polars
        DataFrame). Relations: the flat views ``l0 … lN`` (columns ``"lK:<col>"``), the level
        views ``level0 … levelN`` and ``data``."""
        with translated("query"):
            table = self._core.query(query)
        return _to_backend(table, self._dataframe_backend)

    def flatten(self, level: int | None = None):
        """Every FILE row of ``level`` (default: the deepest level) with its ancestors'
        columns (``"lK:<col>"``, deepest first) and ``gdal_vsi`` last, honouring this view's
        filters and ``sort()``/``limit()``; the backend's frame."""
        with translated("query"):
            table = self._core.flatten(level, sort_by=self._sort_by, descending=self._sort_descending,
                                       limit=self._limit_n)
        return _to_backend(table, self._dataframe_backend)

    def sort(self, by: str, descending: bool = False) -> "TacoDataset":
        """Order of ``flatten()`` (a flat column name such as ``"l0:stac:time_start"``); returns self."""
        self._sort_by = by
        self._sort_descending = descending
        return self

    def limit(self, n: int) -> "TacoDataset":
        """At most ``n`` rows from ``flatten()``; returns self."""
        self._limit_n = n
        return self

    def filter_bbox(self, minx: float, miny: float, maxx: float, maxy: float, geometry_col: str = "auto",
                    level: int = 0) -> "TacoDataset":
        with translated("query"):
            return self._derived(self._core.filter_bbox(minx, miny, maxx, maxy, geometry_col, level))

    def filter_datetime(self, datetime_range, time_col: str = "auto", level: int = 0) -> "TacoDataset":
        with translated("query"):
            return self._derived(self._core.filter_datetime(datetime_range, time_col, level))

    def navigation_columns(self, describe: bool = False):
        """The columns ``read()`` and ``concat()`` need; keep them in ``sql()`` projections."""
        cols = sorted(_NAVIGATION_COLUMNS.get(self._format, ()))
        if describe:
            return {c: _NAVIGATION_DESCRIPTIONS.get(c, "") for c in cols}
        return cols

    def is_rsut(self) -> bool:
        """True while the view keeps the navigation columns (what concat needs)."""
        with translated("query"):
            return set(_NAVIGATION_COLUMNS.get(self._format, ())) <= set(self._core._ds.columns())

    def verify_rsut(self) -> bool:
        return self.is_rsut()

    # ---- rows ---------------------------------------------------------------------------
    def _frame(self, raw: bool):
        if raw:
            with translated("query"):
                table = self._core.data_raw
        else:
            if self._table is None:
                with translated("query"):
                    self._table = self._core.data
            table = self._table
        return create_dataframe(self._dataframe_backend, table, self._format, source=self._core, current_level=0)

    @property
    def data(self):
        """The rows as a TacoDataFrame (internal:* hidden except internal:gdal_vsi)."""
        return self._frame(raw=False)

    @property
    def data_raw(self):
        """The rows as a TacoDataFrame with every column."""
        return self._frame(raw=True)

    def read(self, key: int | str):
        """``data.read(key)``: a FILE's GDAL path or a FOLDER's children. A position goes
        straight to the core (no frame is built); anything else through ``data``."""
        if type(key) is int:
            if self._table is None:
                with translated("query"):
                    self._table = self._core.data
            if 0 <= key < self._table.num_rows:
                with translated("navigation"):
                    node = self._core.read(key)
                if isinstance(node, str):
                    return node
                from .dataframe import frame_class

                return frame_class(self._dataframe_backend).from_arrow(node.data, self._format, source=node,
                                                                      current_level=1)
        return self.data.read(key)

    # ---- statistics ---------------------------------------------------------------------
    def _stat(self, name: str, band, level: int, id: str | None):
        with translated("query"):
            # tacoreader's own arithmetic (FORMAT §6.9), so that notebooks get its numbers
            return getattr(self._core, "stats_" + name)(band, level=level, id=id, method="upstream")

    def stats_mean(self, band, level: int = 0, id: str | None = None):
        return self._stat("mean", band, level, id)

    def stats_std(self, band, level: int = 0, id: str | None = None):
        return self._stat("std", band, level, id)

    def stats_min(self, band, level: int = 0, id: str | None = None):
        return self._stat("min", band, level, id)

    def stats_max(self, band, level: int = 0, id: str | None = None):
        return self._stat("max", band, level, id)

    def stats_p25(self, band, level: int = 0, id: str | None = None):
        return self._stat("p25", band, level, id)

    def stats_p50(self, band, level: int = 0, id: str | None = None):
        return self._stat("p50", band, level, id)

    def stats_median(self, band, level: int = 0, id: str | None = None):
        return self._stat("p50", band, level, id)

    def stats_p75(self, band, level: int = 0, id: str | None = None):
        return self._stat("p75", band, level, id)

    def stats_p95(self, band, level: int = 0, id: str | None = None):
        return self._stat("p95", band, level, id)

    def stats_categorical(self, band, level: int = 0, id: str | None = None):
        return self._stat("categorical", band, level, id)

    # ---- display ------------------------------------------------------------------------
    def __repr__(self) -> str:
        lines = [f"<TacoDataset '{self.id}'>", f"├── Version: {self.version}"]
        desc = self.description
        lines.append(f"├── Description: {desc[:80] + '...' if len(desc) > 80 else desc}")
        lines.append(f"├── Tasks: {', '.join(self.tasks)}")
        spatial = self.extent.get("spatial")
        mark = " (filtered)" if self._extent_modified else ""
        if spatial:
            lines.append(f"├── Spatial Extent: {spatial}{mark}")
        temporal = self.extent.get("temporal")
        if temporal:
            lines.append(f"├── Temporal Extent: {temporal[0]} → {temporal[1]}{mark}")
        lines.append("│")
        lines.append(f"└── Level 0: {self.pit_schema.root['n']} rows")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self._core._repr_html_()

    def __getattr__(self, name: str) -> Any:
        # pydantic-style private attributes some notebooks read
        if name == "_path":
            return self._core.path
        raise AttributeError(name)


__all__ = ["TacoDataset"]
