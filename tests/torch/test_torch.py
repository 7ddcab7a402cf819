"""taco_cpp.torch: decoding, sharding, shuffling, resuming, workers (fork and spawn), bad input."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader

import taco_cpp as tc
from taco_cpp import _native
from taco_cpp.torch import (TacoDataLoader, TacoDataset, TacoIterableDataset, collate_samples, epoch_order)

from conftest import N_TILES, gdal_read, write_tif, zip_with_a_one_band_sample

TIMEOUT = 120  # seconds a DataLoader waits for a worker: a hang fails the test instead


def ids_of(batches) -> list[str]:
    out = []
    for b in batches:
        out.extend(b["metadata"]["id"])
    return out


# ---- decoding -------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["nested_zip", "nested_folder"])
def test_decoded_arrays_equal_gdal_on_loose_files(data, which):
    ds = TacoDataset(tc.load(getattr(data, which)), files=["image.tif", "mask.tif"], as_tensor=False)
    assert len(ds) == N_TILES
    for i in range(N_TILES):
        s = ds[i]
        assert set(s) == {"image.tif", "mask.tif", "metadata"}
        image, mask = gdal_read(data.image(i)), gdal_read(data.mask(i))
        assert s["image.tif"].dtype == np.uint16 and s["image.tif"].shape == (4, 32, 32)
        assert s["mask.tif"].dtype == np.uint8 and s["mask.tif"].shape == (1, 32, 32)
        np.testing.assert_array_equal(s["image.tif"], image)
        np.testing.assert_array_equal(s["mask.tif"], mask)
        md = s["metadata"]
        assert md["id"] == data.ids[i] and md["type"] == "FOLDER"
        assert md["count"] == i and md["cloud"] == i / 4
        assert md["note"] == (None if i % 2 else f"n{i}")
        assert not any(k.startswith("internal:") for k in md)


def test_tensors_widen_what_torch_lacks(data):
    ds = TacoDataset(data.nested_zip)  # files default: the first sample's FILE children
    assert ds.keys == ["image.tif", "mask.tif"]
    s = ds[-1]
    assert isinstance(s["image.tif"], torch.Tensor) and s["image.tif"].dtype == torch.int32
    assert s["mask.tif"].dtype == torch.uint8
    np.testing.assert_array_equal(s["image.tif"].numpy(), gdal_read(data.image(N_TILES - 1)).astype(np.int32))
    with pytest.raises(IndexError):
        ds[N_TILES]


def test_flat_dataset_decodes_the_row_itself(data):
    ds = TacoDataset(data.flat_zip, as_tensor=False)
    assert ds.keys == ["data"]
    s = ds[5]
    np.testing.assert_array_equal(s["data"], gdal_read(data.image(5)))
    assert s["metadata"]["index"] == 5


def test_views_after_sql_and_filters(data):
    view = tc.load(data.nested_zip).sql("SELECT * FROM data WHERE label = 'water' ORDER BY count DESC")
    ds = TacoDataset(view, files="mask.tif", as_tensor=False)
    expected = sorted((i for i in range(N_TILES) if i % 3 == 0), reverse=True)
    assert [ds.metadata(k)["count"] for k in range(len(ds))] == expected
    for k, i in enumerate(expected):
        np.testing.assert_array_equal(ds[k]["mask.tif"], gdal_read(data.mask(i)))


def test_band_and_window_reads(data):
    ds = TacoDataset(data.nested_zip, files=["image.tif", "mask.tif"], as_tensor=False,
                     bands={"image.tif": [2, 0]}, window=(3, 5, 10, 7))
    s = ds[4]
    full = gdal_read(data.image(4))
    assert s["image.tif"].shape == (2, 7, 10)
    np.testing.assert_array_equal(s["image.tif"], full[[2, 0], 5:12, 3:13])
    np.testing.assert_array_equal(s["mask.tif"], gdal_read(data.mask(4))[:, 5:12, 3:13])

    class Window:  # what rasterio.windows.Window looks like
        col_off, row_off, width, height = 30, 0, 2, 32

    one = TacoDataset(data.nested_folder, files=["image.tif"], bands=3, window=Window(), dtype="float32")[1]
    assert one["image.tif"].dtype == torch.float32 and one["image.tif"].shape == (1, 32, 2)
    np.testing.assert_array_equal(one["image.tif"].numpy(), gdal_read(data.image(1))[3:4, :, 30:32].astype(np.float32))


def test_a_batch_at_once_equals_one_by_one(data):
    ds = TacoDataset(data.nested_zip, files=["image.tif", "mask.tif"])
    batch = ds.__getitems__([5, 0, -1, 5])
    assert [s["metadata"]["id"] for s in batch] == [data.ids[5], data.ids[0], data.ids[-1], data.ids[5]]
    for s, i in zip(batch, [5, 0, N_TILES - 1, 5]):
        assert torch.equal(s["image.tif"], ds[i]["image.tif"]) and torch.equal(s["mask.tif"], ds[i]["mask.tif"])


def test_transform_is_applied(data):
    ds = TacoDataset(data.nested_zip, files=["mask.tif"], transform=lambda s: s["mask.tif"].sum().item())
    assert ds[2] == int(gdal_read(data.mask(2)).sum())


# ---- bad input: a clear TacoError in the main process ----------------------------------------

def test_bad_input_raises_in_the_main_process(data):
    with pytest.raises(tc.TacoError, match=r"sample 'tile_00' \(row 0\) has no file 'imge.tif' \(its files: "
                                           r"image.tif, mask.tif\)"):
        TacoDataset(data.nested_zip, files=["imge.tif"])
    with pytest.raises(tc.TacoError, match=r"'sensor_A' is a FOLDER, not a FILE \(its files: sensor_A/band.tif, "
                                           r"mask.tif\)"):
        TacoIterableDataset(data.deep_zip, files=["sensor_A"])
    with pytest.raises(tc.TacoError, match=r"file 'mask.tif': band 1 is out of range \(the raster has 1 band: 0"):
        TacoDataset(data.nested_zip, files=["image.tif", "mask.tif"], bands=[1])
    with pytest.raises(tc.TacoError, match=r"window .* is not inside the raster \(32 x 32 pixels\)"):
        TacoDataset(data.nested_zip, files=["image.tif"], window=(30, 0, 8, 8))
    with pytest.raises(tc.TacoError, match="give at least one file name"):
        TacoDataset(data.nested_zip, files=[])
    with pytest.raises(tc.TacoError, match="is a FILE: it has no file 'x.tif' below it"):
        TacoDataset(data.flat_zip, files=["x.tif"])
    with pytest.raises(tc.TacoError, match="pixel type 'uint7'"):
        TacoDataset(data.nested_zip, files=["mask.tif"], dtype="uint7")
    with pytest.raises(tc.TacoError, match="no file named 'other.tif' is decoded"):
        TacoDataset(data.nested_zip, files=["mask.tif"], bands={"other.tif": [0]})
    # deeper files are named by their path below the sample
    deep = TacoDataset(data.deep_zip, files=["sensor_A/band.tif"], as_tensor=False)
    np.testing.assert_array_equal(deep[3]["sensor_A/band.tif"], gdal_read(data.image(3)))


@pytest.mark.parametrize("workers", [0, 2])
def test_a_later_bad_sample_raises_in_the_main_process_not_a_hang(data, tmp_path, workers):
    # 6 samples; the 5th has a 1-band image, so bands=[3] fails there only (not at set-up).
    out = zip_with_a_one_band_sample(data, tmp_path, 6, 4)
    ds = TacoIterableDataset(out, files=["image.tif"], bands=[3], shuffle=False)
    loader = TacoDataLoader(ds, batch_size=1, num_workers=workers, timeout=TIMEOUT if workers else 0)
    with pytest.raises(tc.TacoError, match=r"sample 's4' \(row 4\), file 'image.tif': band 3 is out of range"):
        list(loader)


# ---- epochs, order, sharding ------------------------------------------------------------------

@pytest.mark.parametrize("workers", [0, 1, 2])
def test_every_sample_exactly_once_per_epoch(data, workers):
    ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=3, batch_size=4)
    loader = TacoDataLoader(ds, batch_size=4, num_workers=workers, timeout=TIMEOUT if workers else 0)
    ds.set_epoch(1)
    seen = ids_of(loader)
    assert sorted(seen) == data.ids  # all of them, none twice
    # batch-sized chunks per worker: the DataLoader delivers the rank's order whatever the workers
    order = epoch_order(N_TILES, 3, 1)
    assert seen == [data.ids[i] for i in order]


def test_same_seed_same_order_other_epoch_other_order(data):
    a = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=11)
    b = TacoIterableDataset(tc.load(data.nested_zip), files=["mask.tif"], seed=11)
    first = [s["metadata"]["id"] for s in a]
    assert first == [s["metadata"]["id"] for s in b]
    a.set_epoch(1)
    second = [s["metadata"]["id"] for s in a]
    assert sorted(second) == sorted(first) and second != first
    c = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=12)
    assert [s["metadata"]["id"] for s in c] != first
    plain = TacoIterableDataset(data.nested_zip, files=["mask.tif"], shuffle=False)
    assert [s["metadata"]["id"] for s in plain] == data.ids


def test_ranks_split_without_overlap_and_even_options(data):
    n = N_TILES + 1  # 25 rows over 3 ranks: 9, 8, 8
    assert epoch_order(n, 0, 0).tolist() != list(range(n))
    per_rank = {}
    for rank in range(3):
        ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], rank=rank, world_size=3, seed=5)
        per_rank[rank] = [s["metadata"]["id"] for s in ds]
        assert len(per_rank[rank]) == len(ds)
    all_ids = [i for ids in per_rank.values() for i in ids]
    assert sorted(all_ids) == data.ids and len(set(all_ids)) == N_TILES
    assert [len(v) for v in per_rank.values()] == [8, 8, 8]  # 24 rows: even already

    def lengths(**kw):
        out = []
        for rank in range(5):
            ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], rank=rank, world_size=5, **kw)
            out.append([s["metadata"]["id"] for s in ds])
        return out

    exact = lengths()
    assert sorted(len(x) for x in exact) == [4, 5, 5, 5, 5]
    dropped = lengths(drop_last=True)
    assert [len(x) for x in dropped] == [4] * 5 and len({i for x in dropped for i in x}) == 20
    padded = lengths(pad=True)
    assert [len(x) for x in padded] == [5] * 5 and {i for x in padded for i in x} == set(data.ids)
    with pytest.raises(tc.TacoError, match="drop_last and pad"):
        TacoIterableDataset(data.nested_zip, files=["mask.tif"], drop_last=True, pad=True)
    with pytest.raises(tc.TacoError, match="rank 3 is not in"):
        TacoIterableDataset(data.nested_zip, files=["mask.tif"], rank=3, world_size=3)


# ---- resuming ---------------------------------------------------------------------------------

def test_resume_without_workers_continues_at_the_next_sample(data):
    ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=2)
    ds.set_epoch(4)
    full = [s["metadata"]["id"] for s in ds]
    it = iter(ds)
    k = 7
    head = [next(it)["metadata"]["id"] for _ in range(k)]
    state = ds.state_dict()
    assert state["epoch"] == 4 and state["samples_seen"] == k
    fresh = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=2)
    fresh.load_state_dict(state)
    rest = [s["metadata"]["id"] for s in fresh]
    assert head + rest == full and rest[0] == full[k]
    assert fresh.state_dict()["samples_seen"] == N_TILES
    fresh.set_epoch(5)  # the next epoch starts from its beginning
    assert len([s for s in fresh]) == N_TILES
    with pytest.raises(tc.TacoError, match="num_rows"):
        TacoIterableDataset(tc.load(data.nested_zip).sql("SELECT * FROM data LIMIT 5"), files=["mask.tif"],
                            seed=2).load_state_dict(state)


def test_resume_with_workers_through_the_loader_count(data):
    def make():
        ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=9, batch_size=3)
        return ds, TacoDataLoader(ds, batch_size=3, num_workers=2, timeout=TIMEOUT)

    ds, loader = make()
    full = ids_of(loader)
    head = []
    for n, batch in enumerate(loader):
        head.extend(batch["metadata"]["id"])
        if n == 2:
            break
    state = loader.state_dict()
    assert state["samples_seen"] == 9
    ds2, loader2 = make()
    loader2.load_state_dict(state)
    rest = ids_of(loader2)
    assert head + rest == full


def test_resume_counts_single_samples_without_batching(data):
    ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=3)
    loader = TacoDataLoader(ds, batch_size=None)
    it = iter(loader)
    head = [next(it)["metadata"]["id"] for _ in range(5)]
    state = loader.state_dict()
    assert state["samples_seen"] == 5
    ds2 = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=3)
    ds2.load_state_dict(state)
    assert head + [s["metadata"]["id"] for s in ds2] == [data.ids[i] for i in epoch_order(N_TILES, 3, 0)]


def test_persistent_workers_follow_set_epoch(data):
    ds = TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=1, batch_size=2)
    loader = TacoDataLoader(ds, batch_size=2, num_workers=2, persistent_workers=True, pin_memory=True,
                            timeout=TIMEOUT)
    for epoch in (0, 1, 2):
        ds.set_epoch(epoch)
        assert ids_of(loader) == [data.ids[i] for i in epoch_order(N_TILES, 1, epoch)]


# ---- workers: fork and spawn, pin_memory, collate --------------------------------------------

@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_map_style_with_workers(data, context):
    ds = TacoDataset(tc.load(data.nested_zip).sql("SELECT * FROM data WHERE count < 12"), files=["image.tif"])
    workers = 2 if context == "fork" else 1  # a spawned worker imports torch again: seconds each
    loader = DataLoader(ds, batch_size=5, num_workers=workers, multiprocessing_context=context,
                        collate_fn=collate_samples, pin_memory=True, timeout=TIMEOUT)
    batches = list(loader)
    assert ids_of(batches) == data.ids[:12]
    assert batches[0]["image.tif"].shape == (5, 4, 32, 32) and batches[0]["image.tif"].dtype == torch.int32
    np.testing.assert_array_equal(batches[1]["image.tif"][0].numpy(), gdal_read(data.image(5)).astype(np.int32))


def test_iterable_under_spawn(data):
    ds = TacoIterableDataset(data.nested_folder, files=["mask.tif"], seed=4, batch_size=2)
    ds.set_epoch(2)
    loader = TacoDataLoader(ds, batch_size=2, num_workers=2, multiprocessing_context="spawn", timeout=TIMEOUT)
    assert ids_of(loader) == [data.ids[i] for i in epoch_order(N_TILES, 4, 2)]


def test_collate_handles_differing_metadata_types():
    batch = collate_samples([
        {"x": torch.zeros(2, 3), "metadata": {"id": "a", "n": 1, "f": 1.5, "maybe": None, "only_a": True}},
        {"x": torch.ones(2, 3), "metadata": {"id": "b", "n": 2, "f": 2, "maybe": 3}},
        {"x": np.ones((2, 3), np.float32), "metadata": {"id": "c", "n": 3, "f": 0.5, "maybe": "t"}},
    ])
    assert batch["x"].shape == (3, 2, 3)
    md = batch["metadata"]
    assert md["id"] == ["a", "b", "c"]
    assert md["n"].dtype == torch.int64 and md["n"].tolist() == [1, 2, 3]
    assert md["f"].dtype == torch.float64 and md["f"].tolist() == [1.5, 2.0, 0.5]
    assert md["maybe"] == [None, 3, "t"] and md["only_a"] == [True, None, None]
    ragged = collate_samples([{"x": torch.zeros(1, 2)}, {"x": torch.zeros(1, 3)}])
    assert isinstance(ragged["x"], list) and len(ragged["x"]) == 2


# ---- read-ahead ---------------------------------------------------------------------------------

def test_read_ahead_keeps_its_memory_budget(data):
    ds = TacoDataset(data.nested_zip, files=["image.tif", "mask.tif"], as_tensor=False)
    plan = ds.source.plan()
    decoder = _native.make_decoder(plan, ds.source._selections, True)
    per_sample = 4 * 32 * 32 * 2 + 32 * 32
    rows = list(range(N_TILES))[::-1]
    budget = 3 * per_sample
    q = decoder.read_ahead(rows, 2, budget, 64)
    got = []
    import time

    while True:
        time.sleep(0.01)  # a slow consumer: the threads run ahead until the budget stops them
        item = q.next()
        if item is None:
            break
        got.append(item[0])
    assert got == rows
    # at most the budget plus one sample per thread
    assert per_sample <= q.peak_held_bytes <= budget + 2 * per_sample
    assert q.held_bytes == 0
    q.close()
    unbounded = decoder.read_ahead(rows, 2, 1 << 30, 64)
    deadline = time.time() + 30
    while unbounded.held_bytes <= budget + 2 * per_sample and time.time() < deadline:
        time.sleep(0.01)
    assert unbounded.held_bytes > budget + 2 * per_sample  # without a budget they run further
    unbounded.close()


def test_gil_is_released_while_decoding(tmp_path):
    """While the main thread is inside ONE native decode call, another Python thread runs:
    impossible if the call held the GIL (a C call holding it is never interrupted)."""
    import threading

    big = tmp_path / "big.tif"
    rng = np.random.default_rng(1)
    write_tif(big, rng.integers(0, 60000, size=(2, 2048, 2048), dtype=np.uint16), 0, 0)
    out = tmp_path / "big.tacozip"
    tc.create(tc.Taco(tc.Tortilla([tc.Sample("big.tif", big)]), id="big", dataset_version="1", description="d",
                      licenses=["MIT"], providers=[{"name": "t"}], tasks=["classification"]), out)
    ds = TacoDataset(out, as_tensor=False)
    decoder = _native.make_decoder(ds.source.plan(), ds.source._selections, True)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        before = len(ticks)
        decoder.decode(0)  # tens of milliseconds: 2 x 2048 x 2048 DEFLATE pixels
        during = len(ticks) - before
    finally:
        done.set()
        t.join()
    assert during >= 3


# ---- upstream offsets: the ZIP's own headers win ----------------------------------------------

def test_wrong_consolidated_offsets_are_caught_by_archive_path(data, tmp_path):
    """tacotoolbox writes level-1 offsets shifted to other rows when ids are not sorted
    (FORMAT §1.5). A .tacocat whose level1 table has rotated offsets must still decode each
    sample's own files: the level views take each range from the part's central directory by
    archive path (read/member_resolver.h)."""
    import shutil

    import pyarrow.parquet as pq

    part = tmp_path / "p.tacozip"
    shutil.copy(data.nested_zip, part)
    tc.tacocat([part], tmp_path)
    level1 = next(p for p in (tmp_path / ".tacocat").iterdir() if "level1" in p.name)
    table = pq.read_table(level1)
    names = table.column_names
    offsets = table.column("internal:offset").to_pylist()
    sizes = table.column("internal:size").to_pylist()
    rot = 2  # every row points at the member two rows further on
    cols = {n: table.column(n) for n in names}
    cols["internal:offset"] = offsets[rot:] + offsets[:rot]
    cols["internal:size"] = sizes[rot:] + sizes[:rot]
    import pyarrow as pa

    pq.write_table(pa.table({n: pa.array(cols[n], type=table.schema.field(n).type) if isinstance(cols[n], list)
                             else cols[n] for n in names}), level1)
    ds = TacoDataset(tc.load(tmp_path / ".tacocat"), files=["image.tif", "mask.tif"], as_tensor=False)
    loc = ds.source.plan().location(0, 0)
    assert loc[1] == offsets[0]  # the member's own range: looked up by archive path, not the stored one
    for i in range(N_TILES):
        s = ds[i]
        np.testing.assert_array_equal(s["image.tif"], gdal_read(data.image(i)))
        np.testing.assert_array_equal(s["mask.tif"], gdal_read(data.mask(i)))
    # The plan's ranges are right, so even a decoder without the navigation fallback reads them.
    no_fallback = _native.make_decoder(ds.source.plan(), ds.source._selections, False)
    no_fallback.decode(0)


# ---- pickling --------------------------------------------------------------------------------

def test_views_and_samples_pickle(data):
    import pickle

    view = tc.load(data.nested_zip).sql("SELECT * FROM data WHERE count > 20").sql("SELECT * FROM data ORDER BY id DESC")
    copy = pickle.loads(pickle.dumps(view))
    assert copy.data.column("id").to_pylist() == ["tile_23", "tile_22", "tile_21"]
    s = tc.Sample("t", tc.Tortilla([tc.Sample("image.tif", data.image(0), band_count=4),
                                    tc.Sample("note", data=b"abc")], pad_to=3, strict_schema=False), label="x")
    s2 = pickle.loads(pickle.dumps(s))
    assert s2.id == "t" and s2.fields == {"label": "x"}
    kids = s2.children.samples
    assert [k.id for k in kids] == ["image.tif", "note", "__TACOPAD__0"]
    assert kids[0].fields == {"band_count": 4} and kids[1].fields == {"band_count": None}
    assert kids[1].size_bytes == 3 and kids[0].path == str(data.image(0))
    assert pickle.loads(pickle.dumps(s.children)).schema() == s.children.schema()
