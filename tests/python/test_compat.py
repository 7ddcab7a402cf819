"""taco_cpp.compat.tacoreader: tacoreader 2.4's public API. tacoreader's own test suite is
not published with its package (its sdist and wheel hold no tests), so these are the same
public-API checks written here (FORMAT §9.5), run through `import tacoreader` after
`taco_cpp.compat.install()`; tacoreader itself is never installed or imported."""

import datetime as dt
import importlib
import sys

import pyarrow as pa
import pytest

import taco_cpp.compat
from conftest import FLAT_FOLDER, FLAT_ZIP, NESTED_FOLDER, NESTED_ZIP


@pytest.fixture(scope="module")
def tacoreader():
    saved = {k: v for k, v in sys.modules.items() if k == "tacoreader" or k.startswith("tacoreader.")}
    taco_cpp.compat.install(force=True)
    module = importlib.import_module("tacoreader")
    yield module
    taco_cpp.compat.uninstall()
    sys.modules.update(saved)


def test_install_registers_the_public_modules(tacoreader):
    from tacoreader import TacoDataset, concat, load  # noqa: F401
    from tacoreader._exceptions import (TacoBackendError, TacoError, TacoFormatError, TacoIOError,
                                        TacoNavigationError, TacoQueryError, TacoSchemaError)
    from tacoreader.dataframe.base import TacoDataFrame  # noqa: F401
    from tacoreader.dataset import TacoDataset as D2
    from tacoreader.schema import PITSchema  # noqa: F401

    assert D2 is TacoDataset
    assert tacoreader.__version__.startswith("2.4")
    assert TacoError.__bases__ == (Exception,)
    for cls in (TacoFormatError, TacoSchemaError, TacoIOError, TacoQueryError, TacoNavigationError,
                TacoBackendError):
        assert cls.__bases__ == (TacoError,)


def test_install_refuses_to_replace_another_module(tacoreader):
    fake = type(sys)("tacoreader")
    sys.modules["tacoreader"] = fake
    try:
        with pytest.raises(RuntimeError):
            taco_cpp.compat.install()
    finally:
        taco_cpp.compat.install(force=True)


def test_load_flat(tacoreader):
    for path, fmt in ((FLAT_ZIP, "zip"), (FLAT_FOLDER, "folder")):
        ds = tacoreader.load(str(path))
        assert ds._format == fmt
        assert ds.pit_schema.root["n"] == 5
        tdf = ds.data
        assert len(tdf) == 5
        assert "internal:gdal_vsi" in tdf.columns
        assert "taco:pit_schema" in ds.collection
        assert isinstance(tdf.to_arrow(), pa.Table)
        assert tdf.shape == (5, len(tdf.columns))


def test_load_nested(tacoreader):
    for path in (NESTED_ZIP, NESTED_FOLDER):
        ds = tacoreader.load(path)
        assert len(ds.data) == 3
        assert ds.pit_schema.max_depth() >= 1
        assert ds.pit_schema.root["type"] == "FOLDER"


def test_navigation(tacoreader):
    flat = tacoreader.load(FLAT_ZIP)
    for i in range(5):
        assert "/vsisubfile/" in flat.data.read(i)
    nested = tacoreader.load(NESTED_ZIP)
    for region in ("americas", "asia", "europe"):
        children = nested.read(region)
        assert len(children) == 3
        for j in range(3):
            assert "/vsisubfile/" in children.read(j)
    folder = tacoreader.load(NESTED_FOLDER)
    assert "/vsisubfile/" not in folder.read("europe").read(0)
    with pytest.raises(tacoreader.TacoNavigationError):
        flat.data.read(99)
    with pytest.raises(tacoreader.TacoNavigationError):
        flat.data.read("nope")


def test_zip_and_folder_agree(tacoreader):
    assert len(tacoreader.load(FLAT_ZIP).data) == len(tacoreader.load(FLAT_FOLDER).data)
    ids = lambda p: set(tacoreader.load(p).data["id"].to_pylist())  # noqa: E731
    assert ids(NESTED_ZIP) == ids(NESTED_FOLDER)


