"""Reading TACO datasets: ``load`` → :class:`TacoDataset` (lazy views) → ``.data`` (pyarrow),
navigation with ``read``, statistics, export.

Everything is computed by the C++ core (``taco_cpp._native``); this module only converts
arguments and results. The GIL is released while the core works; a dataset may be shared by
threads (calls on one dataset are serialised) and survives ``fork`` (it reopens itself in
the child on first use).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Iterator, Sequence
from urllib.parse import unquote, urlparse

from . import _flat, _native
from ._arrow import table_from_capsule
from ._convert import datetime_range, path_text, sample_key
from ._display import extent_text, frame_html, view_steps
from ._pit import PitSchema
from ._progress import Progress, ProgressArg

_STATS = ("mean", "std", "min", "max", "p25", "p50", "p75", "p95")

# The core's name of a lazy view in an error ("SQL \"SELECT * FROM view_00000008\"").
_INTERNAL_VIEW = re.compile(r'SQL "[^"]*\b(?:view|fixed|query|files)_\d{8}[^"]*"')


def _user_errors(method):
    """Errors of a lazy view name the calls that made it (``sql("…").filter_bbox(…)``), not
    the engine's internal view."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as e:
            from .errors import TacoError

            origin = getattr(self, "_origin", None)
            if not (isinstance(e, TacoError) and origin and _INTERNAL_VIEW.search(str(e))):
                raise
            raise type(e)(_INTERNAL_VIEW.sub(lambda _m: "the view " + origin, str(e))) from None

    return wrapper


def _local_path(path):
    """A file:// URL as the local path it names (other values unchanged)."""
    if isinstance(path, str) and path[:7].lower() == "file://":
        url = urlparse(path)
        if url.netloc not in ("", "localhost"):
            raise ValueError(f"{path}: a file:// URL of another host ({url.netloc}) is not a local path")
        return unquote(url.path)
    return path


def _np():
    import numpy  # imported on first use: `import taco_cpp` stays light

    return numpy


def _bands(band) -> tuple[list[int], bool]:
    np = _np()
    if isinstance(band, (bool, np.bool_)):
        raise TypeError("band is an int or a list of ints")
    if isinstance(band, (int, np.integer)):
        return [int(band)], True
    bands = [int(b) for b in band]
    if not bands:
        raise ValueError("band: give at least one band")
    return bands, False


class TacoFrame:
    """The rows one level below a FOLDER sample (what ``read`` of a FOLDER returns).

    ``data``/``data_raw`` give them as a pyarrow Table; ``read(key)`` goes one level deeper
    (a FOLDER: another TacoFrame; a FILE: its GDAL path); ``read_bytes(key)`` returns a FILE's
    bytes.
    """

    def __init__(self, native_frame):
        self._frame = native_frame
        self._data = None

    @property
    def level(self) -> int:
        """The level these rows belong to (1 for the children of a level-0 FOLDER)."""
        return self._frame.level

    @property
    def data(self):
        """The rows without ``internal:*`` columns except ``internal:gdal_vsi`` (pyarrow.Table)."""
        if self._data is None:
            self._data = table_from_capsule(self._frame.export_arrow(False))
        return self._data

    @property
    def data_raw(self):
        """The rows with every column (pyarrow.Table)."""
        return table_from_capsule(self._frame.export_arrow(True))

    @property
    def columns(self) -> list[str]:
        """The column names of ``data``."""
        return self.data.column_names

    def to_pandas(self):
        """``data`` as a pandas DataFrame."""
        return self.data.to_pandas()

    def read(self, key: int | str):
        """A child by position or id: a FILE's GDAL path (str) or a FOLDER's children."""
        return _node_result(self._frame.read(sample_key(key)))

    def read_bytes(self, key: int | str) -> bytes:
        """The bytes of a FILE child."""
        return self._frame.read_bytes(sample_key(key))

    def __len__(self) -> int:
        return self._frame.num_rows

    def __iter__(self) -> Iterator[dict]:
        return iter(self.data.to_pylist())

    def __getitem__(self, column: str):
        return self.data[column]

    def __repr__(self) -> str:
        return f"<TacoFrame level {self.level}: {len(self)} rows>\n{self.data}"

    def _repr_html_(self) -> str:
        return frame_html(self.level, self.data)


