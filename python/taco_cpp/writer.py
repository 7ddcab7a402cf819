"""Writing TACO datasets: the data model (:class:`Sample`, :class:`Tortilla`, :class:`Taco`),
the built-in extensions, and ``create``, ``tacocat``, ``tacollection``, ``convert``,
``export`` and ``from_directory``.

Every rule (ids, extension keys, schemas, PIT, collection fields) is checked by the C++
core when an object is made; a made object is valid, and ``create`` writes it atomically.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any, Iterable, Mapping, Sequence

from . import _native
from ._convert import from_micros, path_text, to_micros
from ._progress import Progress, ProgressArg
from .errors import InvalidArgumentError


class Field:
    """One extension value with an explicit Arrow type (PyArrow spelling: "float",
    "int32", "list<item: int64>", "timestamp[us]", "struct<a: string>", ...) and an
    optional description (it goes into ``taco:field_schema``)."""

    __slots__ = ("name", "value", "type", "description")

    def __init__(self, name: str, value: Any, type: str | None = None, description: str = ""):
        self.name = name
        self.value = value
        self.type = type if type is not None else infer_type(value, name)
        self.description = description

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.value!r}, type={self.type!r})"


def infer_type(value: Any, name: str = "value") -> str:
    """The Arrow type of a Python value: bool, int → int64, float → double, str → string,
    bytes → binary, datetime/date → timestamp[us], list → list<item: T>, dict → struct.
    numpy scalars keep their width (float32 → float, int32 → int32)."""
    if value is None:
        raise ValueError(f"{name}: None has no type; give one with Field({name!r}, None, type=...)")
    try:
        import numpy as np

        if isinstance(value, np.generic):
            kind = {np.bool_: "bool", np.float32: "float", np.float64: "double",
                    np.int32: "int32", np.int64: "int64"}
            for t, spelled in kind.items():
                if isinstance(value, t):
                    return spelled
            if isinstance(value, np.integer):
                return "int64"
            if isinstance(value, np.floating):
                return "double"
        if isinstance(value, np.ndarray):
            return infer_type(value.tolist(), name)
    except ImportError:  # pragma: no cover
        pass
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "binary"
    if isinstance(value, (_dt.datetime, _dt.date)):
        return "timestamp[us]"
    if isinstance(value, (list, tuple)):
        items = {infer_type(v, name) for v in value if v is not None}
        if items == {"int64", "double"}:
            items = {"double"}
        if len(items) != 1:
            raise ValueError(f"{name}: cannot infer a list type from {sorted(items) or 'no non-null items'}; "
                             f"give one with Field({name!r}, ..., type='list<item: ...>')")
        return f"list<item: {items.pop()}>"
    if isinstance(value, Mapping):
        fields = ", ".join(f"{k}: {infer_type(v, f'{name}.{k}')}" for k, v in value.items())
        return f"struct<{fields}>"
    raise TypeError(f"{name}: cannot store a {type(value).__name__} in a TACO column")


def _plain(value: Any, type_text: str) -> Any:
    """Python value → what the core takes (datetimes as microseconds, numpy as Python)."""
    if value is None:
        return None
    if type_text == "timestamp[us]" and isinstance(value, (_dt.datetime, _dt.date)):
        return to_micros(value)
    if hasattr(value, "tolist") and not isinstance(value, (bytes, bytearray)):
        value = value.tolist()
    if type_text.startswith(("list<", "large_list<")) and isinstance(value, (list, tuple)):
        inner = type_text[type_text.index("<") + 1:-1]
        inner = inner.split(": ", 1)[1] if inner.startswith("item: ") else inner
        return [_plain(v, inner) for v in value]
    return value


def _field_tuples(fields) -> list[tuple]:
    if isinstance(fields, Mapping):
        fields = [v if isinstance(v, Field) else Field(k, v) for k, v in fields.items()]
    out = []
    for f in fields:
        if not isinstance(f, Field):
            raise TypeError(f"expected Field objects or a mapping, got {type(f).__name__}")
        out.append((f.name, f.type, _plain(f.value, f.type), f.description))
    return out


def _from_tuple(name: str, type_text: str, value: Any) -> Any:
    if value is not None and type_text == "timestamp[us]":
        return from_micros(value)
    return value


# ---- extensions ------------------------------------------------------------------------

class SampleExtension:
    """A built-in sample-level extension (STAC, ISTAC, GeoTIFF statistics, scaling, split).
    ``sample.extend(ext)`` adds its fields; ``ext.schema()`` lists them."""

    def __init__(self, native):
        self._ext = native

    @property
    def name(self) -> str:
        """The extension's name."""
        return self._ext.name

    def schema(self) -> list[tuple[str, str]]:
        """The ``(column, Arrow type)`` pairs the extension adds."""
        return self._ext.schema()

    def compute(self, sample: "Sample") -> dict:
        """The fields this extension computes for ``sample`` (name → value)."""
        return {n: _from_tuple(n, t, v) for n, t, v, _ in self._ext.compute(sample._native)}

    @property
    def schema_only(self) -> bool:
        """True when only the schema is declared (values left null, e.g. for a padding sample)."""
        return self._ext.schema_only

    @schema_only.setter
    def schema_only(self, value: bool):
        self._ext.schema_only = bool(value)


