"""Decoding the samples of a view: the core shared by :mod:`taco_cpp.torch` and
:mod:`taco_cpp.dask` (no PyTorch, no Dask here).

A :class:`SampleSource` is a view (any ``load``/``sql``/``filter_*`` result), the FILE
children to decode per level-0 row, and what to decode of each (bands, pixel window, pixel
type). Where each file lives is resolved once per process by the C++ core with one query
(``taco/sample_loader.h``); every file is decoded by GDAL in C++ with the GIL released, and
``read_ahead`` decodes the next rows in C++ threads with a bounded memory budget.

A source pickles as its view's recipe plus its options (spawned DataLoader workers and Dask
workers reopen the dataset themselves) and survives ``fork`` (the plan is kept, the decoder
is made again in the child).
"""

from __future__ import annotations

import math
import os
from collections import deque
from typing import Any, Callable, Iterator, Mapping, Sequence

from . import _native
from ._convert import path_text
from .errors import InvalidArgumentError

#: The key of the decoded array of a flat dataset's sample (the row itself is the FILE).
FLAT_KEY = "data"
#: The key of a sample's metadata row.
METADATA_KEY = "metadata"

_DEFAULT_BUDGET = 256 << 20


def _as_view(dataset):
    from .reader import TacoDataset, load

    if isinstance(dataset, TacoDataset):
        return dataset
    if isinstance(dataset, (str, os.PathLike, list, tuple)):
        return load(dataset)
    raise TypeError(f"expected a taco_cpp.TacoDataset, a path/URL or a list of them, got {type(dataset).__name__}")


def _per_file(value, keys: list[str], what: str) -> list:
    """One value per file: a mapping file → value (missing files: None), or one value for all."""
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise InvalidArgumentError(f"{what}: no file named {unknown[0]!r} is decoded (files: {', '.join(keys)})")
        return [value.get(k) for k in keys]
    return [value] * len(keys)


def _bands(value, key: str):
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"bands of {key!r}: a list of 0-based band indexes, not a bool")
    if getattr(value, "ndim", None) == 0 or isinstance(value, int) or (
            hasattr(value, "__index__") and not isinstance(value, (list, tuple)) and not hasattr(value, "__len__")):
        return [int(value)]
    try:
        bands = [int(b) for b in value]  # a list, tuple, numpy array or tensor of ints
    except TypeError:
        raise TypeError(f"bands of {key!r}: 0-based band indexes (int or a sequence of ints), "
                        f"got {type(value).__name__}") from None
    if not bands:
        raise InvalidArgumentError(f"bands of {key!r}: give at least one band (or None for all)")
    for b in bands:
        if b < 0:
            raise InvalidArgumentError(f"bands of {key!r}: band {b} is negative (bands are 0-based)")
    return bands


def _window(value, key: str):
    """(col_off, row_off, width, height) from a 4-tuple or a rasterio-style Window."""
    if value is None:
        return None
    if all(hasattr(value, a) for a in ("col_off", "row_off", "width", "height")):
        value = (value.col_off, value.row_off, value.width, value.height)
    try:
        items = [int(v) for v in value]
    except TypeError:
        raise TypeError(f"window of {key!r}: (col_off, row_off, width, height) or a rasterio Window") from None
    if len(items) != 4:
        raise InvalidArgumentError(f"window of {key!r}: 4 numbers (col_off, row_off, width, height), got {len(items)}")
    if items[2] < 1 or items[3] < 1 or items[0] < 0 or items[1] < 0:
        raise InvalidArgumentError(f"window of {key!r}: offsets must be >= 0 and the size >= 1, got {tuple(items)}")
    return tuple(items)


#: Pixel types the C++ decoder converts to; float16 is decoded as float32 and converted after.
_CORE_TYPES = {"uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32", "float64"}