def _node_result(node: dict):
    if node["children"] is not None:
        return TacoFrame(node["children"])
    return node["gdal_path"]


class TacoDataset:
    """A TACO dataset (ZIP, FOLDER, TACOCAT or a concat of them) or a lazy view of one.

    ``sql``, ``filter_bbox`` and ``filter_datetime`` return new lazy views (chain them in
    any order); rows are read only when ``data``, ``len()``, iteration, ``read`` or the
    statistics ask for them.
    """

    #: load() of a TACOLLECTION.json with bbox=/datetime=: how many of its parts were not
    #: opened because their extents miss them; None when no routing happened.
    parts_skipped = None

    def __init__(self, native, origin: str | None = None):
        self._ds = native
        self._collection = None
        self._origin = origin  # the calls that made this view, for error messages
        self._level_cols: dict[int, list[str]] = {}

    def _derived(self, native, call: str) -> "TacoDataset":
        return TacoDataset(native, (self._origin or "ds") + "." + call)

    def __reduce__(self):
        # Pickled as how it was made (open arguments, then the chain of views): the copy
        # opens the dataset again, e.g. in a spawned DataLoader worker or on a Dask worker.
        return (_dataset_from_recipe, (_native.dataset_recipe(self._ds),))

    # ---- metadata ---------------------------------------------------------------------
    @property
    def collection(self) -> dict:
        """COLLECTION.json (a copy); for a view, ``taco:pit_schema.root.n`` is its row count."""
        if self._collection is None:
            self._collection = json.loads(self._ds.collection_json())
        return json.loads(json.dumps(self._collection))

    def _field(self, key, default=None):
        if self._collection is None:
            self._collection = json.loads(self._ds.collection_json())
        return self._collection.get(key, default)

    @property
    def id(self) -> str:
        """The collection's ``id``."""
        return self._field("id")

    @property
    def version(self) -> str:
        """``dataset_version``."""
        return self._field("dataset_version")

    @property
    def description(self) -> str:
        """The collection's ``description``."""
        return self._field("description")

    @property
    def title(self):
        """The collection's ``title`` (None when absent)."""
        return self._field("title")

    @property
    def tasks(self) -> list:
        """The collection's ``tasks`` ([] when absent)."""
        return self._field("tasks", [])

    @property
    def licenses(self) -> list:
        """The collection's ``licenses`` ([] when absent)."""
        return self._field("licenses", [])

    @property
    def providers(self) -> list:
        """The collection's ``providers`` ([] when absent)."""
        return self._field("providers", [])

    @property
    def keywords(self):
        """The collection's ``keywords`` (None when absent)."""
        return self._field("keywords")

    @property
    def curators(self):
        """The collection's ``curators`` (None when absent)."""
        return self._field("curators")

    @property
    def extent(self) -> dict:
        """``{"spatial": [minx, miny, maxx, maxy], "temporal": [start, end]}`` as stored."""
        return self._field("extent") or {}

    @property
    def field_schema(self) -> dict:
        """``taco:field_schema``: per level, the extension columns with their types."""
        return self._field("taco:field_schema") or {}

    @property
    def pit_schema(self) -> PitSchema:
        """``taco:pit_schema`` (position-isomorphic tree) as a :class:`PitSchema`."""
        return PitSchema(self._field("taco:pit_schema"))

    @property
    def format(self) -> str:
        """"zip", "folder" or "tacocat"."""
        return self._ds.format

    @property
    def path(self) -> str:
        """The path or URL the dataset was opened from."""
        return self._ds.path

    @property
    def vsi_root(self) -> str:
        """The dataset's GDAL path (absolute local path or /vsi… path)."""
        return self._ds.vsi_root

    @property
    def num_levels(self) -> int:
        """Number of stored levels (level0 .. levelN-1)."""
        return self._ds.num_levels

    def level_info(self, level: int) -> dict:
        """Rows (padding included, as stored) and ``[(column, type)]`` of a stored level."""
        rows, columns = self._ds.describe_level(level)
        return {"level": level, "rows": rows, "columns": columns}

    def info(self) -> dict:
        """The object ``taco info --json`` prints for this dataset."""
        return json.loads(self._ds.info_json())

    # ---- lazy views ---------------------------------------------------------------------
    def sql(self, query: str) -> "TacoDataset":
        """A new view from SQL over ``data`` (this view), ``data_raw`` and ``level0..N``.
        One read statement over the dataset only (files outside it need
        ``load(..., allow_external_sql=True)``)."""
        if not isinstance(query, str):
            raise TypeError(f"sql() takes the query as a str, got {type(query).__name__}")
        return self._derived(self._ds.sql(query), f"sql({query!r})")

    def filter_bbox(self, minx: float, miny: float, maxx: float, maxy: float,
                    geometry_col: str = "auto", level: int = 0) -> "TacoDataset":
        """Rows whose geometry meets the closed box; ``level > 0`` keeps the level-0 samples
        with a matching descendant (and only the matching children when navigating)."""
        return self._derived(self._ds.filter_bbox(float(minx), float(miny), float(maxx), float(maxy),
                                                  geometry_col, int(level)),
                             f"filter_bbox({minx}, {miny}, {maxx}, {maxy})")

    def filter_datetime(self, datetime_range_, time_col: str = "auto", level: int = 0) -> "TacoDataset":
        """Rows whose time falls in the range: "A/B" or "A" (ISO-8601, naive = UTC), a date,
        a datetime (that instant; aware ones converted to UTC), or a (start, end) tuple; a date
        or a partial date ("2023", "2023-06") is the whole UTC day/month/year; open ends as ".."
        (STAC); inclusive."""
        text = datetime_range(datetime_range_)
        return self._derived(self._ds.filter_datetime(text, time_col, int(level)), f"filter_datetime({text!r})")

    # ---- rows ---------------------------------------------------------------------------
    @property
    @_user_errors
    def data(self):
        """The view's level-0 rows without ``internal:*`` columns except ``internal:gdal_vsi``,
        as a pyarrow.Table (Arrow C stream from the core, no row-by-row conversion)."""
        return table_from_capsule(self._ds.export_arrow(False))

    @property
    @_user_errors
    def data_raw(self):
        """The view's level-0 rows with every column (pyarrow.Table)."""
        return table_from_capsule(self._ds.export_arrow(True))

    def to_arrow(self):
        """``data`` (a pyarrow.Table)."""
        return self.data

    def to_pandas(self):
        """``data`` as a pandas DataFrame."""
        return self.data.to_pandas()

    @_user_errors
    def query(self, sql: str):
        """SQL run over the objects of the opened dataset (``levelN``, ``data``, ...) and its
        flat views ``l0 … lN`` (one row per level-K sample, columns ``"lK:<col>"`` then its
        ancestors' ``"l{K-1}:<col>"`` … ``"l0:<col>"``; TACOCAT parts joined by source file);
        the result as a pyarrow.Table (not a view). Read statements only (SELECT, WITH,
        DESCRIBE, SHOW, SUMMARIZE, EXPLAIN), over the dataset only unless it was loaded with
        ``allow_external_sql=True``; COPY, ATTACH, INSTALL, CREATE, SET, ... raise."""
        return table_from_capsule(self._ds.query_arrow(self._with_flat_views(sql)))

    def _level_columns(self, level: int) -> list[str]:
        """Columns of the engine's ``level{level}`` view (cached)."""
        if level not in self._level_cols:
            self._level_cols[level] = table_from_capsule(
                self._ds.query_arrow(f"SELECT * FROM level{int(level)} LIMIT 0")).column_names
        return self._level_cols[level]

    def _with_flat_views(self, sql: str) -> str:
        return _flat.with_flat_views(sql, self._level_columns, self.num_levels - 1)

    def flatten(self, level: int | None = None, sort_by: str | None = None, descending: bool = False,
                limit: int | None = None):
        """Every FILE sample of ``level`` (default: the deepest) under this view's level-0
        rows, with the columns of its ancestors (``"lK:<col>"``, deepest level first, no
        ``internal:*``) and its GDAL path last as ``gdal_vsi`` (pyarrow.Table); ``sort_by`` a
        flat column name, ``limit`` a row count."""
        top = self.num_levels - 1
        level = top if level is None else int(level)
        if level < 0 or level > top:
            raise ValueError(f"level {level} does not exist: levels 0 to {top}")
        return table_from_capsule(self._ds.query_arrow(
            _flat.flatten_sql(self._level_columns, level, None, sort_by, descending, limit, self._view_rows_condition())))

    def _view_rows_condition(self) -> str | None:
        """SQL condition on ``_l0`` keeping this view's level-0 rows (None: all of level 0).
        The rows are matched by their GDAL path, unique per level-0 sample in every format."""
        rows = self.data
        total = table_from_capsule(self._ds.query_arrow("SELECT count(*) AS n FROM level0")).column(0)[0].as_py()
        if rows.num_rows == total or "internal:gdal_vsi" not in rows.column_names:
            return None
        paths = rows.column("internal:gdal_vsi").to_pylist()
        if not paths:
            return "false"
        listed = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
        return f'_l0."internal:gdal_vsi" IN ({listed})'

    @property
    @_user_errors
    def columns(self) -> list[str]:
        """The column names of ``data``."""
        return self._ds.columns()

    @_user_errors
    def __len__(self) -> int:
        return self._ds.row_count()

    def __iter__(self) -> Iterator[dict]:
        for batch in self.data.to_batches():
            yield from batch.to_pylist()

    # ---- navigation ---------------------------------------------------------------------
    @_user_errors
    def read(self, *keys: int | str):
        """Follow ``keys`` (positions or ids) level by level from the view's level-0 rows:
        a FILE gives its GDAL path (str), a FOLDER a :class:`TacoFrame` of its children."""
        if not keys:
            raise TypeError("read() needs at least one key")
        return _node_result(self._ds.read([sample_key(k) for k in keys]))

    @_user_errors
    def read_bytes(self, *keys: int | str) -> bytes:
        """The bytes of the FILE sample that ``keys`` reach."""
        if not keys:
            raise TypeError("read_bytes() needs at least one key")
        return self._ds.read_bytes([sample_key(k) for k in keys])

    # ---- statistics (geotiff:stats of the current view) ----------------------------------
    @_user_errors
    def _stats(self, measure, band, level, id, file, method):
        bands, scalar = _bands(band)
        np = _np()
        values = np.asarray(self._ds.stats(measure, bands, int(level), id, file, method or ""), dtype=np.float32)
        return values[0] if scalar else values

    def stats_mean(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """Mean per band over the current view. ``level > 0``: the samples of that level
        under the view's rows, narrowed by ``id`` (children of that sample) and/or ``file``
        (that child file of each row, e.g. ``level=1, file="image.tif"``).
        ``method`` (the same arguments for every stats_*; include/taco/stats.h has the rules):

        * "pooled" (default, None): from the stored per-sample ``geotiff:stats``; mean, std
          (population), min and max exact, each sample weighted by its valid pixels;
          percentiles are estimates inside proven bounds (``taco stats --json`` prints them).
        * "exact": reads every selected raster (NaN/NoData skipped); pK = the smallest pixel
          value v with #(pixels <= v) >= K% of the valid pixels.
        * "upstream": tacoreader's arithmetic (percentiles = averages of the per-sample ones).
        """
        return self._stats("mean", band, level, id, file, method)

    def stats_std(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """Population standard deviation per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("std", band, level, id, file, method)

    def stats_min(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """Minimum per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("min", band, level, id, file, method)

    def stats_max(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """Maximum per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("max", band, level, id, file, method)

    def stats_p25(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """25th percentile per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("p25", band, level, id, file, method)

    def stats_p50(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """Median (50th percentile) per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("p50", band, level, id, file, method)

    stats_median = stats_p50

    def stats_p75(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """75th percentile per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("p75", band, level, id, file, method)

    def stats_p95(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                 method: str | None = None):
        """95th percentile per band over the current view (arguments as :meth:`stats_mean`)."""
        return self._stats("p95", band, level, id, file, method)

    @_user_errors
    def stats_categorical(self, band, level: int = 0, id: str | None = None, file: str | None = None,
                          method: str | None = None):
        """Class probabilities: one array per band (a 2-D array for a band list), weighted
        by H*W ("pooled"/"upstream") or counted over the pixels ("exact")."""
        bands, scalar = _bands(band)
        np = _np()
        values = self._ds.stats_categorical(bands, int(level), id, file, method or "")
        if scalar:
            return np.asarray(values[0], dtype=np.float32)
        return np.asarray(values, dtype=np.float32)

    # ---- writing ------------------------------------------------------------------------
    @_user_errors
    def export(self, output, format: str | None = None, subset_date: str = "", *,
               progress: ProgressArg = None, meta_with_ids: bool = False) -> list[str]:
        """Write this view's samples (whole subtrees) as a new dataset (``taco export``).
        ``progress`` as in :func:`taco_cpp.create`; ``meta_with_ids`` as in
        :func:`taco_cpp.convert` (tacobridge's ``__meta__`` layout)."""
        with Progress(progress, "export") as callback:
            return self._ds.export(path_text(output), format or "auto", subset_date, callback, bool(meta_with_ids))

    # ---- display ------------------------------------------------------------------------
    def view_steps(self) -> tuple[str, list[str]]:
        """How this view was made: where the dataset came from (``load('s2.tacozip')``) and
        the filters and SQL applied to it, in order (``["sql('SELECT ...')",
        "filter_bbox(-5, 35, 5, 45)"]``); no steps for an opened dataset."""
        return view_steps(_native.dataset_recipe(self._ds))

    def __repr__(self) -> str:
        pit = self.pit_schema
        origin, steps = self.view_steps()
        lines = [f"<TacoDataset '{self.id}' ({self.format}{', view' if steps else ''})>"]
        if self.title:
            lines.append(f"  title:   {self.title}")
        lines.append(f"  version: {self.version}")
        extent = extent_text(self.extent)
        if extent:
            lines.append(f"  extent:  {extent}")
        lines.append(f"  from:    {origin}")
        for step in steps:
            lines.append(f"  then:    .{step}")
        lines.append(f"  level 0: {pit.root.get('n')} {pit.root.get('type')} rows, {self.num_levels} level(s)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from ._html import dataset_html

        return dataset_html(self)


def _dataset_from_recipe(recipe: str) -> "TacoDataset":
    return TacoDataset(_native.dataset_from_recipe(recipe))


def load(path, base_path=None, *, cache: bool = True, bbox: Sequence[float] | None = None,
         datetime=None, allow_external_rasters: bool = False, allow_external_sql: bool = False) -> TacoDataset:
    """Open a dataset: a TACO ZIP, a FOLDER, a TACOCAT (``.tacocat/`` or ``__TACOCAT__``), a
    local path or a URL (http(s)://, s3://, gs://, az://, /vsi…/), or a list of them
    (concatenated). ``base_path``: where a TACOCAT finds its ZIPs. ``cache``: use the disk
    cache of remote metadata. ``bbox=(minx, miny, maxx, maxy)`` and ``datetime`` (as
    :meth:`TacoDataset.filter_datetime`) select rows right away. A ``TACOLLECTION.json``
    (any ``*.json``) opens its parts as one dataset; with ``bbox``/``datetime`` only the parts
    whose ``taco:sources`` extents meet them are opened, and ``ds.parts_skipped`` says how many
    were not (None when nothing was routed). ``allow_external_rasters``: the pixel readers
    (the torch loader, ``stats_*(method="exact")``) open sample bytes with any GDAL format,
    VRT and other formats naming files or URLs included; by default only self-contained
    formats (GTiff/COG, PNG, JPEG, GIF, BMP, WEBP), without network for a local dataset.
    ``allow_external_sql``: let :meth:`TacoDataset.sql` and :meth:`TacoDataset.query` read
    local files besides the dataset (``read_csv('my.csv')`` to join); by default SQL reads
    only the dataset (docs/reliability.md "Untrusted datasets" for both)."""
    flags = (bool(allow_external_rasters), bool(allow_external_sql))
    path = [_local_path(p) for p in path] if isinstance(path, (list, tuple)) else _local_path(path)
    base = path_text(base_path) if base_path is not None else ""
    if bbox is not None and len(bbox) != 4:
        raise ValueError(f"bbox is (minx, miny, maxx, maxy), got {len(bbox)} values")
    skipped = None
    if isinstance(path, (list, tuple)):
        native = _native.open_list([path_text(p) for p in path], base, bool(cache), *flags)
    else:
        # A TACOLLECTION with a box or a range opens only the parts whose extents meet them
        # (the library's OpenRouted, as `taco sql/filter/export`); `skipped` is None otherwise.
        box = [float(v) for v in bbox] if bbox is not None else None
        text = datetime_range(datetime) if datetime is not None else ""
        native, skipped = _native.open_routed(path_text(path), box, text, base, bool(cache), *flags)
    ds = TacoDataset(native)
    if bbox is not None:
        ds = ds.filter_bbox(bbox[0], bbox[1], bbox[2], bbox[3])
    if datetime is not None:
        ds = ds.filter_datetime(datetime)
    ds.parts_skipped = skipped
    return ds


def concat(datasets: Sequence[TacoDataset], column_mode: str = "intersection") -> TacoDataset:
    """One dataset of several (``column_mode``: "intersection", "fill_missing" or "strict")."""
    natives = []
    for d in datasets:
        if not isinstance(d, TacoDataset):
            raise TypeError(f"concat takes TacoDataset objects, got {type(d).__name__}")
        natives.append(d._ds)
    return TacoDataset(_native.concat(natives, column_mode))


class ValidationReport:
    """What ``taco validate`` finds: ``ok``, ``violations`` (dicts with rule, where, found,
    expected), ``omitted`` (rule → count not listed) and ``notes``."""

    def __init__(self, report: dict):
        self.path = report["path"]
        self.format = report["format"]
        self.violations = report["violations"]
        self.omitted = dict(report["omitted"])
        self.notes = list(report["notes"])

    @property
    def ok(self) -> bool:
        """True when no rule is violated."""
        return not self.violations and not self.omitted

    @property
    def total(self) -> int:
        """Violations found, listed and omitted."""
        return len(self.violations) + sum(self.omitted.values())

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        state = "ok" if self.ok else f"{self.total} violation(s)"
        return f"<ValidationReport {self.path} ({self.format}): {state}>"


def validate(path, max_per_rule: int = 1000) -> ValidationReport:
    """Check every rule of the format (``taco validate``)."""
    return ValidationReport(_native.validate(path_text(path), int(max_per_rule)))


def info(path) -> dict:
    """The object ``taco info --json PATH`` prints."""
    return json.loads(_native.open(path_text(path), "", True).info_json())


def cache_info() -> dict:
    """The disk cache of remote metadata: ``dir``, ``entries``, ``bytes``, ``enabled``."""
    return _native.cache_info()


def cache_clear() -> int:
    """Empty the disk cache of remote metadata; returns how many entries were removed."""
    return _native.cache_clear()


def gdal_path(path: str, leaf: str = "") -> str:
    """A ``/vsitaco/`` path holding the same bytes as a sample's GDAL path, opened by GDAL
    in this process with one request for a remote sample (see taco/io.h)."""
    return _native.in_process_gdal_path(path, leaf)