def _opt_micros(t):
    return None if t is None else to_micros(t)


def Stac(time_start=None, time_end=None) -> SampleExtension:
    """stac:crs, stac:tensor_shape, stac:geotransform, stac:time_start/end/middle,
    stac:centroid of a raster FILE sample (GDAL). On a FOLDER sample (extend its children
    first): the centre of the lon/lat box of the footprints below, the earliest start and
    latest end; crs, tensor_shape and geotransform null. Given times replace the computed."""
    return SampleExtension(_native.ext_stac(_opt_micros(time_start), _opt_micros(time_end)))


def Istac(time_start=None, time_end=None) -> SampleExtension:
    """istac:crs, istac:geometry (footprint), istac:time_*, istac:centroid of a raster. On a
    FOLDER sample: the lon/lat box of the footprints below (istac:crs EPSG:4326), its centre,
    the earliest start and latest end."""
    return SampleExtension(_native.ext_istac(_opt_micros(time_start), _opt_micros(time_end)))


def GeotiffStats(categorical: bool = False, class_values: Sequence[float] = (), scale_factor: float = 1.0,
                 scale_offset: float = 0.0) -> SampleExtension:
    """geotiff:stats per band (continuous: min, max, mean, std, valid%, p25, p50, p75, p95;
    categorical: class probabilities)."""
    return SampleExtension(_native.ext_geotiff_stats(bool(categorical), [float(v) for v in class_values],
                                                     float(scale_factor), float(scale_offset)))


def Scaling(scale_factor: float, scale_offset: float = 0.0, padding: Sequence[int] = (0, 0, 0, 0)) -> SampleExtension:
    """scaling:scale_factor, scaling:scale_offset, scaling:padding [top, right, bottom, left]."""
    return SampleExtension(_native.ext_scaling(float(scale_factor), float(scale_offset), [int(p) for p in padding]))


def Split(split: str) -> SampleExtension:
    """split: "train", "test" or "validation"."""
    return SampleExtension(_native.ext_split(split))


class TortillaExtension:
    """A built-in extension computed over all samples of a tortilla (MajorTOM, spatial groups)."""

    def __init__(self, native):
        self._ext = native

    @property
    def name(self) -> str:
        """The extension's name."""
        return self._ext.name

    def schema(self) -> list[tuple[str, str]]:
        """The ``(column, Arrow type)`` pairs the extension adds."""
        return self._ext.schema()


def MajorTom(dist_km: float = 100) -> TortillaExtension:
    """majortom:code of each sample's MajorTOM grid cell (from its STAC/ISTAC centroid)."""
    return TortillaExtension(_native.ext_majortom(float(dist_km)))


