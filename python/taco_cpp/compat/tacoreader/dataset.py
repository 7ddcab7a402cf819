"""``TacoDataset`` of tacoreader 2.4 on a taco-cpp dataset view.

``sql``/``filter_bbox``/``filter_datetime`` return new lazy datasets; ``data``/``data_raw``
are TacoDataFrames of the dataset's backend; ``read(key)`` = ``data.read(key)``; ``sql()``
returns a frame at once over the flat views ``l0 … lN``; ``flatten``/``sort``/``limit``; the
``stats_*`` methods aggregate ``geotiff:stats`` of the whole level as upstream does (filters
ignored); ``filter_datetime`` compares by UTC calendar day as upstream does.
"""

from __future__ import annotations

import re

from typing import Any

from ...reader import TacoDataset as _CoreDataset
from ... import errors as _core_errors
from ._exceptions import TacoQueryError
from ._constants import NAVIGATION_COLUMN_DESCRIPTIONS, NAVIGATION_COLUMNS_BY_FORMAT
from ._datetime import upstream_days
from ._translate import duckdb_error, sql_errors, translated
from .dataframe import create_dataframe
from .schema import PITSchema


def _pick_bands(values, band):
    n = values.shape[0]
    for b in ([band] if isinstance(band, int) else list(band)):
        if b < 0 or b >= n:
            raise TacoQueryError(f"Band {b} out of range.\nAvailable bands: 0 to {n - 1}")
    return values[band] if isinstance(band, int) else values[list(band)]


_BAND_RANGE = re.compile(r"Band (\d+) out of range \(available bands: 0 to (\d+)\)")
_CONTINUOUS = re.compile(r"statistics are continuous \((\d+) values per band\)")


