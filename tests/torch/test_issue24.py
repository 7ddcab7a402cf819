"""Issue 24: nothing silently wrong, nothing surprising in the Python and torch layers.

Each test names the item of issue 24 it covers; each fails on the code before the fix.
"""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
import torch

import taco_cpp as tc
import taco_cpp.torch as tt

from conftest import N_TILES


# ---- item 2: a non-deterministic view is one fixed set of rows ---------------------------

RANDOM_QUERIES = [
    "SELECT * FROM data ORDER BY random() LIMIT 10",
    "SELECT * FROM data USING SAMPLE 10 ROWS",
    "SELECT *, random() AS r FROM data",
]


@pytest.mark.parametrize("query", RANDOM_QUERIES)
def test_random_view_is_evaluated_once(data, query):
    ds = tc.load(data.nested_zip)
    view = ds.sql(query)
    first = view.data_raw
    ids = first.column("id").to_pylist()
    for _ in range(3):
        assert view.data_raw.equals(first)
        assert len(view) == len(ids)
    # Navigation, the statistics, the torch plan and export all see those rows.
    for i in (0, len(ids) - 1):
        assert view.read_bytes(i, "image.tif") == data.image(data.ids.index(ids[i])).read_bytes()
    stats = view.stats_mean(0, level=1, file="image.tif", method="exact")
    by_id = ds.sql("SELECT * FROM data WHERE id IN (" + ", ".join(f"'{i}'" for i in ids) + ")")
    np.testing.assert_allclose(stats, by_id.stats_mean(0, level=1, file="image.tif", method="exact"), rtol=1e-6)
    loader = tt.TacoDataset(view, files=["image.tif"])
    assert [loader.metadata(i)["id"] for i in range(len(loader))] == ids


def test_random_view_export_keeps_its_rows(data, tmp_path):
    view = tc.load(data.nested_zip).sql("SELECT * FROM data ORDER BY random() LIMIT 7")
    ids = view.data.column("id").to_pylist()
    view.export(tmp_path / "out.tacozip")
    assert sorted(tc.load(tmp_path / "out.tacozip").data.column("id").to_pylist()) == sorted(ids)


def test_random_view_cannot_be_rebuilt_elsewhere(data):
    view = tc.load(data.nested_zip).sql("SELECT * FROM data ORDER BY random() LIMIT 5")
    with pytest.raises(ValueError, match="non-deterministic.*hash"):
        pickle.dumps(view)
    # A deterministic view still pickles.
    same = pickle.loads(pickle.dumps(tc.load(data.nested_zip).sql("SELECT * FROM data ORDER BY hash(id) LIMIT 5")))
    assert len(same) == 5


def test_random_view_under_forked_workers(data):
    view = tc.load(data.nested_zip).sql("SELECT * FROM data ORDER BY random() LIMIT 8")
    ids = view.data.column("id").to_pylist()
    ds = tt.TacoDataset(view, files=["mask.tif"])
    loader = torch.utils.data.DataLoader(ds, batch_size=4, num_workers=2, collate_fn=tt.collate_samples,
                                         multiprocessing_context="fork", timeout=TIMEOUT)
    seen = [i for batch in loader for i in batch["metadata"]["id"]]
    assert seen == ids


# ---- item 3: resuming can neither skip nor repeat samples --------------------------------

TIMEOUT = 120


def _ids(batches):
    return [i for batch in batches for i in batch["metadata"]["id"]]


def test_loader_sets_the_chunk_size_of_an_iterable_dataset(data):
    def make():
        ds = tt.TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=5)  # batch_size left out
        return tt.TacoDataLoader(ds, batch_size=4, num_workers=2, timeout=TIMEOUT)

    loader = make()
    full = _ids(loader)
    assert sorted(full) == sorted(data.ids)
    head = []
    for n, batch in enumerate(loader):
        head.extend(batch["metadata"]["id"])
        if n == 2:
            break
    state = loader.state_dict()
    again = make()
    again.load_state_dict(state)
    rest = _ids(again)
    assert head + rest == full
    assert sorted(head + rest) == sorted(data.ids)


