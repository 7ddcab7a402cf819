"""Work that outgrows one machine, on a Dask cluster (``dask.distributed``).

* :func:`create_parts` — write a dataset as TACO ZIP parts in parallel on the workers (each
  a normal ``taco_cpp.create``), then consolidate them into ``<out_dir>/.tacocat/`` on the
  client. The result has the same rows, in the same order, as one ``create`` of the same
  samples.
* :func:`map_samples` — run a function over the samples of a view on the cluster (e.g. to
  compute statistics); each worker opens the dataset itself (views pickle as their recipe)
  and decodes its samples in C++ like :mod:`taco_cpp.torch`.

Workers must see the same files as the client (a shared or network file system, or URLs)
and import ``taco_cpp``. ``client=None`` uses the current ``distributed`` client when there
is one, else Dask's default scheduler.
"""

from __future__ import annotations

import math
import os
import shutil
import uuid
from typing import Any, Callable, Mapping, Sequence

from ._convert import path_text
from ._samples import METADATA_KEY, SampleSource
from .errors import AlreadyExistsError, InvalidArgumentError
from .reader import TacoDataset, load
from .writer import Sample, Taco, Tortilla, create, tacocat

__all__ = ["create_parts", "map_samples"]


def _client(client):
    if client is not None:
        return client
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None


def _compute(tasks: list, client) -> list:
    import dask

    client = _client(client)
    if client is not None:
        return client.gather(client.compute(tasks))
    return list(dask.compute(*tasks))


def _write_part(samples: Sequence[Sample], staging: str, name: str, collection: Mapping, strict_schema: bool,
                split_size) -> tuple[list[str], list[str]]:
    """One part (on a worker): ``create`` of these samples; returns (paths written, ids)."""
    samples = list(samples)
    for s in samples:
        if not isinstance(s, Sample):
            raise TypeError(f"create_parts takes taco_cpp.Sample objects, got {type(s).__name__}")
    if not samples:
        return [], []
    taco = Taco(Tortilla(samples, strict_schema=strict_schema), dict(collection))
    paths = create(taco, os.path.join(staging, name + ".tacozip"), format="zip", split_size=split_size,
                   consolidate=False)
    return list(paths), [s.id for s in samples]


def _write_partition(samples: Sequence[Sample], staging: str, index: int, part_size: int, collection: Mapping,
                     strict_schema: bool, split_size) -> list[tuple[list[str], list[str]]]:
    samples = list(samples)
    out = []
    for k, start in enumerate(range(0, len(samples), part_size)):
        out.append(_write_part(samples[start: start + part_size], staging, f"part-{index:05d}-{k:04d}", collection,
                               strict_schema, split_size))
    return out