def test_filters(tacoreader):
    ds = tacoreader.load(FLAT_ZIP)
    assert ds.filter_bbox(-0.5, 39.3, -0.2, 39.6).data["location"].to_pylist() == ["valencia"]
    assert len(ds.filter_bbox(50, 50, 51, 51).data) == 0
    assert len(ds.filter_datetime("2023-01-01/2023-01-15").data) == 1
    assert len(ds.filter_datetime("2023-01-01/2023-02-15").data) == 2
    assert len(ds.filter_datetime("2023-01-01").data) == 1
    start = dt.datetime(2023, 1, 1, tzinfo=dt.timezone.utc)
    end = dt.datetime(2023, 2, 15, tzinfo=dt.timezone.utc)
    assert len(ds.filter_datetime((start, end)).data) == 2
    assert len(ds.filter_datetime("2020-01-01/2020-12-31").data) == 0
    a = ds.filter_bbox(-80, -15, -70, 0).filter_datetime("2023-01-01/2023-06-01")
    b = ds.filter_datetime("2023-01-01/2023-06-01").filter_bbox(-80, -15, -70, 0)
    assert a.data["location"].to_pylist() == b.data["location"].to_pylist() == ["lima"]
    with pytest.raises(tacoreader.TacoQueryError, match="not found"):
        ds.filter_bbox(0, 0, 1, 1, geometry_col="missing_col")


def test_cascade_filters(tacoreader):
    ds = tacoreader.load(NESTED_FOLDER)
    assert ds.filter_bbox(-0.5, 39.3, 13.6, 52.7).data["id"].to_pylist() == ["europe"]
    nyc = ds.filter_bbox(-74.2, 40.5, -73.8, 40.9, level=1)
    assert nyc.data["id"].to_pylist() == ["americas"]
    assert len(ds.filter_datetime("2023-01-01/2023-01-15", level=1).data) == 3
    with pytest.raises(tacoreader.TacoQueryError, match="does not exist"):
        ds.filter_bbox(0, 0, 1, 1, level=99)


def test_sql_returns_a_table_over_flat_views(tacoreader):
    ds = tacoreader.load(FLAT_ZIP)
    low = ds.sql('SELECT "l0:id" FROM l0 WHERE "l0:cloud_cover" < 30')
    assert isinstance(low, pa.Table) and low.column_names == ["l0:id"] and low.num_rows == 2
    nested = tacoreader.load(NESTED_ZIP)
    kids = nested.sql('SELECT "l1:id", "l0:id" FROM l1 WHERE "l0:id" = \'europe\'')
    assert kids.num_rows == 3 and set(kids.column("l0:id").to_pylist()) == {"europe"}
    flat = nested.sort("l1:cloud_cover", descending=True).limit(2).flatten()
    assert flat.column_names[0] == "l1:id" and flat.column_names[-1] == "gdal_vsi" and flat.num_rows == 2
    # as upstream: DuckDB's own exception class when duckdb is installed, else TacoQueryError
    with pytest.raises(Exception, match="syntax error") as err:
        ds.sql("SELEC broken")
    assert type(err.value).__name__ in ("ParserException", "TacoQueryError")
    assert ds.navigation_columns() == sorted(["id", "type", "internal:current_id", "internal:offset",
                                              "internal:size"])