def SpatialGrouping(target_count: int) -> TortillaExtension:
    """spatialgroup:code: samples cut into groups of ``target_count`` along a Z-order curve."""
    return TortillaExtension(_native.ext_spatial_grouping(int(target_count)))


def labels(classes: Iterable, description: str = "") -> dict:
    """The ``labels:*`` collection fields. ``classes``: names, or (name, category,
    description) tuples, or dicts with those keys."""
    rows = []
    for c in classes:
        if isinstance(c, str):
            rows.append((c, "", ""))
        elif isinstance(c, Mapping):
            rows.append((c["name"], c.get("category") or "", c.get("description") or ""))
        else:
            name, category, desc = (list(c) + ["", ""])[:3]
            rows.append((name, category or "", desc or ""))
    return json.loads(_native.labels(rows, description))


def optical_data(sensor: str) -> dict:
    """The ``optical:*`` collection fields of a known sensor, e.g. "sentinel2msi[B02,B03]"."""
    return json.loads(_native.optical_data(sensor))


def publications(items: Iterable) -> dict:
    """The ``publications`` collection field: (doi, citation[, summary]) tuples or dicts."""
    rows = []
    for p in items:
        if isinstance(p, Mapping):
            rows.append((p["doi"], p["citation"], p.get("summary") or ""))
        else:
            doi, citation, summary = (list(p) + [""])[:3]
            rows.append((doi, citation, summary or ""))
    return json.loads(_native.publications(rows))


def split_strategy(name: str) -> dict:
    """``{"split:strategy": name}`` (random, stratified, manual, other, none, unknown)."""
    return json.loads(_native.split_strategy(name))


# ---- the model -----------------------------------------------------------------------

class Sample:
    """A FILE (a file path, or bytes) or a FOLDER (a :class:`Tortilla` or a list of samples).

    >>> Sample("image.tif", "tiles/a/image.tif")
    >>> Sample("a", Tortilla([Sample("image.tif", p1), Sample("mask.tif", p2)]))
    >>> Sample("note", data=b"...")
    """

    def __init__(self, id: str, path=None, *, data: bytes | None = None, **fields):
        if (path is None) == (data is None):
            raise TypeError("Sample needs exactly one of path (file, Tortilla or list of samples) or data (bytes)")
        if data is not None:
            self._native = _native.Sample.from_bytes(id, bytes(data))
        elif isinstance(path, Tortilla):
            self._native = _native.Sample.from_tortilla(id, path._native)
        elif isinstance(path, (list, tuple)):
            self._native = _native.Sample.from_tortilla(id, Tortilla(path)._native)
        elif isinstance(path, (bytes, bytearray)):
            self._native = _native.Sample.from_bytes(id, bytes(path))
        else:
            self._native = _native.Sample.from_file(id, path_text(path))
        if fields:
            self.extend(fields)

    @classmethod
    def _wrap(cls, native) -> "Sample":
        s = cls.__new__(cls)
        s._native = native
        return s

    def __reduce__(self):
        # Pickled as what makes it again (a FILE's path, bytes, or children; the extension
        # fields as stored), e.g. to build parts on Dask workers (taco_cpp.dask).
        return (_sample_from_state, (_sample_state(self._native),))

    @classmethod
    def padding(cls, k: int) -> "Sample":
        """The padding FILE ``__TACOPAD__<k>`` (0 bytes)."""
        return cls._wrap(_native.Sample.padding(int(k)))

    @property
    def id(self) -> str:
        """The sample's id (unique among its siblings)."""
        return self._native.id

    @property
    def type(self) -> str:
        """"FILE" or "FOLDER"."""
        return self._native.type

    @property
    def path(self) -> str:
        """A FILE's path ("" for bytes, padding and FOLDER samples)."""
        return self._native.file_path

    @property
    def size_bytes(self) -> int:
        """Bytes of the sample's data (a FOLDER: of all its descendants)."""
        return self._native.size_bytes

    @property
    def children(self) -> "Tortilla | None":
        """A FOLDER's children (None for a FILE)."""
        t = self._native.children
        return None if t is None else Tortilla._wrap(t)

    @property
    def fields(self) -> dict:
        """Extension fields, name → value (timestamps as naive UTC datetimes)."""
        return {n: _from_tuple(n, t, v) for n, t, v, _ in self._native.fields()}

    def schema(self) -> list[tuple[str, str]]:
        """The ``(column, Arrow type)`` pairs of the sample's metadata."""
        return self._native.schema()

    def extend(self, fields) -> "Sample":
        """Add extension fields: a mapping name → value (types inferred, or Field values),
        a list of :class:`Field`, or a :class:`SampleExtension`. All or nothing. Returns self."""
        if isinstance(fields, SampleExtension):
            self._native.extend_with(fields._ext)
        else:
            self._native.extend(_field_tuples(fields))
        return self

    extend_with = extend

    def pop(self, key: str) -> None:
        """Remove the extension field ``key``."""
        self._native.pop(key)

    def __repr__(self) -> str:
        return f"Sample({self.id!r}, {self.type}, {self.size_bytes} bytes)"