def test_mismatched_batch_sizes_are_refused(data):
    ds = tt.TacoIterableDataset(data.nested_zip, files=["mask.tif"], batch_size=4)
    with pytest.raises(tc.InvalidArgumentError, match="batch_size=4 but the TacoDataLoader's is 8"):
        tt.TacoDataLoader(ds, batch_size=8, num_workers=2)
    plain = tt.TacoIterableDataset(data.nested_zip, files=["mask.tif"])
    loader = torch.utils.data.DataLoader(plain, batch_size=4, num_workers=2, collate_fn=tt.collate_samples,
                                         timeout=TIMEOUT)
    with pytest.raises(tc.InvalidArgumentError, match="give it the DataLoader's batch_size"):
        _ids(loader)


@pytest.mark.parametrize("workers", [0, 2])
def test_only_the_first_pass_after_load_state_dict_resumes(data, workers):
    ds = tt.TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=7)
    loader = tt.TacoDataLoader(ds, batch_size=2, num_workers=workers, timeout=TIMEOUT if workers else 0)
    state = {**loader.state_dict(), "samples_seen": 10}
    loader.load_state_dict(state)
    first = _ids(loader)
    assert len(first) == N_TILES - 10
    for _ in range(2):  # no set_epoch: the same epoch again, whole
        again = _ids(loader)
        assert len(again) == N_TILES and again[10:] == first
    # The dataset alone (no loader) too.
    plain = tt.TacoIterableDataset(data.nested_zip, files=["mask.tif"], seed=7)
    plain.load_state_dict(state)
    assert len([s for s in plain]) == N_TILES - 10
    assert len([s for s in plain]) == N_TILES
    assert plain.state_dict()["samples_seen"] == N_TILES


# ---- item 4: export() of a concatenation, as `taco export A B OUT` --------------------------

@pytest.fixture(scope="module")
def other_zip(data, tmp_path_factory):
    """A second dataset like nested.tacozip with ids other_00.., other_03."""
    from conftest import COLLECTION

    samples = [tc.Sample(f"other_{i:02d}", tc.Tortilla([tc.Sample("image.tif", data.image(i)),
                                                        tc.Sample("mask.tif", data.mask(i))]),
                         label="x", cloud=0.5, count=i) for i in range(4)]
    out = tmp_path_factory.mktemp("other") / "other.tacozip"
    tc.create(tc.Taco(tc.Tortilla(samples), COLLECTION), out)
    return out


def test_export_of_a_concat(data, other_zip, tmp_path):
    both = tc.concat([tc.load(data.nested_zip).sql("SELECT * FROM data_raw WHERE count < 3"), tc.load(other_zip)])
    both.export(tmp_path / "both.tacozip")
    out = tc.load(tmp_path / "both.tacozip")
    assert out.data.column("id").to_pylist() == data.ids[:3] + [f"other_{i:02d}" for i in range(4)]
    assert out.read_bytes("other_02", "image.tif") == data.image(2).read_bytes()
    assert out.read_bytes(data.ids[1], "mask.tif") == data.mask(1).read_bytes()
    # A list given to load() is a concat too; filtered after the concat.
    view = tc.load([data.nested_zip, other_zip]).sql("SELECT * FROM data WHERE id LIKE 'other_%'")
    view.export(tmp_path / "others", format="folder")
    assert len(tc.load(tmp_path / "others")) == 4


def test_export_of_a_concat_with_duplicate_ids_names_the_id(data, tmp_path):
    import shutil

    shutil.copy(data.nested_zip, tmp_path / "copy.tacozip")
    both = tc.concat([tc.load(data.nested_zip), tc.load(tmp_path / "copy.tacozip")])
    with pytest.raises(tc.TacoError, match="tile_00"):
        both.export(tmp_path / "dup.tacozip")
    assert not (tmp_path / "dup.tacozip").exists()


# ---- item 6: PyTorch's own DataLoader and default_collate ----------------------------------

