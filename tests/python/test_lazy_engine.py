"""The lazy engine (issue 28): load(), len(), the collection and ``.data``/``data_raw``/
``to_pandas()`` of a whole local ZIP or FOLDER dataset start no SQL engine, and what they
return equals the engine's answer for the same rows."""

import pytest

import taco_cpp
from taco_cpp import _native
from conftest import FLAT_FOLDER, FLAT_ZIP, NESTED_FOLDER, NESTED_ZIP

PATHS = [FLAT_ZIP, FLAT_FOLDER, NESTED_ZIP, NESTED_FOLDER]


@pytest.mark.parametrize("path", PATHS, ids=["flat_zip", "flat_folder", "nested_zip", "nested_folder"])
def test_load_len_and_data_start_no_engine(path):
    before = _native._engines_started()
    ds = taco_cpp.load(path)
    n = len(ds)
    assert ds.collection["taco:pit_schema"]["root"]["n"] >= n
    assert ds.num_levels >= 1
    data, raw, frame = ds.data, ds.data_raw, ds.to_pandas()
    assert _native._engines_started() == before, "load/len/.data started the SQL engine"
    assert data.num_rows == raw.num_rows == len(frame) == n

    # The engine's answer for the same rows: equal values and Arrow types.
    engine_data = ds.sql("SELECT * FROM data").data
    engine_raw = ds.sql("SELECT * FROM data_raw").data_raw
    assert _native._engines_started() == before + 1
    assert data.schema == engine_data.schema
    assert data.equals(engine_data)
    assert raw.schema == engine_raw.schema
    assert raw.equals(engine_raw)
    assert frame.equals(engine_data.to_pandas())


def test_sql_starts_the_engine_once():
    before = _native._engines_started()
    ds = taco_cpp.load(NESTED_ZIP)
    assert len(ds.sql("SELECT * FROM data WHERE type = 'FOLDER'")) == 3
    assert len(ds.sql("SELECT * FROM level1")) == 9
    assert _native._engines_started() == before + 1


def _walk(node, out):
    """Everything navigation shows below ``node`` (a TacoFrame or a GDAL path), depth first."""
    if isinstance(node, str):
        out.append(node)
        return
    out.append((node.level, len(node), node.data, node.data_raw))
    for i in range(len(node)):
        child = node.read(i)
        if isinstance(child, str):
            out.append(node.read_bytes(i))
        _walk(child, out)


def _info_and_tree(ds):
    out = [ds.info(), taco_cpp.info(ds.path)]
    out += [ds.level_info(level) for level in range(ds.num_levels)]
    ids = ds.data.column("id").to_pylist()
    for i, sample_id in enumerate(ids):
        _walk(ds.read(i), out)
        by_id = ds.read(sample_id)
        out.append(by_id if isinstance(by_id, str) else by_id.data)
    return out


@pytest.mark.parametrize("path", PATHS, ids=["flat_zip", "flat_folder", "nested_zip", "nested_folder"])
def test_info_and_navigation_start_no_engine(path):
    before = _native._engines_started()
    lazy = _info_and_tree(taco_cpp.load(path))
    assert _native._engines_started() == before, "info or navigation started the SQL engine"
    # The same answers once the engine runs.
    eager_ds = taco_cpp.load(path)
    assert len(eager_ds.sql("SELECT 1 AS x")) == 1
    assert _native._engines_started() == before + 1
    assert _info_and_tree(eager_ds) == lazy
