"""taco_cpp.torch: decoding straight into preallocated batches (issue 24, item 11).

TacoIterableDataset(preallocate=True, the default) has its C++ read-ahead threads decode each
sample into a slot of its batch's tensor (shared memory inside a DataLoader worker), and
collate_samples hands that tensor over instead of stacking copies. These tests check that the
batches are identical to the per-sample path (preallocate=False) for several dtypes, bands,
windows, batch sizes and worker counts; that the batch really is the preallocated (shared)
tensor; that odd samples, errors, early exits and foreign tensors behave as before.
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest
import torch

import taco_cpp as tc
from taco_cpp.torch import TacoDataLoader, TacoIterableDataset, collate_samples

from conftest import N_TILES, write_tif, zip_with_a_one_band_sample

TIMEOUT = 120

CASES = {
    "default types": dict(files=["image.tif", "mask.tif"]),
    "float32, bands, window": dict(files=["image.tif", "mask.tif"], dtype="float32", bands={"image.tif": [3, 1]},
                                   window=(2, 5, 17, 9)),
    "per-file types": dict(files=["image.tif", "mask.tif"], dtype={"image.tif": "float64", "mask.tif": "int16"}),
    "narrowed uint8": dict(files=["image.tif"], dtype="uint8", allow_narrowing=True, bands=[0]),
    "float16 (converted after)": dict(files=["image.tif", "mask.tif"], dtype={"image.tif": "float16"}),
    "numpy uint16": dict(files=["image.tif", "mask.tif"], as_tensor=False),
    "one batch ahead (tiny budget)": dict(files=["image.tif", "mask.tif"], memory_budget=1, max_ahead=1),
}


def batches(path, workers: int, batch: int, preallocate: bool, **kw) -> list[dict]:
    ds = TacoIterableDataset(path, seed=4, preallocate=preallocate, **kw)
    ds.set_epoch(2)
    loader = TacoDataLoader(ds, batch_size=batch, num_workers=workers, timeout=TIMEOUT if workers else 0)
    return list(loader)


def assert_same_batches(a: list[dict], b: list[dict]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert list(x) == list(y)
        assert x["metadata"]["id"] == y["metadata"]["id"]
        for key in x:
            if key == "metadata":
                continue
            u, v = x[key], y[key]
            assert type(u) is type(v), key
            if isinstance(u, list):
                assert len(u) == len(v) and all(np.array_equal(np.asarray(p), np.asarray(q)) for p, q in zip(u, v))
                continue
            assert u.dtype == v.dtype and tuple(u.shape) == tuple(v.shape), key
            if isinstance(u, torch.Tensor):
                assert torch.equal(u, v), key
            else:
                np.testing.assert_array_equal(u, v)


# Every case without workers (batch 5: a short last batch); the whole epoch as one batch; and
# with 2 workers (shared memory) for the cases that differ in what is decoded.
RUNS = ([(case, 0, 5) for case in CASES] + [("default types", 0, 24)]
        + [(case, 2, 4) for case in ("default types", "float32, bands, window", "numpy uint16")])


@pytest.mark.parametrize("case,workers,batch", RUNS)
def test_preallocated_batches_equal_the_per_sample_path(data, case, workers, batch):
    kw = CASES[case]
    new = batches(data.nested_zip, workers, batch, True, **kw)
    old = batches(data.nested_zip, workers, batch, False, **kw)
    assert sorted(i for b in new for i in b["metadata"]["id"]) == data.ids
    assert_same_batches(new, old)


def test_flat_and_folder_datasets(data):
    for path in (data.flat_zip, data.nested_folder):
        assert_same_batches(batches(path, 0, 7, True), batches(path, 0, 7, False))


def _collate_and_report(samples):
    from taco_cpp.torch import _ours

    out = collate_samples(samples)
    image = out["image.tif"]
    # where the batch was made (a worker): is it the preallocated, shared-memory tensor?
    out["ours"] = bool(_ours(image)) and image.is_shared()
    return out


@pytest.mark.parametrize("workers", [0, 2])
def test_the_batch_is_the_preallocated_tensor_not_a_copy(data, workers):
    ds = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], batch_size=6)
    loader = TacoDataLoader(ds, batch_size=6, num_workers=workers, collate_fn=_collate_and_report,
                            timeout=TIMEOUT if workers else 0)
    out = list(loader)
    assert len(out) == N_TILES // 6
    if workers:
        assert all(b["ours"] for b in out)  # decoded into shared memory: the batch crossed without a copy
    else:
        from taco_cpp.torch import _ours

        assert all(_ours(b["image.tif"]) and _ours(b["mask.tif"]) for b in out)
    # the per-sample path stacks copies
    ds_old = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], batch_size=6, preallocate=False)
    old = list(TacoDataLoader(ds_old, batch_size=6, num_workers=workers, collate_fn=_collate_and_report,
                              timeout=TIMEOUT if workers else 0))
    assert not any(b["ours"] for b in old)


def test_samples_are_views_of_their_batch(data):
    ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], shuffle=False, batch_size=8)
    samples = list(ds)
    assert len(samples) == N_TILES
    first = samples[0]["mask.tif"]
    assert first._base is not None and tuple(first._base.shape) == (8, 1, 32, 32)
    assert all(s["mask.tif"]._base is first._base for s in samples[:8])
    assert samples[8]["mask.tif"]._base is not first._base
    off = TacoIterableDataset(data.nested_zip, files=["mask.tif"], shuffle=False, batch_size=8, preallocate=False)
    assert all(s["mask.tif"]._base is None for s in off)


def test_a_sample_of_another_shape_gets_its_own_tensor(data, tmp_path):
    samples = []
    for i in range(7):
        path = data.image(i)
        if i == 3:  # smaller than the first sample: no slot fits it
            path = tmp_path / "small.tif"
            write_tif(path, np.arange(4 * 16 * 16, dtype=np.uint16).reshape(4, 16, 16), 0, 0)
        samples.append(tc.Sample(f"s{i}", tc.Tortilla([tc.Sample("image.tif", path)])))
    out = tmp_path / "mixed.tacozip"
    tc.create(tc.Taco(tc.Tortilla(samples), id="mixed", dataset_version="1", description="d", licenses=["MIT"],
                      providers=[{"name": "t"}], tasks=["classification"]), out)
    for workers in (0, 2):
        new = batches(out, workers, 3, True, files=["image.tif"], shuffle=False)
        old = batches(out, workers, 3, False, files=["image.tif"], shuffle=False)
        assert_same_batches(new, old)
        assert isinstance(new[1]["image.tif"], list)  # s3..s5: shapes differ, not stacked
        assert tuple(new[1]["image.tif"][0].shape) == (4, 16, 16)
        assert torch.equal(new[1]["image.tif"][0], torch.arange(4 * 16 * 16, dtype=torch.int32).reshape(4, 16, 16))


@pytest.mark.parametrize("workers", [0, 2])
def test_an_error_arrives_with_its_sample(data, tmp_path, workers):
    out = zip_with_a_one_band_sample(data, tmp_path, 8, 5)
    ds = TacoIterableDataset(out, files=["image.tif"], bands=[3], shuffle=False)
    loader = TacoDataLoader(ds, batch_size=2, num_workers=workers, timeout=TIMEOUT if workers else 0)
    got = []
    with pytest.raises(tc.TacoError, match=r"sample 's5' \(row 5\), file 'image.tif': band 3 is out of range"):
        for b in loader:
            got.extend(b["metadata"]["id"])
    assert got == ["s0", "s1", "s2", "s3"]


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def test_breaking_out_and_dropping_the_loader_leaves_no_thread(data):
    ds = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], batch_size=4, read_ahead_threads=2)
    assert len(list(TacoDataLoader(ds, batch_size=4))) == N_TILES // 4  # pyarrow, jemalloc: their threads start once
    gc.collect()  # earlier tests' iterators
    before = _threads()
    for _ in range(3):
        for b in TacoDataLoader(ds, batch_size=4):
            assert b["image.tif"].shape == (4, 4, 32, 32)
            break
        it = iter(ds)
        next(it)
        assert _threads() >= before + 2  # the read-ahead threads of `it`
        del it, b
        gc.collect()
    assert _threads() == before


def test_foreign_views_are_still_copied():
    big = torch.arange(3 * 2 * 4, dtype=torch.int32).reshape(3, 2, 4)
    out = collate_samples([{"x": big[0]}, {"x": big[1]}, {"x": big[2]}])["x"]
    assert torch.equal(out, big) and out.data_ptr() != big.data_ptr()
    arr = np.arange(12).reshape(3, 4)
    got = collate_samples([{"x": arr[0]}, {"x": arr[1]}, {"x": arr[2]}])["x"]
    assert np.array_equal(got, arr) and not np.shares_memory(got, arr)


# ---- recycled batch buffers (workers under TacoDataLoader) -----------------------------------

def _watch_generations(monkeypatch) -> list:
    """Records, for every batch tensor TacoDataLoader receives, the generation of its buffer
    (0: not a recycled buffer; 1: a new one; > 1: a buffer reused after its release)."""
    import taco_cpp.torch as tt

    seen = []
    original = tt._recycled

    def watch(tensor, token):
        trailer = tt._trailer_of(tensor, token)
        seen.append(0 if trailer is None else int(trailer[1]))
        return original(tensor, token)

    monkeypatch.setattr(tt, "_recycled", watch)
    return seen


def _expected(path, batch: int, **kw) -> list[dict]:
    return batches(path, 0, batch, False, files=["image.tif", "mask.tif"], **kw)


def test_workers_reuse_released_buffers_and_batches_stay_right(data, monkeypatch):
    seen = _watch_generations(monkeypatch)
    expected = _expected(data.nested_zip, 2)
    ds = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], seed=4, preallocate=True)
    ds.set_epoch(2)
    from taco_cpp.torch import _MAPPED

    n, mapped = 0, 0
    for got, want in zip(TacoDataLoader(ds, batch_size=2, num_workers=2, timeout=TIMEOUT), expected):
        assert_same_batches([got], [want])  # then the batch is dropped: its buffers go back to their worker
        assert not got["image.tif"].is_shared()  # handed out as a tensor whose end releases the buffer
        n += 1
        mapped = max(mapped, len(_MAPPED[ds._token][1]))  # released buffers whose mapping is kept
    assert n == len(expected) == N_TILES // 2
    assert min(seen) >= 1 and max(seen) > 1  # every batch in a recycled buffer, some of them reused
    assert 0 < mapped <= 2 * ds._pool_limit(2)  # at most what the 2 workers keep
    gc.collect()
    assert ds._token not in _MAPPED  # the loop's end drops the kept mappings


def test_kept_batches_and_views_are_never_overwritten(data, monkeypatch):
    seen = _watch_generations(monkeypatch)
    expected = _expected(data.nested_zip, 2)
    ds = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], seed=4)
    ds.set_epoch(2)
    kept = []  # (batch number, key, what was kept, the part of the batch it must equal)

    def over_storage(t):  # a tensor over the same memory that is no view of it (no _base)
        return torch.empty(0, dtype=t.dtype).set_(t.storage())[:t.numel()].view(t.shape)

    for i, got in enumerate(TacoDataLoader(ds, batch_size=2, num_workers=2, timeout=TIMEOUT)):
        if i % 4 == 1:
            kept += [(i, k, got[k], slice(None)) for k in ("image.tif", "mask.tif")]
        elif i % 4 == 3:
            kept.append((i, "image.tif", got["image.tif"][1], 1))  # the mask's buffer may be reused
        else:
            kept += [(i, k, over_storage(got[k]), slice(None)) for k in ("image.tif", "mask.tif")]
        del got
        gc.collect()
    assert len(seen) == 2 * len(expected)
    for i, key, tensor, part in kept:
        assert torch.equal(tensor, expected[i][key][part]), (i, key)


@pytest.mark.parametrize("how", ["DataLoader", "collate_fn", "transform"])
def test_no_recycling_where_user_code_may_hold_the_buffers(data, monkeypatch, how):
    seen = _watch_generations(monkeypatch)
    kw = dict(transform=lambda s: s) if how == "transform" else {}
    ds = TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], seed=4, batch_size=2, **kw)
    ds.set_epoch(2)
    if how == "DataLoader":
        loader = torch.utils.data.DataLoader(ds, batch_size=2, num_workers=2, collate_fn=collate_samples,
                                             timeout=TIMEOUT)
    else:
        collate = (lambda b: collate_samples(b)) if how == "collate_fn" else collate_samples
        loader = TacoDataLoader(ds, batch_size=2, num_workers=2, collate_fn=collate, timeout=TIMEOUT)
    out = list(loader)
    assert_same_batches(out, _expected(data.nested_zip, 2))
    from taco_cpp.torch import _trailer_of

    # shared memory as before, not a recycled buffer
    assert all(b["image.tif"].is_shared() and _trailer_of(b["image.tif"], ds._token) is None for b in out)
    assert all(g == 0 for g in seen)