class Tortilla:
    """An ordered set of sibling samples (unique ids, one extension schema; ``strict_schema
    =False`` aligns differing schemas; ``pad_to`` appends padding to a multiple)."""

    def __init__(self, samples: Sequence[Sample], pad_to: int | None = None, strict_schema: bool = True):
        natives = []
        for s in samples:
            if not isinstance(s, Sample):
                raise TypeError(f"Tortilla takes Sample objects, got {type(s).__name__}")
            natives.append(s._native)
        self._native = _native.TortillaModel.make(natives, pad_to, bool(strict_schema))

    @classmethod
    def _wrap(cls, native) -> "Tortilla":
        t = cls.__new__(cls)
        t._native = native
        return t

    def __reduce__(self):
        return (_tortilla_from_state, ([_sample_state(s) for s in self._native.samples],))

    @property
    def samples(self) -> list[Sample]:
        """The samples, in order."""
        return [Sample._wrap(s) for s in self._native.samples]

    @property
    def depth(self) -> int:
        """Levels from this tortilla down, itself included (1 when every sample is a FILE)."""
        return self._native.depth

    @property
    def size_bytes(self) -> int:
        """Bytes of every sample's data."""
        return self._native.size_bytes

    def schema(self) -> list[tuple[str, str]]:
        """The ``(column, Arrow type)`` pairs shared by the samples."""
        return self._native.schema()

    def extend_with(self, extension: TortillaExtension) -> "Tortilla":
        """A new tortilla with the extension's columns added to every sample."""
        return Tortilla._wrap(self._native.extend_with(extension._ext))

    def __len__(self) -> int:
        return len(self._native)

    def __iter__(self):
        return iter(self.samples)

    def __repr__(self) -> str:
        return f"Tortilla({len(self)} samples, depth {self.depth})"


def _sample_state(native) -> tuple:
    """(id, kind, payload, fields) of a native sample; kind: file, bytes, padding, folder."""
    fields = list(native.fields())
    if native.is_padding:
        return (native.id, "padding", None, fields)
    children = native.children
    if children is not None:
        return (native.id, "folder", [_sample_state(c) for c in children.samples], fields)
    if native.file_path:
        return (native.id, "file", native.file_path, fields)
    return (native.id, "bytes", native.bytes, fields)


def _native_sample(state):
    id_, kind, payload, fields = state
    if kind == "padding":
        native = _native.Sample.padding(int(id_[len("__TACOPAD__"):]))
    elif kind == "folder":
        native = _native.Sample.from_tortilla(id_, _native_tortilla([_native_sample(c) for c in payload]))
    elif kind == "file":
        native = _native.Sample.from_file(id_, payload)
    else:
        native = _native.Sample.from_bytes(id_, payload)
    if fields and kind != "padding":
        native.extend(fields)
    return native


def _native_tortilla(natives):
    try:
        return _native.TortillaModel.make(natives, None, True)
    except InvalidArgumentError:
        return _native.TortillaModel.make(natives, None, False)  # schemas aligned when it was made