def create_parts(samples, out_dir, collection: Mapping, *, part_size: int = 1000, client=None,
                 strict_schema: bool = True, split_size=None) -> str:
    """Write ``samples`` (a list of :class:`taco_cpp.Sample`, or a ``dask.bag.Bag`` of them,
    e.g. ``db.from_sequence(paths).map(make_sample)`` so that samples are made on the
    workers) as TACO ZIP parts of at most ``part_size`` samples into ``out_dir``, in
    parallel, then ``tacocat`` them into ``out_dir/.tacocat/``; returns that path.

    ``collection``: the COLLECTION.json fields (id, dataset_version, description, licenses,
    providers, tasks, ...), the same for every part (extents are merged by the consolidation).
    A list is cut in order; a bag gives parts per partition, in partition order. Sample ids
    must be unique over all parts (checked before consolidating). ``out_dir`` must be new or
    empty; parts are written under a temporary directory and moved in at the end, so a failed
    run leaves nothing behind. ``split_size``: as ``create`` (a part larger than it is cut).
    """
    part_size = int(part_size)
    if part_size < 1:
        raise InvalidArgumentError(f"part_size must be >= 1, got {part_size}")
    if not isinstance(collection, Mapping):
        raise TypeError(f"collection is a mapping of COLLECTION.json fields, got {type(collection).__name__}")
    out = os.path.abspath(path_text(out_dir))
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise AlreadyExistsError(f"{out}: create_parts needs a new or empty directory")
    os.makedirs(out, exist_ok=True)
    staging = os.path.join(out, f".taco-parts-{uuid.uuid4().hex[:12]}")
    os.makedirs(staging)
    collection = dict(collection)
    try:
        import dask

        try:
            import dask.bag as db
        except ImportError:  # pragma: no cover - dask without its bag module
            db = None
        if db is not None and isinstance(samples, db.Bag):
            parts = samples.to_delayed()
            tasks = [dask.delayed(_write_partition)(p, staging, i, part_size, collection, strict_schema, split_size)
                     for i, p in enumerate(parts)]
            results = [r for partition in _compute(tasks, client) for r in partition]
        else:
            samples = list(samples)
            if not samples:
                raise InvalidArgumentError("create_parts: no samples")
            tasks = [dask.delayed(_write_part)(samples[s: s + part_size], staging, f"part-{i:05d}", collection,
                                               strict_schema, split_size)
                     for i, s in enumerate(range(0, len(samples), part_size))]
            results = _compute(tasks, client)
        seen: dict[str, str] = {}
        written: list[str] = []
        for paths, ids in results:
            if not paths:
                continue
            for sample_id in ids:
                if sample_id in seen:
                    raise InvalidArgumentError(
                        f"create_parts: sample id {sample_id!r} is in two parts ({os.path.basename(seen[sample_id])} "
                        f"and {os.path.basename(paths[0])}); ids must be unique")
                seen[sample_id] = paths[0]
            written.extend(paths)
        if not written:
            raise InvalidArgumentError("create_parts: no samples")
        final = []
        for p in written:
            target = os.path.join(out, os.path.basename(p))
            os.replace(p, target)
            final.append(target)
        try:
            return tacocat(final, out)
        except BaseException:
            for p in final:
                os.remove(p)
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _map_chunk(source: SampleSource, rows: Sequence[int], fn: Callable[[dict], Any], threads: int) -> list:
    out = []
    for row, arrays in source.read_ahead(rows, threads):
        arrays[METADATA_KEY] = source.metadata(row)
        out.append(fn(arrays))
    return out


def map_samples(ds, fn: Callable[[dict], Any], *, files=None, bands=None, window=None, dtype=None,
                chunk_size: int | None = None, client=None, threads: int = 1) -> list:
    """``[fn(sample) for sample in ds]`` on the cluster, in the view's order. ``ds``: a view
    (after ``sql``/``filter_*``) or a path/URL. Each sample is the dict
    ``taco_cpp.torch.TacoDataset(ds, files, bands, window, as_tensor=False)[i]`` gives: numpy
    arrays per decoded file and ``"metadata"`` (``files=[]`` is not allowed; to get only the
    metadata, map over ``ds.data`` instead). Rows go to the workers in chunks of
    ``chunk_size`` (default: about 4 chunks per worker thread); each worker opens the dataset
    itself and decodes with ``threads`` read-ahead threads. ``fn`` must be picklable
    (cloudpickle: lambdas and closures are fine)."""
    import dask

    view = ds if isinstance(ds, TacoDataset) else load(ds)
    source = SampleSource(view, files, bands, window, dtype)
    n = len(source)
    if n == 0:
        return []
    if chunk_size is None:
        c = _client(client)
        slots = 4
        if c is not None:
            try:
                slots = 4 * max(1, sum(c.nthreads().values()))
            except Exception:  # noqa: BLE001 - any client without nthreads()
                slots = 4
        chunk_size = max(1, math.ceil(n / slots))
    chunk_size = int(chunk_size)
    if chunk_size < 1:
        raise InvalidArgumentError(f"chunk_size must be >= 1, got {chunk_size}")
    shared = dask.delayed(source, traverse=False)
    tasks = [dask.delayed(_map_chunk)(shared, list(range(s, min(n, s + chunk_size))), fn, int(threads))
             for s in range(0, n, chunk_size)]
    return [r for chunk in _compute(tasks, client) for r in chunk]