def _dtype(value, default: str) -> str:
    """A numpy type name from a name ("float32", "float"), a numpy type or a torch dtype."""
    if value is None:
        return default
    if isinstance(value, str) and value in ("native", "torch"):
        return value
    import numpy as np

    if type(value).__module__ == "torch" and type(value).__name__ == "dtype":  # torch.float32 → "float32"
        value = str(value).replace("torch.", "")
    try:
        name = np.dtype(value).name
    except TypeError:
        if isinstance(value, str):
            return value  # the core names the unknown pixel type
        raise TypeError(f"dtype: a numpy type name (e.g. 'float32'), a numpy type or a torch dtype, got {value!r}") from None
    if name not in _CORE_TYPES and name != "float16":
        raise InvalidArgumentError(f"dtype {name!r} is not a pixel type (one of: {', '.join(sorted(_CORE_TYPES))}, "
                                   f"float16)")
    return name


def _narrowing(source, target) -> bool:
    """Whether converting pixels of numpy type `source` to `target` clamps values: an integer
    target whose range does not hold the source's, or floats to integers. Float targets
    round (float16: 11 significant bits, inf above 65504) and are not refused."""
    import numpy as np

    source, target = np.dtype(source), np.dtype(target)
    if source == target:
        return False
    if target.kind in "iu":
        if source.kind not in "iu":
            return True
        s, t = np.iinfo(source), np.iinfo(target)
        return s.min < t.min or s.max > t.max
    return False