def _sample_from_state(state) -> Sample:
    return Sample._wrap(_native_sample(state))


def _tortilla_from_state(states) -> Tortilla:
    return Tortilla._wrap(_native_tortilla([_native_sample(s) for s in states]))


class Taco:
    """A whole dataset: a root :class:`Tortilla` and the collection fields (id,
    dataset_version, description, licenses, providers, tasks, ...)."""

    def __init__(self, tortilla: Tortilla, collection: Mapping | None = None, **fields):
        if not isinstance(tortilla, Tortilla):
            hint = " (wrap the samples: Taco(Tortilla([...]), ...))" if isinstance(tortilla, (list, tuple)) else ""
            raise TypeError(f"Taco() takes a Tortilla, got {type(tortilla).__name__}{hint}")
        if collection is not None and not isinstance(collection, Mapping):
            raise TypeError(f"Taco(): collection is a dict (COLLECTION.json), got {type(collection).__name__}")
        collection = dict(collection or {})
        collection.update(fields)
        self._native = _native.TacoModel.make(tortilla._native, json.dumps(collection))

    @classmethod
    def _wrap(cls, native) -> "Taco":
        t = cls.__new__(cls)
        t._native = native
        return t

    @property
    def tortilla(self) -> Tortilla:
        """The root tortilla (level 0)."""
        return Tortilla._wrap(self._native.root)

    @property
    def collection(self) -> dict:
        """COLLECTION.json as it will be written (a copy)."""
        return json.loads(self._native.collection_json())

    @property
    def num_levels(self) -> int:
        """Levels the dataset will have (level0 .. levelN-1)."""
        return self._native.num_levels

    def extend_with(self, fragment: Mapping, name: str = "extension") -> "Taco":
        """A new Taco with collection fields added (e.g. ``labels(...)``, ``optical_data(...)``)."""
        return Taco._wrap(self._native.extend_with_fragment(name, json.dumps(dict(fragment))))

    def __repr__(self) -> str:
        return f"Taco({self.collection.get('id')!r}, {self.num_levels} level(s))"


# ---- writing ---------------------------------------------------------------------------