def test_plain_dataloader_with_default_collate(data):
    # Datetimes, and a column whose first value is null (what default_collate cannot batch).
    view = tc.load(data.nested_zip).sql(
        "SELECT *, TIMESTAMP '2023-01-01' + to_days(count) AS acquired, "
        "CASE WHEN count % 2 = 1 THEN count END AS odd FROM data")
    ds = tt.TacoDataset(view, files=["image.tif", "mask.tif"])
    assert ds[0]["metadata"]["note"] is None or isinstance(ds[0]["metadata"]["note"], str)
    batches = list(torch.utils.data.DataLoader(ds, batch_size=8))
    assert sum(len(b["metadata"]["id"]) for b in batches) == N_TILES
    first = batches[0]
    assert first["image.tif"].shape == (8, 4, 32, 32)
    assert first["metadata"]["id"] == data.ids[:8]
    assert first["metadata"]["note"][:2] == ["n0", None]  # nulls stay None in a list
    assert torch.equal(first["metadata"]["count"], torch.arange(8))
    assert first["metadata"]["odd"][:2] == [None, 1]
    assert first["metadata"]["acquired"][1].day == 2
    # The same as collate_samples gives, with workers too.
    ours = tt.collate_samples([ds[i] for i in range(8)])
    assert first["metadata"].keys() == ours["metadata"].keys()
    with_workers = list(torch.utils.data.DataLoader(ds, batch_size=8, num_workers=2, timeout=TIMEOUT))
    assert [b["metadata"]["id"] for b in with_workers] == [b["metadata"]["id"] for b in batches]
    it = tt.TacoIterableDataset(view, files=["mask.tif"], shuffle=False, batch_size=8)
    assert [b["metadata"]["id"] for b in torch.utils.data.DataLoader(it, batch_size=8)][0] == data.ids[:8]


# ---- item 9: torch arguments ----------------------------------------------------------------

def test_dtype_and_bands_forms(data):
    expected = np.stack([np.asarray(__import__("conftest").gdal_read(data.image(0)))[b] for b in (0, 2)])
    half = tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="float16", bands=[0, 2])[0]["image.tif"]
    assert half.dtype == torch.float16
    np.testing.assert_allclose(half.numpy().astype(np.float32), expected.astype(np.float16).astype(np.float32))
    f32 = tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype=torch.float32, bands=np.array([0, 2]))[0]
    assert f32["image.tif"].dtype == torch.float32
    np.testing.assert_array_equal(f32["image.tif"].numpy(), expected.astype(np.float32))
    one = tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype=np.int32, bands=np.int64(1))[0]["image.tif"]
    assert one.dtype == torch.int32 and one.shape[0] == 1


def test_unsupported_and_narrowing_dtypes_are_refused(data):
    if not hasattr(torch, "uint16"):
        with pytest.raises(tc.InvalidArgumentError, match="no uint16 tensors"):
            tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="uint16")
    # numpy output keeps uint16.
    assert tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="uint16", as_tensor=False)[0][
        "image.tif"].dtype == np.uint16
    with pytest.raises(tc.InvalidArgumentError, match="uint8 cannot hold the file's uint16 pixels.*allow_narrowing"):
        tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="uint8")
    with pytest.raises(tc.InvalidArgumentError, match="allow_narrowing"):
        tt.TacoIterableDataset(data.nested_zip, files=["image.tif", "mask.tif"], dtype={"image.tif": "int16"})
    clamped = tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="uint8", allow_narrowing=True)[0]
    assert clamped["image.tif"].dtype == torch.uint8
    # Widening is never refused; mask (uint8) to uint8 neither.
    tt.TacoDataset(data.nested_zip, files=["mask.tif"], dtype="uint8")
    tt.TacoDataset(data.nested_zip, files=["image.tif"], dtype="int32")


# ---- item 7: stats of an SQL view of a concat; a torch view without `type` -----------------

@pytest.fixture(scope="module")
def stats_zips(data, tmp_path_factory):
    """Two ZIPs with geotiff:stats on image.tif (taco create --ext stats:image.tif): tiles 0-3
    and copies of tiles 4-6 under the same ids as tiles 0-2 (ids repeat across the concat)."""
    import shutil

    from conftest import COLLECTION

    root = tmp_path_factory.mktemp("stats")
    out = []
    for name, tiles in (("a", range(4)), ("b", range(4, 7))):
        src = root / name
        for k, i in enumerate(tiles):
            shutil.copytree(data.loose / data.ids[i], src / data.ids[k])
        path = root / f"{name}.tacozip"
        tc.create(tc.from_directory(src, COLLECTION, ext=["stats:image.tif"]), path)
        out.append(path)
    return out


