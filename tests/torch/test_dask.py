"""taco_cpp.dask on a LocalCluster of 2 worker processes: create_parts equals one create, row
for row; map_samples."""

import logging
import sys

import numpy as np
import pytest

import taco_cpp as tc
from taco_cpp.dask import create_parts, map_samples

import conftest
from conftest import COLLECTION, N_TILES, Data, gdal_read, tile_samples


@pytest.fixture(scope="module")
def client():
    import cloudpickle
    from distributed import Client, LocalCluster

    # the workers cannot import the test files: their functions travel by value
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cloudpickle.register_pickle_by_value(conftest)
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                           silence_logs=logging.ERROR)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def public(table) -> list[dict]:
    keep = [n for n in table.column_names if not n.startswith("internal:")]
    return table.select(keep).to_pylist()


def assert_same_dataset(a_path, b_path, ids):
    a, b = tc.load(a_path), tc.load(b_path)
    assert public(a.data) == public(b.data)
    assert public(a.query("SELECT * FROM level1")) == public(b.query("SELECT * FROM level1"))
    for i in range(len(ids)):
        for f in ("image.tif", "mask.tif"):
            assert a.read_bytes(i, f) == b.read_bytes(i, f)


def test_create_parts_on_two_workers_equals_one_create(data, tmp_path, client):
    samples = tile_samples(data)
    single = tmp_path / "single.tacozip"
    tc.create(tc.Taco(tc.Tortilla(samples), COLLECTION), single)
    cat = create_parts(samples, tmp_path / "parts", COLLECTION, part_size=7, client=client)
    assert cat.endswith(".tacocat") or cat.endswith(".tacocat/")
    parts = sorted(p.name for p in (tmp_path / "parts").glob("*.tacozip"))
    assert parts == ["part-00000.tacozip", "part-00001.tacozip", "part-00002.tacozip", "part-00003.tacozip"]
    assert not [p for p in (tmp_path / "parts").iterdir() if p.name.startswith(".taco-parts-")]
    assert_same_dataset(single, tmp_path / "parts", data.ids)


def make_sample(i, root):
    return tile_samples(Data(root), n=i + 1)[i]


def test_create_parts_from_a_bag_made_on_the_workers(data, tmp_path, client):
    import dask.bag as db

    bag = db.from_sequence(range(N_TILES), npartitions=3).map(make_sample, data.root)
    create_parts(bag, tmp_path / "bag", COLLECTION, part_size=5, client=client)
    names = sorted(p.name for p in (tmp_path / "bag").glob("*.tacozip"))
    assert names == [f"part-{p:05d}-{k:04d}.tacozip" for p in range(3) for k in range(2)]
    single = tmp_path / "single.tacozip"
    tc.create(tc.Taco(tc.Tortilla(tile_samples(data)), COLLECTION), single)
    assert_same_dataset(single, tmp_path / "bag", data.ids)


def test_create_parts_refuses_shared_ids_and_used_directories(data, tmp_path, client):
    samples = tile_samples(data, n=4)
    with pytest.raises(tc.TacoError, match="sample id 'tile_00' is in two parts"):
        create_parts(samples + samples[:1], tmp_path / "dup", COLLECTION, part_size=2, client=client)
    assert list((tmp_path / "dup").iterdir()) == []  # nothing left behind
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "x").write_text("x")
    with pytest.raises(tc.AlreadyExistsError):
        create_parts(samples, tmp_path / "used", COLLECTION, client=client)


def test_map_samples_on_the_cluster(data, client):
    view = tc.load(data.nested_zip).sql("SELECT * FROM data WHERE count >= 4")
    out = map_samples(view, lambda s: (s["metadata"]["id"], int(s["mask.tif"].sum()), s["image.tif"].shape),
                      files=["mask.tif", "image.tif"], bands={"image.tif": [1]}, chunk_size=6, client=client)
    assert [o[0] for o in out] == data.ids[4:]
    for i, (_, total, shape) in zip(range(4, N_TILES), out):
        assert total == int(gdal_read(data.mask(i)).sum()) and shape == (1, 32, 32)
    # each worker opened the dataset itself: results came from both
    pids = map_samples(view, lambda s: __import__("os").getpid(), files=["mask.tif"], chunk_size=2, client=client)
    assert len(set(pids)) == 2
    assert map_samples(view.sql("SELECT * FROM data WHERE false"), len, files=["mask.tif"], client=client) == []
