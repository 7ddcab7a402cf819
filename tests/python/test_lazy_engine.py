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