def test_stats_of_a_sql_view_of_a_concat(data, stats_zips):
    from conftest import gdal_read

    both = tc.concat([tc.load(p) for p in stats_zips])
    view = both.sql("SELECT * FROM data WHERE id IN ('tile_00', 'tile_02')")
    assert len(view) == 4
    pixels = np.concatenate([gdal_read(data.image(i))[0].ravel() for i in (0, 2, 4, 6)]).astype(np.float64)
    for method in ("pooled", "exact"):
        got = view.stats_mean(0, level=1, file="image.tif", method=method)
        assert got == pytest.approx(pixels.mean(), rel=1e-5), method
    assert view.stats_max(0, level=1, file="image.tif") == pixels.max()


def test_torch_view_without_type_gives_a_user_error(data):
    ds = tc.load(data.nested_zip)
    for query in ("SELECT id FROM data_raw", "SELECT id, \"internal:gdal_vsi\" FROM data"):
        with pytest.raises(tc.InvalidArgumentError, match="the view has no column 'type'") as e:
            tt.TacoDataset(ds.sql(query), files=["image.tif"])
        assert "plan_row" not in str(e.value) and "Binder" not in str(e.value)


# ---- item 8: exception types and messages in Python's terms -------------------------------

def test_exception_types(data):
    ds = tc.load(data.nested_zip)
    with pytest.raises(tc.InvalidArgumentError, match="Catalog Error") as e:
        ds.sql("SELECT * FROM nope")
    assert not isinstance(e.value, FileNotFoundError)
    with pytest.raises(IndexError, match="out of range"):
        ds.read(10**6)
    with pytest.raises(IndexError):
        ds.read(0, 99)
    with pytest.raises(IndexError, match="Level 9 does not exist") as e:
        ds.filter_bbox(0, 0, 1, 1, level=9)
    assert isinstance(e.value, ValueError) and not isinstance(e.value, FileNotFoundError)
    with pytest.raises(KeyError, match="no sample with id 'nope'"):
        ds.read("nope")
    with pytest.raises(LookupError):
        ds.read_bytes(0, "nope.tif")
    assert issubclass(tc.errors.SampleNotFoundError, tc.TacoError)
    with pytest.raises(TypeError, match=r"sql\(\) takes the query as a str, got int"):
        ds.sql(123)
    with pytest.raises(TypeError, match=r"Taco\(\) takes a Tortilla, got list.*Tortilla\(\[\.\.\.\]\)"):
        tc.Taco([tc.Sample("a", data.image(0))], {"id": "x"})


def test_lazy_errors_quote_the_users_query(data):
    ds = tc.load(data.nested_zip)
    view = ds.sql("SELECT *, CAST(label AS INT) AS n FROM data").sql("SELECT * FROM data WHERE count >= 0")
    with pytest.raises(tc.InvalidArgumentError) as e:
        view.data
    message = str(e.value)
    assert "CAST(label AS INT)" in message and "count >= 0" in message
    assert not re.search(r"view_\d{8}", message)


def test_no_cli_key_syntax_in_python_messages(data, tmp_path):
    from conftest import COLLECTION

    numeric = [tc.Sample(str(i), tc.Tortilla([tc.Sample("image.tif", data.image(i))])) for i in (1, 2)]
    path = tmp_path / "numeric.tacozip"
    tc.create(tc.Taco(tc.Tortilla(numeric), COLLECTION), path)
    with pytest.raises(KeyError) as e:
        tc.load(path).read("0")
    assert "@" not in str(e.value)
    with pytest.raises(tc.TacoError) as e:
        tc.load(path).read(0, "image.tif", 3)
    assert "@" not in str(e.value) and "no child at position 3" in str(e.value)


def test_file_urls(data):
    from urllib.parse import quote

    ds = tc.load("file://" + quote(str(data.nested_zip)))
    assert len(ds) == N_TILES
    assert len(tc.load(["file://localhost" + str(data.nested_zip)])) == N_TILES