class SampleSource:
    """The decoding of a view's samples (see the module docstring).

    ``files``: names (paths below a sample: ``"image.tif"``, ``"sensor_A/band_R"``) of the
    FILE children to decode per row; None: the row itself for a flat dataset, else the FILE
    children of the first row. ``bands`` (0-based), ``window`` (``(col_off, row_off, width,
    height)`` or a rasterio Window) and ``dtype`` (a numpy type name the pixels are
    converted to while decoding) apply to every file, or per file as a dict file → value.
    ``torch_types``: by default keep the raster's type where PyTorch has one (uint16 →
    int32, uint32 → int64). Bad arguments and a first sample that cannot be decoded raise
    here, in the calling process.
    """

    def __init__(self, dataset, files=None, bands=None, window=None, dtype=None, *, torch_types: bool = False,
                 allow_narrowing: bool = False):
        self.view = _as_view(dataset)
        self._table = None
        self._columns = None
        self._plan = None
        self._proc = None
        if isinstance(files, (str, os.PathLike)):
            files = [path_text(files)]
        if files is not None:
            files = [path_text(f) for f in files]
            if not files:
                raise InvalidArgumentError("files: give at least one file name (or None)")
        self.files = files if files is not None else self._default_files()
        self.keys = list(self.files) if self.files else [FLAT_KEY]
        if METADATA_KEY in self.keys:
            raise InvalidArgumentError(f"a file named {METADATA_KEY!r} collides with the metadata key of each sample")
        default_type = "torch" if torch_types else "native"
        wanted = [(_bands(b, k), _window(w, k), _dtype(t, default_type))
                  for k, b, w, t in zip(self.keys, _per_file(bands, self.keys, "bands"),
                                        _per_file(window, self.keys, "window"), _per_file(dtype, self.keys, "dtype"))]
        if torch_types:
            import torch

            for k, (_, _, t) in zip(self.keys, wanted):
                if t in ("uint16", "uint32", "uint64") and not hasattr(torch, t):
                    raise InvalidArgumentError(
                        f"dtype of {k!r}: this PyTorch has no {t} tensors; use a signed type that holds the values "
                        f"(int32 for uint16, int64 for uint32), the default (which widens them), or as_tensor=False")
        # float16: decoded as float32 by the core, converted after (_after).
        self._after = [t if t == "float16" else None for (_, _, t) in wanted]
        self._selections = [(b, w, "float32" if t == "float16" else t) for (b, w, t) in wanted]
        #: Per key: (shape, numpy dtype name) of the first sample's decoded array, the slot
        #: read_ahead(batch=...) preallocates; None where nothing is preallocated (float16,
        #: converted after decoding) or without samples.
        self.layout: list = [None] * len(self.keys)
        plan = self.plan()
        if plan.num_rows != self._metadata_table().num_rows:
            raise InvalidArgumentError(
                f"{self.view.path}: the view changed while it was read ({plan.num_rows} rows planned, "
                f"{self._metadata_table().num_rows} rows of metadata)")
        if plan.num_rows > 0:
            _, first = self._decoder().decode(0)  # bad bands, windows, types and unreadable files fail here
            self.layout = [None if after is not None else (tuple(a.shape), a.dtype.name)
                           for a, after in zip(first, self._after)]
            if not allow_narrowing:
                self._check_narrowing()

    # ---- set-up ------------------------------------------------------------------------
    def _check_narrowing(self) -> None:
        """Refuses a dtype that cannot hold the first sample's pixel type (GDAL would clamp)."""
        targets = [a or t for a, (_, _, t) in zip(self._after, self._selections)]
        if all(t in ("native", "torch") for t in targets):
            return
        probe = [(None if b is None else b[:1], (0, 0, 1, 1), "native") for (b, _, _) in self._selections]
        _, arrays = _native.make_decoder(self.plan(), probe, True).decode(0)
        for key, target, array in zip(self.keys, targets, arrays):
            if target not in ("native", "torch") and _narrowing(array.dtype, target):
                raise InvalidArgumentError(
                    f"dtype of {key!r}: {target} cannot hold the file's {array.dtype.name} pixels (the first sample's); "
                    f"the conversion would clamp or round values silently; pass allow_narrowing=True to convert "
                    f"anyway, or choose a wider type")

    def _default_files(self) -> list[str]:
        table = self._metadata_table()
        if table.num_rows == 0 or "type" not in table.column_names:
            return []
        types = table.column("type").to_pylist()
        if "FOLDER" not in types:
            return []
        first = types.index("FOLDER")
        if "FILE" in types:
            return []  # mixed: the plan names the first FILE row as the problem
        frame = self.view.read(first)
        children = frame.data
        names = [i for i, t in zip(children.column("id").to_pylist(), children.column("type").to_pylist())
                 if t == "FILE" and not i.startswith("__TACOPAD__")]
        if not names:
            raise InvalidArgumentError(
                f"{self.view.path}: the first sample ({first}) has no FILE children; name the files to decode "
                f"(files=['dir/file.tif', ...])")
        return names

    def _metadata_table(self):
        if self._table is None:
            table = self.view.data.combine_chunks()
            keep = [n for n in table.column_names if not n.startswith("internal:")]
            self._table = table.select(keep)
            self._columns = [(n, self._table.column(n)) for n in keep]
        return self._table

    def plan(self):
        """The C++ plan (plain data: kept across fork, made again after unpickling)."""
        if self._plan is None:
            self._plan = _native.plan_samples(self.view._ds, list(self.files))
        return self._plan

    def _decoder(self):
        pid = os.getpid()
        if self._proc is None or self._proc[0] != pid:
            self._proc = (pid, _native.make_decoder(self.plan(), self._selections, True))
        return self._proc[1]

    # ---- pickling ----------------------------------------------------------------------
    def __getstate__(self):
        return {"view": self.view, "files": self.files, "keys": self.keys, "selections": self._selections,
                "after": self._after, "layout": self.layout}

    def __setstate__(self, state):
        self.view = state["view"]
        self.files = state["files"]
        self.keys = state["keys"]
        self._selections = state["selections"]
        self._after = state.get("after") or [None] * len(self.keys)
        self.layout = state.get("layout") or [None] * len(self.keys)
        self._table = None
        self._columns = None
        self._plan = None
        self._proc = None

    # ---- samples -----------------------------------------------------------------------
    def __len__(self) -> int:
        return self.plan().num_rows

    def index(self, i: int) -> int:
        """A row position (negative counts from the end); IndexError outside the view."""
        n = len(self)
        if not isinstance(i, int):
            i = int(i.__index__())
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError(f"sample {i} is out of range (the view has {n} samples)")
        return i

    def metadata(self, i: int) -> dict:
        """Row ``i`` of the view as plain Python values (``internal:*`` columns left out)."""
        self._metadata_table()
        return {name: column[i].as_py() for name, column in self._columns}

    def arrays(self, arrays: Sequence) -> dict:
        out = dict(zip(self.keys, arrays))
        for key, after in zip(self.keys, self._after):
            if after is not None:
                out[key] = out[key].astype(after)
        return out

    def decode(self, i: int) -> dict:
        """The decoded files of row ``i``: key → numpy array (bands, rows, cols)."""
        _, arrays = self._decoder().decode(self.index(i))
        return self.arrays(arrays)

    def sample(self, i: int) -> dict:
        """``decode(i)`` plus ``"metadata"``."""
        i = self.index(i)
        out = self.decode(i)
        out[METADATA_KEY] = self.metadata(i)
        return out

    def read_ahead(self, rows: Sequence[int], threads: int = 2, memory_budget: int = _DEFAULT_BUDGET,
                   max_ahead: int = 64, batch: int = 0,
                   allocate: Callable[[int, tuple, str], tuple[Any, Any]] | None = None) -> Iterator[tuple[int, dict]]:
        """Decodes ``rows`` in order, ``threads`` C++ threads ahead of the consumer, holding at
        most about ``memory_budget`` decoded bytes (plus one sample per thread); yields
        (row, key → array). An error is raised when its row is reached.

        ``batch`` > 0 with ``allocate``: the rows are decoded straight into preallocated
        batches of ``batch`` rows (the last may be shorter), two batches ahead of the
        consumer (one when two batches exceed ``memory_budget``). ``allocate(n, shape,
        dtype)`` returns ``(batch_object, numpy_view)``: an object indexable by row (a tensor
        of shape ``(n, *shape)``) and a writable, C-contiguous numpy array over the same
        memory, which the C++ threads fill. The value
        yielded for a row is then ``batch_object[i]`` (a view), or an array of its own when
        the row's raster does not have the first sample's shape and type."""
        rows = [int(r) for r in rows]
        if batch > 0 and allocate is not None and any(lay is not None for lay in self.layout):
            yield from self._read_into_batches(rows, int(threads), int(memory_budget), int(max_ahead), int(batch),
                                               allocate)
            return
        queue = self._decoder().read_ahead(rows, int(threads), int(memory_budget), int(max_ahead))
        try:
            while True:
                item = queue.next()
                if item is None:
                    return
                row, arrays = item
                yield row, self.arrays(arrays)
        finally:
            queue.close()

    def _read_into_batches(self, rows: list[int], threads: int, memory_budget: int, max_ahead: int, batch: int,
                           allocate) -> Iterator[tuple[int, dict]]:
        import numpy as np

        queue = self._decoder().read_ahead(rows, threads, memory_budget, max_ahead, True)
        batches: deque = deque()  # (first position, [batch object or None per key])
        provided = 0
        # Two batches ahead (the threads fill the next while the loop uses this one), or one
        # when two would not fit the memory budget.
        batch_bytes = sum(batch * math.prod(lay[0]) * np.dtype(lay[1]).itemsize for lay in self.layout if lay)
        ahead = 2 if 2 * batch_bytes <= memory_budget else 1

        def provide():
            nonlocal provided
            n = min(batch, len(rows) - provided)
            objects, views = [], []
            for lay in self.layout:
                if lay is None:
                    objects.append(None)
                    views.append(None)
                else:
                    obj, view = allocate(n, lay[0], lay[1])
                    objects.append(obj)
                    views.append(view)
            queue.provide(n, views, views)
            batches.append((provided, objects))
            provided += n

        try:
            for _ in range(ahead):
                if provided < len(rows):
                    provide()
            for position in range(len(rows)):
                if position >= batches[0][0] + batch:  # a new batch starts: hand over the one after the next
                    batches.popleft()
                    if provided < len(rows):
                        provide()
                item = queue.next()
                row, arrays = item
                first, objects = batches[0]
                arrays = [objects[f][position - first] if a is None else a for f, a in enumerate(arrays)]
                yield row, self.arrays(arrays)
        finally:
            queue.close()


def describe_selection(source: SampleSource) -> list[dict[str, Any]]:
    """What is decoded of each file (for reprs and tests)."""
    return [{"key": k, "bands": b, "window": w, "dtype": t} for k, (b, w, t) in zip(source.keys, source._selections)]
