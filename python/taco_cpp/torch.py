"""PyTorch datasets over TACO views: decoding in C++, seeded resumable shuffling, worker and
DDP sharding.

* :class:`TacoDataset` — map-style: ``ds[i]`` is row ``i`` of the view, decoded.
* :class:`TacoIterableDataset` — for remote and very large datasets: a seeded permutation
  per epoch (``set_epoch``), split across DataLoader workers and ``torch.distributed`` ranks
  so that every sample is seen exactly once per epoch, optional ``drop_last``/``pad`` for
  DDP, ``state_dict()``/``load_state_dict()`` to resume at the exact next sample, and
  read-ahead of the next samples in C++ threads with a memory budget.
* :func:`collate_samples` — batches the dict samples (arrays stacked, metadata as lists
  or tensors); :class:`TacoDataLoader` — a DataLoader using it that also counts the
  samples it delivered, for ``state_dict()``.

A sample is a dict: one entry per decoded file, keyed by its name (``"image.tif"``; ``"data"``
for the row itself in a flat dataset), holding a tensor (or numpy array with
``as_tensor=False``) of shape (bands, rows, cols) in the raster's type — widened where PyTorch
has no such type (uint16 → int32, uint32 → int64) — and ``"metadata"``: the sample's row as
plain Python values (``id``, ``type``, extension columns; ``internal:*`` left out).

The files are decoded by GDAL in C++ with the GIL released; the bytes come through the
dataset's own readers (a remote ZIP: one request per sample). Uses Debian's ``python3-torch``
(CPU) in this repository; any torch >= 1.13 works.
"""

from __future__ import annotations

import collections
import math
import multiprocessing
import os
import weakref
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np
import torch
import torch.utils.data as _data

from ._samples import METADATA_KEY, SampleSource
from .errors import InvalidArgumentError

__all__ = ["SampleMetadata", "TacoDataset", "TacoIterableDataset", "TacoDataLoader", "collate_samples", "epoch_order"]

_STATE_VERSION = 1
_MAX_WORKERS = 256  # DataLoader workers whose taking of a resume point is tracked
_TAKEN = 5  # index of the first per-worker slot in TacoIterableDataset._shared


class SampleMetadata(dict):
    """A sample's ``"metadata"``: its row as a plain dict of Python values (None, datetimes,
    strings, numbers, ...). PyTorch's ``default_collate`` batches it as
    :func:`collate_samples` does (column → tensor for numbers of one kind, else a list), so a
    plain ``DataLoader(TacoDataset(...), batch_size=8)`` works: this type is registered in
    ``torch.utils.data._utils.collate.default_collate_fn_map`` when this module is imported."""


def _collate_metadata(batch, *, collate_fn_map=None) -> dict:
    columns: list = []
    for row in batch:
        for c in row:
            if c not in columns:
                columns.append(c)
    return {c: _collate_values([row.get(c) for row in batch]) for c in columns}


try:  # torch >= 1.13: default_collate looks types up in this table (its documented extension point)
    from torch.utils.data._utils.collate import default_collate_fn_map as _collate_map

    _collate_map[SampleMetadata] = _collate_metadata
except ImportError:  # older torch: use collate_samples (TacoDataLoader's default)
    pass


def _tensors(sample: dict) -> dict:
    for key, value in sample.items():
        if isinstance(value, np.ndarray):
            sample[key] = torch.from_numpy(value)
    return sample


def _with_metadata_type(sample: dict) -> dict:
    meta = sample.get(METADATA_KEY)
    if type(meta) is dict:
        sample[METADATA_KEY] = SampleMetadata(meta)
    return sample


# ---- preallocated batches -------------------------------------------------------------------
# The batches TacoIterableDataset decodes into, by id (a weak reference each): collate_samples
# returns such a batch instead of stacking copies of its rows, and only for these.
_BATCHES: dict = {}


def _remember(batch) -> None:
    key = id(batch)
    _BATCHES[key] = weakref.ref(batch, lambda _, key=key: _BATCHES.pop(key, None))


def _ours(base) -> bool:
    ref = _BATCHES.get(id(base))
    return ref is not None and ref() is base


def _typed_storage(tensor: torch.Tensor):
    return tensor._typed_storage() if hasattr(tensor, "_typed_storage") else tensor.storage()


def _shared_tensor(n: int, shape: tuple, dtype, extra: int = 0) -> torch.Tensor:
    """An uninitialised tensor in shared memory (what default_collate makes in a worker):
    sending it to the main process passes a file descriptor, no copy. ``extra`` elements
    are allocated after its ``n`` rows (the storage is that much longer than the tensor)."""
    elem = torch.empty(0, dtype=dtype)
    numel = n * math.prod(shape)
    storage = _typed_storage(elem)._new_shared(numel + extra)
    return elem.new(storage).resize_(n, *shape)