def _size(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        return _native.parse_size(value)
    return int(value)


def create(taco: Taco, output, *, format: str | None = None, split_size=None,
           group_by: str | Sequence[str] | None = None, consolidate: bool = True,
           progress: ProgressArg = None) -> list[str]:
    """Write ``taco`` as a TACO ZIP (".zip"/".tacozip") or a FOLDER (``format`` "zip" |
    "folder" overrides). ``split_size`` ("4GB", bytes, 0 = never): ZIP parts; ``group_by``:
    one ZIP per value of level-0 columns; ``consolidate``: a ``.tacocat/`` beside several
    parts. ``progress``: bytes written — None: a bar (tqdm if installed) on a terminal or in
    Jupyter; True/False: always/never; or a callable ``(done, total)``. Atomic; returns the
    paths written."""
    if isinstance(group_by, str):
        group_by = [group_by]
    with Progress(progress, "create") as callback:
        return _native.create(taco._native, path_text(output), format or "auto", _size(split_size),
                              list(group_by or []), bool(consolidate), callback)


def tacocat(inputs: Sequence, out_dir=None, single_file: bool = False, align_schemas: bool = False) -> str:
    """Consolidate TACO ZIPs into ``out_dir/.tacocat/`` (or ``__TACOCAT__`` with
    ``single_file``); returns the path written."""
    return _native.tacocat([path_text(p) for p in inputs], path_text(out_dir) if out_dir is not None else "",
                           bool(single_file), bool(align_schemas))


def tacollection(inputs: Sequence, output=None, *, validate_pit: bool = True, validate_fields: bool = True):
    """The TACOLLECTION of ``inputs``: written to ``output`` (returns its path) or, without
    ``output``, returned as a dict."""
    paths = [path_text(p) for p in inputs]
    if output is None:
        return json.loads(_native.tacollection(paths, "", bool(validate_pit), bool(validate_fields)))
    out = path_text(output)
    _native.tacollection(paths, out, bool(validate_pit), bool(validate_fields))
    return out


def convert(input, output, format: str | None = None, *, progress: ProgressArg = None,
            meta_with_ids: bool = False) -> list[str]:
    """Rewrite a whole dataset in the other container (ZIP ⇄ FOLDER; TACOCAT → FOLDER), or
    convert from/to the legacy Tortilla 0.5 / TACO v1 files as ``taco convert`` does
    (``format`` "tortilla" | "taco-v1", or a legacy input/output name); what the legacy
    conversion invents or drops is reported as UserWarnings. ``progress`` as in
    :func:`create` (not reported for legacy conversions). ``meta_with_ids=True`` writes each
    FOLDER's ``__meta__`` as tacobridge does: its children's rows of their level, with
    ``internal:current_id``/``internal:parent_id`` (not for legacy outputs)."""
    src, dst, fmt = path_text(input), path_text(output), format or "auto"
    if fmt in ("tortilla", "taco-v1") or _native.is_legacy_path(src) or _native.is_legacy_path(dst):
        written, notes = _native.convert_legacy(src, dst, fmt)
        if notes:
            import warnings

            for note in notes:
                warnings.warn(f"convert: {note}", UserWarning, stacklevel=2)
        return written
    with Progress(progress, "convert") as callback:
        return _native.convert(src, dst, fmt, callback, bool(meta_with_ids))


def export(dataset, output, format: str | None = None, *, progress: ProgressArg = None) -> list[str]:
    """Write the samples of a dataset view (after sql/filters) as a new dataset. Also takes a
    dataset opened through ``taco_cpp.compat.tacoreader`` (its core view is written).
    ``progress`` as in :func:`create`."""
    core = getattr(dataset, "_core", dataset)
    return core.export(output, format=format, progress=progress)


def from_directory(src, collection, *, metadata: Sequence = (), ext: Sequence[str] = (),
                   classes: Sequence[float] = (), pad_to: int | None = None, strict_schema: bool = True,
                   order_file=None, time_column: str | None = None,
                   exclude: str | Sequence[str] | None = None, progress: ProgressArg = None) -> Taco:
    """The Taco ``taco create SRC`` builds from a directory tree (a sub-directory is a FOLDER
    sample, a file a FILE sample), with the same options: ``collection`` (a dict or a JSON
    file), ``metadata`` (CSV/JSON Lines/Parquet files keyed by ``path``), ``ext`` (stac,
    istac, stats, stats-categorical, majortom; ``"NAME:GLOB"`` computes NAME only for the
    files whose name matches GLOB, e.g. ``["stac", "stats:image.tif",
    "stats-categorical:mask.tif"]``; stac/istac also fill FOLDER samples from the files below
    them), ``classes``, ``pad_to``, ``strict_schema``, ``order_file``, ``time_column`` (the
    metadata column, timestamp or ISO-8601 text, that gives a sample's time: its
    stac:/istac: time_start, and the earliest/latest for the FOLDERs above), ``exclude``
    (globs of entries that are not samples, as ``taco create --exclude``: without '/' matched
    against an entry's name, with '/' against its path below ``src``; GDAL's ``*.aux.xml``
    sidecars are always left out). ``progress``: files whose extensions were computed, as in
    :func:`create`."""
    if isinstance(exclude, str):
        exclude = [exclude]
    if isinstance(collection, Mapping):
        collection_json, collection_name = json.dumps(dict(collection)), ""
    else:
        collection_name = path_text(collection)
        collection_json = _native.load_collection_file(collection_name)
    if isinstance(ext, str):
        ext = [e for e in ext.split(",") if e]
    with Progress(progress, "from_directory", unit="files") as callback:
        return Taco._wrap(_native.taco_from_directory(
            path_text(src), collection_json, collection_name, path_text(order_file) if order_file else "",
            [path_text(m) for m in metadata], list(ext), [float(c) for c in classes], pad_to, bool(strict_schema),
            time_column, [str(g) for g in exclude] if exclude is not None else None, callback))