# ---- item 8 (last clause): concat of one dataset with itself -------------------------------

def test_concat_of_the_same_dataset_returns_its_rows_twice(data, other_zip):
    """As tacoreader 2.4.21: the rows twice. Each row stays its own part's (internal:source_part),
    so navigation, files, stats and the torch plan give every row its own children once."""
    from conftest import gdal_read

    ds = tc.load(data.nested_zip)
    both = tc.concat([ds, ds])
    assert len(both) == 2 * N_TILES
    assert both.data.column("id").to_pylist() == data.ids + data.ids
    raw = both.data_raw
    assert raw.column("internal:source_part").to_pylist() == [0] * N_TILES + [1] * N_TILES
    for row in (3, N_TILES + 3):
        assert both.read(row).data.column("id").to_pylist() == ["image.tif", "mask.tif"]
        assert both.read_bytes(row, "image.tif") == data.image(3).read_bytes()
    # Every FILE once per row: 2 files per row, not 4 (flatten and the flat view l1).
    flat = both.flatten(level=1)
    assert flat.num_rows == 2 * 2 * N_TILES
    assert sorted(zip(flat.column("l0:id").to_pylist(), flat.column("l1:id").to_pylist())) == sorted(
        [(i, f) for i in data.ids for f in ("image.tif", "mask.tif")] * 2)
    assert both.query("SELECT count(*) AS n FROM l1").column("n").to_pylist() == [4 * N_TILES]
    kept = both.sql("SELECT * FROM data_raw WHERE count < 2")
    assert len(kept) == 4 and kept.flatten(level=1).num_rows == 8
    # Statistics: each row's pixels once per row (the mean of one copy; a view without the
    # internal columns too).
    pixels = np.concatenate([gdal_read(data.image(i))[0].ravel() for i in range(N_TILES)]).astype(np.float64)
    for view in (both, both.sql("SELECT * FROM data")):
        assert view.stats_mean(0, level=1, file="image.tif", method="exact") == pytest.approx(pixels.mean(), rel=1e-6)
    # The torch plan: 2N samples, row N+5 is tile 5.
    loader = tt.TacoDataset(both, files=["image.tif"])
    assert len(loader) == 2 * N_TILES
    np.testing.assert_array_equal(loader[N_TILES + 5]["image.tif"].numpy(), gdal_read(data.image(5)).astype(np.float32))
    assert loader.metadata(N_TILES + 5)["id"] == data.ids[5]
    # The dataset among others, and a view of it given next to itself.
    three = tc.concat([ds, tc.load(other_zip), ds.sql("SELECT * FROM data_raw WHERE count >= 20")])
    assert len(three) == N_TILES + 4 + 4
    assert three.read_bytes(N_TILES + 4 + 1, "mask.tif") == data.mask(21).read_bytes()
    assert three.read_bytes(N_TILES + 2, "image.tif") == data.image(2).read_bytes()
    # Distinct files too: flatten joins a child to its own part's parent (ids repeat per part).
    assert tc.concat([ds, tc.load(other_zip)]).flatten(level=1).num_rows == 2 * (N_TILES + 4)
    # Three levels.
    deep = tc.load(data.deep_zip)
    twice = tc.concat([deep, deep])
    assert twice.read_bytes(5, "sensor_A", "band.tif") == data.image(1).read_bytes()
    assert twice.flatten().num_rows == 2 * deep.flatten().num_rows == 2 * 4 * 1
    bands = tt.TacoDataset(twice, files=["sensor_A/band.tif", "mask.tif"])
    assert len(bands) == 8
    np.testing.assert_array_equal(bands[6]["sensor_A/band.tif"].numpy(), gdal_read(data.image(2)))


def test_compat_concat_of_the_same_dataset(data):
    from taco_cpp.compat import tacoreader as tr

    ds = tr.load(str(data.nested_zip))
    both = tr.concat([ds, ds])
    assert len(both.data) == 2 * N_TILES
    assert both.read(N_TILES + 1)["id"].to_pylist() == ["image.tif", "mask.tif"]