def _upstream_stats_error(e: Exception) -> Exception:
    """A core statistics error in tacoreader's words where it has them."""
    msg = str(e)
    m = _BAND_RANGE.search(msg)
    if m:
        return TacoQueryError(f"Band {m.group(1)} out of range.\nAvailable bands: 0 to {m.group(2)}")
    m = _CONTINUOUS.search(msg)
    if m:
        return TacoQueryError(f"Stats appear to be continuous format ({m.group(1)} values per band). "
                              f"Use stats_mean(), stats_std(), etc. for continuous data.")
    return TacoQueryError(msg)


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
        self._sorted_columns = False  # a concat: upstream gives the columns in name order
        self._root = core  # the dataset as loaded: upstream's statistics ignore filters

    def _derived(self, core: _CoreDataset) -> "TacoDataset":
        d = TacoDataset(core, self._dataframe_backend, extent_modified=True)
        d._sorted_columns = self._sorted_columns
        d._root = self._root
        return d

    # ---- metadata (STAC-like attributes) ------------------------------------------------
    @property
    def id(self) -> str:
        """The collection's ``id``."""
        return self._core.id

    @property
    def version(self) -> str:
        """The collection's ``dataset_version``."""
        return self._core.version

    @property
    def description(self) -> str:
        """The collection's ``description`` ("" when absent)."""
        return self._core.description or ""

    @property
    def tasks(self) -> list:
        """The collection's ``tasks``."""
        return list(self._core.tasks or [])

    @property
    def extent(self) -> dict:
        """The collection's ``extent`` ({"spatial", "temporal"})."""
        return dict(self._core.extent or {})

    @property
    def providers(self) -> list:
        """The collection's ``providers``."""
        return list(self._core.providers or [])

    @property
    def licenses(self) -> list:
        """The collection's ``licenses``."""
        return list(self._core.licenses or [])

    @property
    def title(self):
        """The collection's ``title`` (None when absent)."""
        return self._core.title

    @property
    def curators(self):
        """The collection's ``curators`` (None when absent)."""
        return self._core.curators

    @property
    def keywords(self):
        """The collection's ``keywords`` (None when absent)."""
        return self._core.keywords

    @property
    def pit_schema(self) -> PITSchema:
        """``taco:pit_schema`` as tacoreader's PITSchema."""
        with translated("query"):
            return PITSchema(self._core.pit_schema.to_dict())

    @property
    def field_schema(self) -> dict:
        """``taco:field_schema`` (per level, the extension columns and types)."""
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
        with sql_errors():
            table = self._core.query(query)
        return _to_backend(table, self._dataframe_backend)

    def flatten(self, level: int | None = None):
        """Every FILE row of ``level`` (default: the deepest level) with its ancestors'
        columns (``"lK:<col>"``, deepest first) and ``gdal_vsi`` last, honouring this view's
        filters and ``sort()``/``limit()``; the backend's frame."""
        top = self._core.num_levels - 1
        if level is not None and not 0 <= level <= top:
            # upstream queries the flat view l{level}, which does not exist
            raise duckdb_error(f"Catalog Error: Table with name l{level} does not exist!")
        with sql_errors():
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
        """A new view of the rows whose geometry meets the box (as :meth:`taco_cpp.TacoDataset.filter_bbox`)."""
        with translated("query"):
            return self._derived(self._core.filter_bbox(minx, miny, maxx, maxy, geometry_col, level))

    def filter_datetime(self, datetime_range, time_col: str = "auto", level: int = 0) -> "TacoDataset":
        """A new view of the rows whose time is in the range (as :meth:`taco_cpp.TacoDataset.filter_datetime`)."""
        with translated("query"):
            return self._derived(self._core.filter_datetime(upstream_days(datetime_range), time_col, level))

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
        """tacoreader's name for :meth:`is_rsut`."""
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
        if self._sorted_columns:
            table = table.select(sorted(table.column_names))
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

                return frame_class(self._dataframe_backend)._children(node, self._format, 1)
        return self.data.read(key)

    # ---- statistics ---------------------------------------------------------------------
    def _stat(self, name: str, band, level: int, id: str | None):
        self._check_stats_call(level, id)
        if name in ("p25", "p50", "p75", "p95"):
            return self._percentile(name, band, level, id)
        with translated("query"):
            # tacoreader's own arithmetic (FORMAT §6.9) over the whole level, filters ignored, as
            # upstream reads levelN and not the view: notebooks get its numbers
            try:
                return getattr(self._root, "stats_" + name)(band, level=level, id=id, method="upstream")
            except _core_errors.TacoError as e:
                raise _upstream_stats_error(e) from e

    def _check_stats_call(self, level: int, id) -> None:
        """tacoreader's checks, in its order and words: the level, the id, the stats column."""
        top = self.pit_schema.max_depth()
        if level < 0 or level > top:
            raise TacoQueryError(f"Level {level} does not exist.\nAvailable levels: 0 to {top}")
        if level > 0 and id is None:
            raise TacoQueryError(f"id is required for level > 0.\nLevel {level} may have heterogeneous structure "
                                 f"across branches.\nSpecify which sample to aggregate: stats_*(band=..., "
                                 f"level={level}, id='...')")
        with translated("query"):
            cols = self._root._level_columns(level)
        if "geotiff:stats" not in cols:
            raise TacoQueryError(f"Level {level} does not contain statistics.\nExpected one of: geotiff:stats\n"
                                 f"Available columns: {sorted(cols)}")

    def _percentile(self, name: str, band, level: int, id):
        """Upstream's percentile: the plain float32 mean of the samples' stored percentiles."""
        import numpy as np

        if level == 0:
            q = 'SELECT "geotiff:stats" AS s FROM level0'
        else:
            q = (f'SELECT c."geotiff:stats" AS s FROM level{level} c JOIN level{level - 1} p '
                 f'ON c."internal:parent_id" = p."internal:current_id" WHERE p.id = ' + "'" + str(id).replace("'", "''") + "'")
        with translated("query"):
            rows = [r for r in self._root.query(q).column("s").to_pylist() if r]
        if not rows:
            raise TacoQueryError("No valid stats found (all samples have None)")
        try:
            arr = np.array(rows, dtype=np.float32)
        except ValueError as e:
            raise TacoQueryError(f"statistics are ragged (samples with different band counts): {e}") from None
        if arr.shape[-1] != 9:
            raise TacoQueryError("Stats appear to be categorical format. Use stats_categorical() instead.")
        values = arr[:, :, {"p25": 5, "p50": 6, "p75": 7, "p95": 8}[name]].mean(axis=0).astype(np.float32)
        return _pick_bands(values, band)

    def stats_mean(self, band, level: int = 0, id: str | None = None):
        """Mean per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("mean", band, level, id)

    def stats_std(self, band, level: int = 0, id: str | None = None):
        """Standard deviation per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("std", band, level, id)

    def stats_min(self, band, level: int = 0, id: str | None = None):
        """Minimum per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("min", band, level, id)

    def stats_max(self, band, level: int = 0, id: str | None = None):
        """Maximum per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("max", band, level, id)

    def stats_p25(self, band, level: int = 0, id: str | None = None):
        """25th percentile per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("p25", band, level, id)

    def stats_p50(self, band, level: int = 0, id: str | None = None):
        """Median per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("p50", band, level, id)

    def stats_median(self, band, level: int = 0, id: str | None = None):
        """Median per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("p50", band, level, id)

    def stats_p75(self, band, level: int = 0, id: str | None = None):
        """75th percentile per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("p75", band, level, id)

    def stats_p95(self, band, level: int = 0, id: str | None = None):
        """95th percentile per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
        return self._stat("p95", band, level, id)

    def stats_categorical(self, band, level: int = 0, id: str | None = None):
        """Class probabilities per band with tacoreader's arithmetic (FORMAT §6.9), over the current view."""
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
