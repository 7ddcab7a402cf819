"""Issue 24: nothing silently wrong, nothing surprising in the Python and torch layers.

Each test names the item of issue 24 it covers; each fails on the code before the fix.
"""

from __future__ import annotations

import pickle

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