# ---- recycled batch buffers (DataLoader workers under TacoDataLoader) -----------------------
# Fresh shared memory costs a page fault per 4 KiB the decoder writes, in the worker (about
# 1.2 ms of system CPU per 1 MB sample on the 2-core bench machine: more than decoding it).
# A worker therefore keeps its batch buffers and decodes the next batches into those the main
# process has released. A recycled buffer's storage ends with a trailer of four int64 after
# its rows: the dataset's token (random, so no other tensor is taken for one), the
# generation of the batch it now holds (written by the worker), the generation the main
# process released (written by TacoDataLoader when the last reference to the batch it handed
# out dies), 0. The worker reuses a buffer only when the two generations are equal.
_TRAILER = 32
_BUFFERS_PER_WORKER = 8  # per file, at most (and at most memory_budget bytes of them)


class _BatchPool:
    """The recycled batch buffers of one DataLoader worker (one dataset, this process)."""

    def __init__(self, token: int, limit: int):
        self.token = token
        self.limit = limit
        self.entries: list = []  # [tensor (rows, *shape), trailer (4 int64, numpy), generation]

    def take(self, rows: int, shape: tuple, dtype) -> torch.Tensor:
        """A buffer of ``rows`` rows of ``shape``/``dtype`` whose previous batch the main
        process released, else a new one (dropping the oldest buffer when the pool is full)."""
        for k, entry in enumerate(self.entries):
            tensor, trailer, generation = entry
            if (tensor.dtype == dtype and tuple(tensor.shape) == (rows, *shape)
                    and int(trailer[2]) == generation):
                del self.entries[k]
                break
        else:
            if len(self.entries) >= self.limit:
                del self.entries[0]  # never released (kept, copied or pinned by the consumer): forgotten here
            itemsize = torch.empty(0, dtype=dtype).element_size()
            data = rows * math.prod(shape) * itemsize
            extra = ((-data) % 8 + _TRAILER) // itemsize  # the trailer starts 8-byte aligned
            tensor = _shared_tensor(rows, shape, dtype, extra)
            whole = torch.empty(0, dtype=dtype).set_(_typed_storage(tensor))
            trailer = whole[whole.numel() - _TRAILER // itemsize:].numpy().view(np.int64)
            trailer[:] = (self.token, 0, -1, 0)
            generation = 0
        generation += 1
        trailer[1] = generation
        self.entries.append([tensor, trailer, generation])
        return tensor


_POOLS: dict = {}  # (pid, token) → _BatchPool


def _pool(token: int, limit: int) -> _BatchPool:
    key = (os.getpid(), token)
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS[key] = _BatchPool(token, limit)
    return pool


# In the main process, per dataset token while a TacoDataLoader iterates: the trailers (each
# keeping its storage, the main process's mapping of the buffer) of the last released buffers.
# A buffer sent again is then rebuilt from PyTorch's cache of shared storages (keyed by the
# shared-memory file) onto the same mapping, whose pages are mapped already: no page faults
# when the loop reads the next batch in it (about 1.8 ms of system CPU per 1 MB sample else).
_MAPPED: dict = {}  # token → [limit, OrderedDict address of the trailer → trailer]


def _release(trailer: np.ndarray, generation: int, token: int) -> None:
    trailer[2] = generation
    mapped = _MAPPED.get(token)
    if mapped is not None:
        limit, kept = mapped
        kept[trailer.ctypes.data] = trailer
        kept.move_to_end(trailer.ctypes.data)
        while len(kept) > limit:
            kept.popitem(last=False)


def _trailer_of(tensor: torch.Tensor, token: int) -> np.ndarray | None:
    """The trailer (4 int64) of ``tensor``'s storage when it is a recycled buffer of the
    dataset with ``token`` holding the tensor from its first row, else None."""
    if not tensor.is_shared() or tensor.storage_offset() != 0 or not tensor.is_contiguous() or tensor.numel() == 0:
        return None
    itemsize = tensor.element_size()
    storage = _typed_storage(tensor)
    if storage.size() * itemsize < tensor.numel() * itemsize + _TRAILER:
        return None
    whole = torch.empty(0, dtype=tensor.dtype).set_(storage)
    trailer = whole[whole.numel() - _TRAILER // itemsize:].numpy().view(np.int64)
    return trailer if int(trailer[0]) == token else None


def _recycled(tensor: torch.Tensor, token: int) -> torch.Tensor:
    """In the main process: ``tensor`` (a batch from a worker) itself, or — when it is a
    recycled buffer of the dataset with ``token`` — the same memory as a tensor whose end
    releases the buffer to its worker (when the last tensor viewing it is gone)."""
    trailer = _trailer_of(tensor, token)
    if trailer is None:
        return tensor
    anchor = tensor.numpy()  # keeps the shared mapping; dies with the last tensor over it
    out = torch.from_numpy(anchor)
    weakref.finalize(anchor, _release, trailer, int(trailer[1]), token).atexit = False
    return out


def _allocate_batch(as_tensor: bool, batch: int = 0, pool: _BatchPool | None = None):
    """The ``allocate`` of SampleSource.read_ahead: tensors (in shared memory inside a
    DataLoader worker; from ``pool``, buffers of ``batch`` rows, when given) or numpy arrays."""
    in_worker = _data.get_worker_info() is not None

    def allocate(n: int, shape: tuple, dtype: str):
        if not as_tensor:
            array = np.empty((n, *shape), dtype=dtype)
            _remember(array)
            return array, array
        torch_type = getattr(torch, dtype)
        if pool is not None and in_worker:
            whole = pool.take(batch, shape, torch_type)
            _remember(whole)
            tensor = whole if n == batch else whole[:n]
            return tensor, tensor.numpy()
        tensor = _shared_tensor(n, shape, torch_type) if in_worker else torch.empty((n, *shape), dtype=torch_type)
        _remember(tensor)
        return tensor, tensor.numpy()

    return allocate


def _rows_of_a_batch(values: list):
    """The preallocated batch whose consecutive rows ``values`` are (``batch[i0:i0+n]``,
    the batch itself when they are all of it), else None."""
    first = values[0]
    if isinstance(first, torch.Tensor):
        base = first._base
        if base is None or not _ours(base) or base.dim() != first.dim() + 1 or base.dtype != first.dtype:
            return None
        if tuple(base.shape[1:]) != tuple(first.shape) or tuple(base.stride()[1:]) != tuple(first.stride()):
            return None
        step, start = base.stride(0), first.storage_offset() - base.storage_offset()
        for j, v in enumerate(values):
            if (not isinstance(v, torch.Tensor) or v._base is not base or v.dtype != base.dtype
                    or v.shape != first.shape or v.stride() != first.stride()
                    or v.storage_offset() - base.storage_offset() != start + j * step):
                return None
    elif isinstance(first, np.ndarray):
        base = first.base
        if not isinstance(base, np.ndarray) or not _ours(base) or base.ndim != first.ndim + 1:
            return None
        if base.dtype != first.dtype or base.shape[1:] != first.shape or base.strides[1:] != first.strides:
            return None
        step, start = base.strides[0], first.ctypes.data - base.ctypes.data
        for j, v in enumerate(values):
            if (not isinstance(v, np.ndarray) or v.base is not base or v.dtype != base.dtype or v.shape != first.shape
                    or v.strides != first.strides or v.ctypes.data - base.ctypes.data != start + j * step):
                return None
    else:
        return None
    if step <= 0 or start % step:
        return None
    i0 = start // step
    if i0 + len(values) > base.shape[0]:
        return None
    return base if i0 == 0 and len(values) == base.shape[0] else base[i0:i0 + len(values)]


class TacoDataset(_data.Dataset):
    """Map-style dataset over the level-0 rows of a view.

    ``dataset_or_path``: a :class:`taco_cpp.TacoDataset` (after ``sql``/``filter_*``) or a
    path/URL. ``files``: the FILE children to decode per sample (``["image.tif",
    "mask.tif"]``, paths below the sample for deeper levels); None = the row itself in a flat
    dataset, else the FILE children of the first sample. ``bands``: 0-based band indexes,
    ``window``: ``(col_off, row_off, width, height)`` or a rasterio Window — only those are
    decoded; ``dtype``: convert the pixels while decoding (a name such as "float32" or
    "float16", a numpy type or a torch dtype); each of these may also be a dict file name →
    value. A ``dtype`` that cannot hold the first sample's pixels (uint8 for uint16 data,
    an integer type for floats) is refused unless ``allow_narrowing=True`` (then values are
    clamped/rounded); unsigned types PyTorch lacks (uint16, uint32) are refused with
    ``as_tensor=True``. ``transform``: called on each sample dict.

    Bad arguments (an unknown file name, a FOLDER where a FILE is needed, a band or window
    outside the first sample's raster) raise :class:`taco_cpp.TacoError` here, in the main
    process; a later sample that cannot be decoded raises when it is read (in a DataLoader
    worker, the DataLoader re-raises it in the main process).
    """

    def __init__(self, dataset_or_path, files: Sequence[str] | str | None = None, bands=None, window=None,
                 transform: Callable[[dict], Any] | None = None, as_tensor: bool = True, dtype=None, *,
                 allow_narrowing: bool = False):
        self.source = SampleSource(dataset_or_path, files, bands, window, dtype, torch_types=as_tensor,
                                   allow_narrowing=allow_narrowing)
        self.transform = transform
        self.as_tensor = bool(as_tensor)

    @property
    def keys(self) -> list[str]:
        """The keys of the decoded files in each sample (plus ``"metadata"``)."""
        return list(self.source.keys)

    def __len__(self) -> int:
        return len(self.source)

    def __getitem__(self, index: int) -> Any:
        sample = _with_metadata_type(self.source.sample(index))
        if self.as_tensor:
            _tensors(sample)
        return self.transform(sample) if self.transform is not None else sample

    def __getitems__(self, indices: Sequence[int]) -> list:
        """A batch at once, decoded by C++ threads in parallel (PyTorch >= 2.0's DataLoader
        calls this for map-style datasets; 1.13 calls ``__getitem__`` per sample)."""
        rows = [self.source.index(i) for i in indices]
        threads = max(1, min(len(rows), os.cpu_count() or 1))
        out = []
        for row, arrays in self.source.read_ahead(rows, threads):
            arrays[METADATA_KEY] = SampleMetadata(self.source.metadata(row))
            if self.as_tensor:
                _tensors(arrays)
            out.append(self.transform(arrays) if self.transform is not None else arrays)
        return out

    def metadata(self, index: int) -> dict:
        """The sample's row without decoding anything."""
        return self.source.metadata(self.source.index(index))

    def __repr__(self) -> str:
        return f"<taco_cpp.torch.TacoDataset: {len(self)} samples of {self.source.view.path}, files {self.keys}>"


def epoch_order(num_rows: int, seed: int, epoch: int, shuffle: bool = True) -> np.ndarray:
    """The order of the rows in an epoch: a permutation drawn by numpy's PCG64 seeded with
    ``(seed, epoch)`` (the same on every rank and every machine), or 0..n-1 unshuffled."""
    if not shuffle:
        return np.arange(num_rows, dtype=np.int64)
    if seed < 0 or epoch < 0:
        raise InvalidArgumentError(f"seed and epoch must be >= 0, got seed={seed}, epoch={epoch}")
    return np.random.Generator(np.random.PCG64([int(seed), int(epoch)])).permutation(num_rows).astype(np.int64)


def _process_group() -> tuple[int, int] | None:
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return None


class TacoIterableDataset(_data.IterableDataset):
    """Iterable dataset for remote and very large datasets (arguments as :class:`TacoDataset`,
    plus):

    * ``shuffle``/``seed``: each epoch visits the rows in :func:`epoch_order` (``set_epoch(e)``
      before each epoch, as with DistributedSampler); the same seed and epoch give the same
      order everywhere.
    * ``rank``/``world_size``: taken from the ``torch.distributed`` process group when one is
      initialised (create the dataset after ``init_process_group``, or call ``set_epoch``
      after it), else 0/1; give them to override. Rank r takes positions r, r+W, ... of the
      epoch order: every sample once per epoch, no overlap. The counts per rank may differ by
      one; ``drop_last=True`` drops the last ``n % W`` positions of the order, ``pad=True``
      repeats its first ones, so that every rank gets the same count (what DDP needs to keep
      ranks in step).
    * DataLoader workers share a rank's list in chunks of ``batch_size``: worker w takes
      chunks w, w+K, ... — exactly the order in which the DataLoader collects them, so the
      batches come out in the rank's order whatever the worker count. :class:`TacoDataLoader`
      sets ``batch_size`` to its own (and refuses a different one given here); under a plain
      DataLoader with 2 or more workers ``batch_size`` must be given (the DataLoader's), else
      iterating raises.
    * ``state_dict(samples_seen)`` / ``load_state_dict(state)``: resume mid-epoch at the next
      sample; only the next pass over the data starts there, the passes after it are whole
      (with or without ``set_epoch``). Without workers the dataset counts what it yielded; with workers pass the number
      of samples your loop consumed, or use :class:`TacoDataLoader`, which counts them.
      ``set_epoch``/``load_state_dict`` reach persistent workers too (shared memory).
    * ``read_ahead_threads`` (default: all cores without workers, 1 per worker) decode the
      next rows of this process's list in C++ threads, holding at most ``memory_budget``
      decoded bytes (plus one sample per thread); 0 decodes each sample when it is asked for.
    * ``preallocate`` (default True; used when ``batch_size`` > 1): those threads decode
      straight into the batch's tensors, allocated two batches ahead (one if two exceed
      ``memory_budget``; in shared memory inside a DataLoader worker), so that :func:`collate_samples` returns them without
      stacking copies and a worker's batch reaches the main process without a copy. Each
      sample's tensor is then a view into its batch's tensor (``tensor._base``); a sample
      whose raster differs from the first sample's shape or type gets a tensor of its own.
      ``False`` decodes every sample into its own buffer (and ``collate_samples`` stacks).
    """

    def __init__(self, dataset_or_path, files: Sequence[str] | str | None = None, bands=None, window=None,
                 transform: Callable[[dict], Any] | None = None, as_tensor: bool = True, dtype=None, *,
                 shuffle: bool = True, seed: int = 0, rank: int | None = None, world_size: int | None = None,
                 drop_last: bool = False, pad: bool = False, batch_size: int | None = None,
                 read_ahead_threads: int | None = None, memory_budget: int = 256 << 20, max_ahead: int = 64,
                 allow_narrowing: bool = False, preallocate: bool = True):
        self.source = SampleSource(dataset_or_path, files, bands, window, dtype, torch_types=as_tensor,
                                   allow_narrowing=allow_narrowing)
        self.transform = transform
        self.as_tensor = bool(as_tensor)
        self.shuffle = bool(shuffle)
        if int(seed) < 0:
            raise InvalidArgumentError(f"seed must be >= 0, got {seed}")
        self.seed = int(seed)
        if drop_last and pad:
            raise InvalidArgumentError("drop_last and pad cannot both be set (drop the tail or repeat samples)")
        self.drop_last = bool(drop_last)
        self.pad = bool(pad)
        if batch_size is not None and int(batch_size) < 1:
            raise InvalidArgumentError(f"batch_size must be >= 1, got {batch_size}")
        #: True when batch_size was given (TacoDataLoader then checks it against its own).
        self.batch_size_given = batch_size is not None
        self.batch_size = 1 if batch_size is None else int(batch_size)
        self._batch_size_from_loader = False  # set by TacoDataLoader
        if read_ahead_threads is not None and int(read_ahead_threads) < 0:
            raise InvalidArgumentError(f"read_ahead_threads must be >= 0, got {read_ahead_threads}")
        self.read_ahead_threads = None if read_ahead_threads is None else int(read_ahead_threads)
        self.memory_budget = int(memory_budget)
        self.max_ahead = int(max_ahead)
        self.preallocate = bool(preallocate)
        self._explicit_rank = (rank, world_size)
        if (rank is None) != (world_size is None):
            raise InvalidArgumentError("give both rank and world_size, or neither")
        # Shared with the workers (fork and spawn): epoch, resume epoch, resume offset, rank,
        # world size, then one slot per DataLoader worker (up to _MAX_WORKERS) that the
        # worker sets when its pass took the resume point (the only slots workers write).
        self._shared = multiprocessing.RawArray("q", [0, -1, 0, 0, 1] + [0] * _MAX_WORKERS)
        self._pass_offset = 0  # where the pass running in this process started
        self._resolve_rank()
        self._yielded = 0  # samples yielded by __iter__ in this process, this epoch
        # Recycled batch buffers (see _BatchPool): the token marks this dataset's buffers;
        # TacoDataLoader sets _recycle while it starts workers that collate with collate_samples
        # (it then releases the buffers of the batches it handed out).
        self._token = int.from_bytes(os.urandom(8), "little") >> 1
        self._recycle = False

    # ---- epoch, rank ---------------------------------------------------------------------
    def _resolve_rank(self):
        rank, world = self._explicit_rank
        if rank is None:
            group = _process_group()
            rank, world = group if group is not None else (0, 1)
        rank, world = int(rank), int(world)
        if world < 1 or not 0 <= rank < world:
            raise InvalidArgumentError(f"rank {rank} is not in 0..world_size-1 (world_size {world})")
        self._shared[3], self._shared[4] = rank, world

    @property
    def epoch(self) -> int:
        """The epoch selected by ``set_epoch`` (0 before)."""
        return int(self._shared[0])

    @property
    def rank(self) -> int:
        """This process's rank among ``world_size`` (0 without torch.distributed)."""
        return int(self._shared[3])

    @property
    def world_size(self) -> int:
        """How many ranks share the rows (1 without torch.distributed)."""
        return int(self._shared[4])

    def set_epoch(self, epoch: int) -> None:
        """Selects the epoch's order (call before each epoch; reaches persistent workers). A
        resume point loaded for this epoch is kept; for another epoch it is dropped."""
        epoch = int(epoch)
        if epoch < 0:
            raise InvalidArgumentError(f"epoch must be >= 0, got {epoch}")
        if _data.get_worker_info() is None:
            self._resolve_rank()
        if epoch != self._shared[1]:
            self._clear_resume()
        if epoch != self._shared[0]:
            self._yielded = 0
            self._pass_offset = 0
        self._shared[0] = epoch

    def rank_rows(self, epoch: int | None = None) -> np.ndarray:
        """This rank's rows of an epoch (default: the current one), in order."""
        epoch = self.epoch if epoch is None else int(epoch)
        n = len(self.source)
        order = epoch_order(n, self.seed, epoch, self.shuffle)
        world, rank = self.world_size, self.rank
        if self.drop_last:
            order = order[: n - n % world]
        elif self.pad and n % world and n > 0:
            extra = world - n % world
            order = np.concatenate([order, np.resize(order, extra)])
        return order[rank::world]

    def __len__(self) -> int:
        """Samples this rank yields per epoch (over all its workers)."""
        n, world, rank = len(self.source), self.world_size, self.rank
        if self.drop_last:
            return n // world
        if self.pad:
            return math.ceil(n / world) if n else 0
        return len(range(rank, n, world))

    # ---- resuming ------------------------------------------------------------------------
    def _resume_offset(self, epoch: int) -> int:
        """The loaded resume point of ``epoch`` not yet taken by a pass (else 0)."""
        return int(self._shared[2]) if int(self._shared[1]) == epoch else 0

    def _clear_resume(self) -> None:
        self._shared[1], self._shared[2] = -1, 0
        for k in range(_TAKEN, _TAKEN + _MAX_WORKERS):
            self._shared[k] = 0

    def _start_pass(self) -> int:
        """Where the pass that calls this starts: the loaded resume point for the first pass
        after ``load_state_dict`` (every worker of that pass), 0 for any later pass. Each
        worker marks its own slot; the one that finds every worker's slot marked clears the
        resume point (no lock: each writes only its slot before looking at the others)."""
        info = _data.get_worker_info()
        epoch = int(self._shared[0])
        if int(self._shared[1]) != epoch:
            return 0
        offset = int(self._shared[2])
        workers = 1 if info is None else max(1, info.num_workers)
        if workers > _MAX_WORKERS:
            raise InvalidArgumentError(f"resuming supports at most {_MAX_WORKERS} DataLoader workers, got {workers}")
        self._shared[_TAKEN + (0 if info is None else info.id)] = 1
        if all(self._shared[_TAKEN + w] for w in range(workers)):
            self._clear_resume()
        return offset

    def state_dict(self, samples_seen: int | None = None) -> dict:
        """Where this rank is: the epoch and how many of its samples were consumed.
        ``samples_seen``: what your loop consumed this epoch (needed with DataLoader workers;
        without workers, the count of samples this dataset yielded is used)."""
        if samples_seen is None:
            pending = self._resume_offset(self.epoch)
            samples_seen = pending if pending else self._pass_offset + self._yielded
        samples_seen = int(samples_seen)
        if not 0 <= samples_seen <= len(self):
            raise InvalidArgumentError(f"samples_seen {samples_seen} is not in 0..{len(self)} (this rank's epoch)")
        return {
            "version": _STATE_VERSION, "epoch": self.epoch, "samples_seen": samples_seen, "seed": self.seed,
            "shuffle": self.shuffle, "num_rows": len(self.source), "rank": self.rank, "world_size": self.world_size,
            "drop_last": self.drop_last, "pad": self.pad,
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Continue at the sample after the ones ``state`` counted (the next iteration of its
        epoch starts there; ``set_epoch`` with another epoch starts that epoch from 0)."""
        if state.get("version") != _STATE_VERSION:
            raise InvalidArgumentError(f"state_dict version {state.get('version')!r} is not {_STATE_VERSION}")
        self._resolve_rank()
        mine = self.state_dict(0)
        for key in ("seed", "shuffle", "num_rows", "world_size", "drop_last", "pad"):
            if state.get(key) != mine[key]:
                raise InvalidArgumentError(
                    f"state_dict is of another set-up: {key} {state.get(key)!r}, this dataset has {mine[key]!r}")
        seen = int(state["samples_seen"])
        if not 0 <= seen <= len(self):
            raise InvalidArgumentError(f"state_dict samples_seen {seen} is not in 0..{len(self)}")
        epoch = int(state["epoch"])
        self._clear_resume()
        self._shared[0], self._shared[1], self._shared[2] = epoch, epoch, seen
        self._yielded = 0
        self._pass_offset = 0

    # ---- iteration -----------------------------------------------------------------------
    def _rows_of_this_process(self) -> tuple[list[int], int]:
        info = _data.get_worker_info()
        if info is not None and info.num_workers > 1 and not (self.batch_size_given or self._batch_size_from_loader):
            raise InvalidArgumentError(
                f"TacoIterableDataset under a DataLoader with {info.num_workers} workers: give it the DataLoader's "
                f"batch_size (TacoIterableDataset(..., batch_size=B)), or use taco_cpp.torch.TacoDataLoader, which "
                f"sets it; with another chunk size the batches mix the order and resuming skips or repeats samples")
        epoch = self.epoch
        offset = self._start_pass()
        if info is None:
            self._pass_offset = offset
        rows = self.rank_rows(epoch)[offset:]
        if info is None or info.num_workers <= 1:
            return rows.tolist(), 0 if info is None else 1
        b, k, w = self.batch_size, info.num_workers, info.id
        chunks = [rows[s: s + b] for s in range(w * b, len(rows), k * b)]
        return (np.concatenate(chunks).tolist() if chunks else []), info.num_workers

    def __iter__(self) -> Iterator[Any]:
        rows, workers = self._rows_of_this_process()
        threads = self.read_ahead_threads
        if threads is None:
            threads = 1 if workers else max(1, min(4, os.cpu_count() or 1))
        if _data.get_worker_info() is None:
            self._yielded = 0
        source = self.source
        batch = self.batch_size if self.preallocate and self.batch_size > 1 else 0
        allocate = _allocate_batch(self.as_tensor, batch, self._batch_pool(batch)) if batch else None
        for row, arrays in source.read_ahead(rows, threads, self.memory_budget, self.max_ahead, batch, allocate):
            sample = arrays
            sample[METADATA_KEY] = SampleMetadata(source.metadata(row))
            if self.as_tensor:
                _tensors(sample)
            if self.transform is not None:
                sample = self.transform(sample)
            if workers == 0:
                self._yielded += 1
            yield sample

    def _batch_pool(self, batch: int) -> _BatchPool | None:
        """The recycled buffers of this worker: only under TacoDataLoader (which releases them)
        with collate_samples and no transform (no code of the user's sees the buffers in the
        worker, so nothing there holds one when it is reused)."""
        if not (self._recycle and self.as_tensor and self.transform is None and _data.get_worker_info() is not None):
            return None
        limit = self._pool_limit(batch)
        return _pool(self._token, limit) if limit else None

    def _pool_limit(self, batch: int) -> int:
        """How many recycled buffers a worker keeps (all files together)."""
        layouts = [lay for lay in self.source.layout if lay is not None]
        if not layouts:
            return 0
        batch_bytes = sum(batch * math.prod(shape) * np.dtype(dtype).itemsize for shape, dtype in layouts)
        per_file = max(2, min(_BUFFERS_PER_WORKER, self.memory_budget // max(1, batch_bytes)))
        return per_file * len(layouts)

    def __getstate__(self):
        state = self.__dict__.copy()
        if multiprocessing.context.get_spawning_popen() is None:
            # Not for a new process of this job (e.g. saved to disk): plain values.
            state["_shared"] = list(self._shared)
        return state

    def __setstate__(self, state):
        shared = state["_shared"]
        if isinstance(shared, list):
            state["_shared"] = multiprocessing.RawArray("q", shared)
        state.setdefault("_token", int.from_bytes(os.urandom(8), "little") >> 1)  # pickled by an older version
        state.setdefault("_recycle", False)
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (f"<taco_cpp.torch.TacoIterableDataset: {len(self.source)} samples of {self.source.view.path}, "
                f"rank {self.rank}/{self.world_size}, epoch {self.epoch}, files {self.source.keys}>")


# ---- batching -------------------------------------------------------------------------------

def _collate_values(values: list) -> Any:
    """A column of metadata values: a tensor when all are numbers of one kind (bool, int,
    or int/float), else the list as is (None, strings, datetimes, bytes, mixed types)."""
    kinds = set()
    for v in values:
        if isinstance(v, bool):
            kinds.add("bool")
        elif isinstance(v, int):
            kinds.add("int")
        elif isinstance(v, float):
            kinds.add("float")
        else:
            return list(values)
    if kinds == {"bool"}:
        return torch.tensor(values, dtype=torch.bool)
    if kinds == {"int"}:
        try:
            return torch.tensor(values, dtype=torch.int64)
        except (OverflowError, RuntimeError):
            return list(values)
    if kinds and kinds <= {"int", "float"}:
        return torch.tensor(values, dtype=torch.float64)
    return list(values)


def _stackable(values: list) -> bool:
    first = values[0]
    if not isinstance(first, (torch.Tensor, np.ndarray)):
        return False
    for v in values:
        if not isinstance(v, (torch.Tensor, np.ndarray)) or tuple(v.shape) != tuple(first.shape):
            return False
        if str(v.dtype).replace("torch.", "") != str(first.dtype).replace("torch.", ""):
            return False
    return True


def collate_samples(batch: Sequence[dict]) -> dict:
    """Batches sample dicts: tensors of one shape and type are stacked into a tensor (batch,
    bands, rows, cols) — numpy arrays (``as_tensor=False``) into a numpy array —, others kept
    as a list (the rows of a batch :class:`TacoIterableDataset` preallocated give that batch,
    not a copy); ``"metadata"`` becomes a dict column →
    tensor for numbers of one kind, else a list (missing keys and nulls give None, so
    samples with differing metadata types or columns batch fine). Other values: lists."""
    if not batch:
        return {}
    keys: list = []
    for sample in batch:
        for k in sample:
            if k not in keys:
                keys.append(k)
    out: dict = {}
    for k in keys:
        values = [s.get(k) for s in batch]
        if k == METADATA_KEY and all(isinstance(v, Mapping) for v in values):
            columns: list = []
            for v in values:
                for c in v:
                    if c not in columns:
                        columns.append(c)
            out[k] = {c: _collate_values([v.get(c) for v in values]) for c in columns}
        elif (whole := _rows_of_a_batch(values)) is not None:
            out[k] = whole
        elif _stackable(values):
            if all(isinstance(v, np.ndarray) for v in values):
                out[k] = np.stack(values)  # as_tensor=False: numpy stays numpy (uint16 too)
            else:
                out[k] = torch.stack([v if isinstance(v, torch.Tensor) else torch.from_numpy(v) for v in values])
        else:
            out[k] = values
    return out


def _batch_len(batch: Any, batch_size: int | None) -> int:
    if batch_size is None:  # no automatic batching: one sample per item
        return 1
    if isinstance(batch, Mapping):
        meta = batch.get(METADATA_KEY)
        if isinstance(meta, Mapping) and meta:
            first = next(iter(meta.values()))
            return len(first)
        for v in batch.values():
            if isinstance(v, (torch.Tensor, np.ndarray, list)):
                return len(v)
    return batch_size


class TacoDataLoader(_data.DataLoader):
    """A DataLoader with ``collate_fn=collate_samples`` by default that counts the samples it
    delivered this epoch, so that ``state_dict()`` of a :class:`TacoIterableDataset` is right
    with any number of workers. Every DataLoader argument is accepted. A
    :class:`TacoIterableDataset` gets this loader's ``batch_size`` (its workers split the rows
    in batch-sized chunks); one given another ``batch_size`` is refused.
    """

    def __init__(self, dataset, *args, **kwargs):
        batch_size = args[0] if args else kwargs.get("batch_size", 1)
        if isinstance(dataset, TacoIterableDataset):
            chunk = 1 if batch_size is None else int(batch_size)
            if dataset.batch_size_given and dataset.batch_size != chunk:
                raise InvalidArgumentError(
                    f"TacoIterableDataset batch_size={dataset.batch_size} but the TacoDataLoader's is "
                    f"{batch_size}: give both the same, or leave the dataset's out (the loader then sets it)")
            dataset.batch_size = chunk
            dataset._batch_size_from_loader = True
        if batch_size is not None:  # without batching, collate_fn sees single samples
            kwargs.setdefault("collate_fn", collate_samples)
        super().__init__(dataset, *args, **kwargs)
        self._delivered = 0

    def __iter__(self):
        ds = self.dataset
        start = ds._resume_offset(ds.epoch) if isinstance(ds, TacoIterableDataset) else 0
        self._delivered = start
        recycle = (isinstance(ds, TacoIterableDataset) and self.num_workers > 0 and self.batch_size is not None
                   and self.collate_fn is collate_samples)
        if recycle:
            ds._recycle = True  # seen by the workers this starts (persistent ones: the first time)
            try:
                batches = super().__iter__()
            finally:
                ds._recycle = False
            _MAPPED[ds._token] = [self.num_workers * ds._pool_limit(ds.batch_size), collections.OrderedDict()]
        else:
            batches = super().__iter__()
        try:
            for batch in batches:
                self._delivered += _batch_len(batch, self.batch_size)
                if recycle and isinstance(batch, dict):
                    for key, value in batch.items():
                        if isinstance(value, torch.Tensor):
                            batch[key] = _recycled(value, ds._token)
                yield batch
        finally:
            if recycle:
                _MAPPED.pop(ds._token, None)

    def state_dict(self) -> dict:
        """The dataset's ``state_dict`` with the samples this loader delivered this epoch."""
        if not isinstance(self.dataset, TacoIterableDataset):
            raise TypeError("state_dict() needs a TacoIterableDataset")
        return self.dataset.state_dict(self._delivered)

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Resume from a ``state_dict`` (see :meth:`TacoIterableDataset.load_state_dict`)."""
        if not isinstance(self.dataset, TacoIterableDataset):
            raise TypeError("load_state_dict() needs a TacoIterableDataset")
        self.dataset.load_state_dict(state)
        self._delivered = int(state["samples_seen"])