def test_stats(tacoreader):
    import numpy as np

    ds = tacoreader.load(FLAT_ZIP)
    assert ds.stats_mean(band=0) >= 0
    means = ds.stats_mean(band=[0, 1, 2])
    assert means.dtype == np.float32 and means.shape == (3,)
    assert ds.stats_min(0) <= ds.stats_max(0)
    assert ds.stats_p25(0) <= ds.stats_p50(0) <= ds.stats_p75(0) <= ds.stats_p95(0)
    assert ds.stats_median(0) == ds.stats_p50(0)
    for bad in (99, [0, 1, 99]):
        with pytest.raises(tacoreader.TacoQueryError, match="out of range"):
            ds.stats_mean(band=bad)
    with pytest.raises(tacoreader.TacoQueryError, match="does not exist"):
        ds.stats_mean(0, level=99)
    nested = tacoreader.load(NESTED_FOLDER)
    with pytest.raises(tacoreader.TacoQueryError, match="does not contain statistics"):
        nested.stats_mean(0)
    with pytest.raises(tacoreader.TacoQueryError, match="id is required for level > 0"):
        nested.stats_mean(0, level=1)
    assert np.isscalar(nested.stats_mean(0, level=1, id="americas"))
    assert nested.stats_categorical(0, level=1, id="europe").shape == (3,)


def test_concat(tacoreader):
    ds = tacoreader.load(FLAT_ZIP)
    a, b = ds, tacoreader.load(FLAT_ZIP)
    both = tacoreader.concat([a, b])
    assert len(both.data) == 10
    raw = both.data_raw
    assert "internal:source_path" in raw.columns
    for src, vsi in zip(raw["internal:source_path"].to_pylist(), raw["internal:gdal_vsi"].to_pylist()):
        assert src in vsi
    with pytest.raises(tacoreader.TacoSchemaError, match="incompatible schema"):
        tacoreader.concat([ds, tacoreader.load(NESTED_ZIP)])
    with pytest.raises(tacoreader.TacoSchemaError, match="different formats"):
        tacoreader.concat([ds, tacoreader.load(FLAT_FOLDER)])
    with pytest.raises(tacoreader.TacoQueryError, match="at least 2"):
        tacoreader.concat([ds])
    with pytest.raises(tacoreader.TacoQueryError, match="Invalid column_mode"):
        tacoreader.concat([a, b], column_mode="nope")
    assert tacoreader.load([FLAT_ZIP, FLAT_ZIP]).pit_schema.root["n"] == 10


def test_backends(tacoreader):
    import pandas as pd

    ds = tacoreader.load(NESTED_ZIP, backend="pandas")
    tdf = ds.data
    assert isinstance(tdf.to_pandas(), pd.DataFrame)
    only_asia = tdf.query("id == 'asia'")
    assert len(only_asia) == 1
    assert len(only_asia.read(0)) == 3  # navigation from a filtered frame
    assert only_asia.read(0).read(2).startswith("/vsisubfile/")
    with pytest.raises(ValueError):
        tdf["id"] = 1
    tacoreader.use("pandas")
    try:
        assert tacoreader.get_backend() == "pandas"
        assert isinstance(tacoreader.load(FLAT_ZIP).data.to_pandas(), pd.DataFrame)
    finally:
        tacoreader.use("pyarrow")
    with pytest.raises(tacoreader.TacoBackendError):
        tacoreader.use("spark")
    try:
        import polars  # noqa: F401
    except ImportError:
        with pytest.raises(tacoreader.TacoBackendError):
            tacoreader.load(FLAT_ZIP, backend="polars")


def test_errors_at_load(tacoreader, tmp_path):
    with pytest.raises(tacoreader.TacoIOError):
        tacoreader.load(tmp_path / "missing.tacozip")
    bad = tmp_path / "bad.tacozip"
    bad.write_bytes(b"garbage" * 100)
    with pytest.raises(tacoreader.TacoFormatError):
        tacoreader.load(bad)
    for legacy in ("dataset.taco", "dataset.tortilla", "tacofoundation:x"):
        with pytest.raises(tacoreader.TacoFormatError, match="Legacy"):
            tacoreader.load(legacy)
    with pytest.raises(tacoreader.TacoQueryError):
        tacoreader.load([])


def test_context_manager_and_repr(tacoreader):
    with tacoreader.load(FLAT_ZIP) as ds:
        assert "test_dataset" in repr(ds)
        assert "<table>" in ds._repr_html_()
        assert "TacoDataFrame: 5 rows" in repr(ds.data)
