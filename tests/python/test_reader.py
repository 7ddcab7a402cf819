"""The reader API of taco_cpp on the upstream fixtures (FORMAT §9.5 acceptance checks)."""

import datetime as dt

import numpy as np
import pyarrow as pa
import pytest

import taco_cpp
from conftest import FLAT_FOLDER, FLAT_ZIP, NESTED_FOLDER, NESTED_ZIP


@pytest.fixture(params=["zip", "folder"])
def flat(request):
    return taco_cpp.load(FLAT_ZIP if request.param == "zip" else FLAT_FOLDER)


def test_version_and_load_attributes():
    assert taco_cpp.__version__ == "0.1.0"
    ds = taco_cpp.load(str(FLAT_ZIP))
    assert ds.id == "test_dataset"
    assert ds.version == "1.0.0"
    assert ds.format == "zip"
    assert isinstance(ds.collection, dict) and "taco:pit_schema" in ds.collection
    assert ds.pit_schema.max_depth() == 0
    assert ds.pit_schema.root == {"n": 5, "type": "FILE"}
    # as tacotoolbox 0.26.9 wrote it: of the centroids east and west of Greenwich it keeps the
    # group with the wider span (an antimeridian rule), here the eastern one
    assert ds.extent["spatial"] == [2.35, -12.0, 139.7, 48.85]
    assert ds.extent["temporal"] == ["2023-01-01T00:00:00Z", "2023-05-01T00:00:00Z"]
    assert len(ds) == 5
    assert taco_cpp.load(FLAT_FOLDER).format == "folder"


def test_collection_is_a_copy():
    ds = taco_cpp.load(FLAT_ZIP)
    c = ds.collection
    c["id"] = "changed"
    assert ds.id == "test_dataset" and ds.collection["id"] == "test_dataset"


def test_nested_attributes():
    for path in (NESTED_ZIP, NESTED_FOLDER):
        ds = taco_cpp.load(path)
        assert len(ds) == 3
        assert ds.pit_schema.max_depth() == 1
        assert ds.pit_schema.root["type"] == "FOLDER"
        assert ds.num_levels == 2


def test_data_is_arrow_with_stored_types(flat):
    t = flat.data
    assert isinstance(t, pa.Table)
    assert t.num_rows == 5
    assert t.column("id").to_pylist() == [f"sample_{i}" for i in range(5)]
    assert "internal:gdal_vsi" in t.column_names
    assert not any(c.startswith("internal:") and c != "internal:gdal_vsi" for c in t.column_names)
    assert t.schema.field("istac:time_start").type == pa.timestamp("us")
    assert t.schema.field("istac:geometry").type == pa.binary()
    assert t.schema.field("cloud_cover").type == pa.float64()
    assert t.schema.field("stac:tensor_shape").type == pa.list_(pa.int64())
    assert pa.types.is_list(t.schema.field("geotiff:stats").type)
    assert t.column("cloud_cover").to_pylist() == [0.0, 15.0, 30.0, 45.0, 60.0]
    raw = flat.data_raw
    assert "internal:current_id" in raw.column_names and "internal:parent_id" in raw.column_names
    assert raw.column("internal:current_id").to_pylist() == [0, 1, 2, 3, 4]


def test_gdal_vsi_paths():
    zip_vsi = taco_cpp.load(FLAT_ZIP).data.column("internal:gdal_vsi").to_pylist()
    assert zip_vsi[0] == f"/vsisubfile/200_16,{FLAT_ZIP.resolve()}"
    folder_vsi = taco_cpp.load(FLAT_FOLDER).data.column("internal:gdal_vsi").to_pylist()
    assert folder_vsi[0] == f"{FLAT_FOLDER.resolve()}/DATA/sample_0"


def test_to_pandas_and_iteration(flat):
    df = flat.to_pandas()
    assert list(df["id"]) == [f"sample_{i}" for i in range(5)]
    rows = list(flat)
    assert [r["id"] for r in rows] == list(df["id"])
    assert rows[0]["istac:time_start"] == dt.datetime(2023, 1, 1)


@pytest.mark.parametrize("box,expected", [
    ((-0.5, 39.3, -0.2, 39.6), ["sample_0"]),
    ((50, 50, 51, 51), []),
])
def test_filter_bbox(flat, box, expected):
    assert flat.filter_bbox(*box).data.column("id").to_pylist() == expected


@pytest.mark.parametrize("value,count", [
    ("2023-01-01/2023-01-15", 1),
    ("2023-01-01/2023-02-15", 2),
    ("2023-01-01", 1),
    ((dt.datetime(2023, 1, 1), dt.datetime(2023, 2, 15, tzinfo=dt.timezone.utc)), 2),
    ((dt.date(2023, 1, 1), "2023-02-15"), 2),
    (dt.datetime(2023, 1, 1), 1),
    (dt.date(2023, 1, 31), 1),
    ("2020-01-01/2020-12-31", 0),
])
def test_filter_datetime_forms(flat, value, count):
    assert len(flat.filter_datetime(value)) == count


def test_aware_datetime_is_converted_to_utc(flat):
    # A datetime is that instant (issue 16: times of day are honoured). sample_1 is at
    # 2023-01-31T00:00Z = 2023-01-30T22:00-02:00; 2023-01-31T00:00-02:00 is two hours later.
    tz = dt.timezone(dt.timedelta(hours=-2))
    assert len(flat.filter_datetime(dt.datetime(2023, 1, 31, 0, 0, tzinfo=tz))) == 0
    assert len(flat.filter_datetime(dt.datetime(2023, 1, 30, 22, 0, tzinfo=tz))) == 1
    # A date is the whole UTC day.
    assert len(flat.filter_datetime(dt.date(2023, 1, 31))) == 1


def test_chaining_in_any_order(flat):
    a = flat.filter_bbox(-80, -15, -70, 0).filter_datetime("2023-01-01/2023-06-01")
    b = flat.filter_datetime("2023-01-01/2023-06-01").filter_bbox(-80, -15, -70, 0)
    c = flat.sql("SELECT * FROM data WHERE cloud_cover > 10").filter_bbox(-80, -15, -70, 0)
    for view in (a, b, c):
        assert view.data.column("location").to_pylist() == ["lima"]
    d = a.sql("select id from DATA")
    assert d.data.column_names == ["id"]
    assert len(d) == 1


def test_views_are_lazy_and_independent(flat):
    low = flat.sql("SELECT * FROM data WHERE cloud_cover < 30")
    assert len(low) == 2
    assert len(flat) == 5
    assert low.pit_schema.root["n"] == 2
    assert flat.pit_schema.root["n"] == 5


def test_unknown_filter_column_names_it(flat):
    with pytest.raises(taco_cpp.TacoError, match="nope"):
        flat.filter_bbox(0, 0, 1, 1, geometry_col="nope").data


def test_navigation_flat(flat):
    for i in range(5):
        p = flat.read(i)
        assert isinstance(p, str)
        assert ("/vsisubfile/" in p) == (flat.format == "zip")
    assert flat.read("sample_3") == flat.read(3)
    assert flat.read_bytes(0) == b"content_valencia"
    assert flat.read_bytes("sample_4") == b"content_lima"


@pytest.mark.parametrize("path", [NESTED_ZIP, NESTED_FOLDER])
def test_navigation_nested(path):
    ds = taco_cpp.load(path)
    for region in ("europe", "americas", "asia"):
        children = ds.read(region)
        assert isinstance(children, taco_cpp.TacoFrame)
        assert len(children) == 3
        assert children.level == 1
        assert children.data.column("id").to_pylist() == ["item_0", "item_1", "item_2"]
        for j in range(3):
            p = children.read(j)
            assert isinstance(p, str)
            assert ("/vsisubfile/" in p) == (path == NESTED_ZIP)
    assert ds.read_bytes("europe", "item_1") == b"data_europe_1"
    assert ds.read("americas").read_bytes(2) == b"data_americas_2"
    assert ds.read("asia", "item_0") == ds.read("asia").read("item_0")
    raw = ds.read("europe").data_raw
    if path == NESTED_ZIP:
        assert raw.column("internal:offset").to_pylist() == [205, 266, 327]


def test_nested_filters_cascade():
    ds = taco_cpp.load(NESTED_FOLDER)
    assert ds.filter_bbox(-0.5, 39.3, 13.6, 52.7).data.column("id").to_pylist() == ["europe"]
    nyc = ds.filter_bbox(-74.2, 40.5, -73.8, 40.9, level=1)
    assert nyc.data.column("id").to_pylist() == ["americas"]
    survivors = nyc.read("americas").data.column("id").to_pylist()
    assert survivors == ["item_0", "item_2"]  # only the children that meet the box
    assert len(ds.read("americas")) == 3
    assert len(ds.filter_datetime("2023-01-01/2023-01-15", level=1)) == 3
    with pytest.raises(taco_cpp.TacoError, match="99"):
        ds.filter_datetime("2023-01-01", level=99)


def test_stats_flat_values(flat, cli_json):
    mean = flat.stats_mean(band=0)
    assert isinstance(mean, np.float32)
    # the default ("pooled") weighs each sample by its valid pixels, H*W*valid%/100
    stats = flat.data_raw.column("geotiff:stats").to_pylist()
    valid = [row[0][4] for row in stats]
    expected = sum(v * row[0][2] for v, row in zip(valid, stats)) / sum(valid)
    assert mean == pytest.approx(expected, rel=1e-5)
    means = flat.stats_mean([0, 1, 2], method="upstream")
    assert means.dtype == np.float32 and means.shape == (3,)
    assert means.tolist() == pytest.approx([138.96, 122.52, 103.70], rel=1e-4)
    assert flat.stats_std([0, 1, 2], method="upstream") == pytest.approx([47.3137, 41.1139, 45.4435], rel=1e-4)
    assert flat.stats_min(0) == 0 and flat.stats_max(0) == 255
    p = [flat.stats_p25(0), flat.stats_p50(0), flat.stats_p75(0), flat.stats_p95(0)]
    assert p == sorted(p)
    assert flat.stats_median(0) == flat.stats_p50(0)
    # every measure equals what `taco stats` prints (same library default method)
    cli = cli_json("stats", flat.path, "--band", "0,1,2", "--json")
    for measure in ("mean", "std", "min", "max", "p25", "p50", "p75", "p95"):
        got = getattr(flat, "stats_" + measure)([0, 1, 2])
        assert got.tolist() == pytest.approx(cli[measure], rel=1e-6), measure


def test_stats_upstream_method_gives_tacoreader_numbers(flat):
    p = [flat.stats_p25(0, method="upstream"), flat.stats_p50(0, method="upstream"),
         flat.stats_p75(0, method="upstream"), flat.stats_p95(0, method="upstream")]
    assert p == pytest.approx([92.4, 135.6, 181.0, 224.0], rel=1e-4)
    assert flat.stats_std(0, method="upstream") == pytest.approx(47.3137, rel=1e-5)
    with pytest.raises(taco_cpp.TacoError, match="sometimes"):
        flat.stats_mean(0, method="sometimes")


def test_stats_honour_the_view(flat):
    one = flat.sql("SELECT * FROM data WHERE id = 'sample_0'")
    assert one.stats_mean(0) != flat.stats_mean(0)


def test_stats_errors(flat):
    with pytest.raises(taco_cpp.InvalidArgumentError, match="out of range"):
        flat.stats_mean(99)
    with pytest.raises(taco_cpp.TacoError, match="out of range"):
        flat.stats_mean([0, 1, 99])
    with pytest.raises(taco_cpp.TacoError, match="does not exist"):
        flat.stats_mean(0, level=99)
    nested = taco_cpp.load(NESTED_FOLDER)
    with pytest.raises(taco_cpp.TacoError, match="does not contain statistics"):
        nested.stats_mean(0)
    with pytest.raises(taco_cpp.TacoError, match="id is required for level > 0"):
        nested.stats_mean(0, level=1)


def test_stats_nested_levels():
    ds = taco_cpp.load(NESTED_FOLDER)
    assert ds.stats_mean(0, level=1, id="americas", method="upstream") == pytest.approx(81.5167, rel=1e-4)
    # pooled: weighted by valid% (the fixture has no tensor shapes: equal sizes assumed)
    pooled = (98.1 * 98.5 + 96.3 * 0.25 + 97.5 * 145.8) / (98.1 + 96.3 + 97.5)
    assert ds.stats_mean(0, level=1, id="americas") == pytest.approx(pooled, rel=1e-5)
    cat = ds.stats_categorical(0, level=1, id="europe")
    assert cat.dtype == np.float32
    assert cat == pytest.approx([0.4, 0.3333, 0.2667], rel=1e-3)
    both = ds.stats_categorical([0], level=1, id="europe")
    assert both.shape[0] == 1


def test_stats_exact_reads_the_pixels_and_lies_in_the_pooled_bounds(raster_tree, tmp_path, cli_json):
    out = tmp_path / "stats.tacozip"
    taco = taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json", ext=["stac", "stats"])
    taco_cpp.create(taco, out)
    ds = taco_cpp.load(out)
    kw = dict(level=1, file="image.tif")
    # image.tif of tile i: 10i + band + (x+y) % 5, 16x16 pixels, tiles 0..3
    values = sorted(10 * i + (x + y) % 5 for i in range(4) for x in range(16) for y in range(16))
    for name, level in (("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p95", 0.95)):
        truth = values[int(np.ceil(level * len(values))) - 1]
        assert getattr(ds, "stats_" + name)(0, method="exact", **kw) == truth
    assert ds.stats_std(0, method="exact", **kw) == pytest.approx(float(np.std(values)), rel=1e-6)
    assert ds.stats_std(0, **kw) == pytest.approx(float(np.std(values)), rel=1e-5)  # pooled: exact too
    cli = cli_json("stats", out, "--band", "0", "--level", "1", "--file", "image.tif", "--json")
    assert cli["method"] == "pooled" and cli["approximate"] == ["p25", "p50", "p75", "p95"]
    for name in ("p25", "p50", "p75", "p95"):
        low, high = cli["bounds"][name]
        exact = getattr(ds, "stats_" + name)(0, method="exact", **kw)
        assert low <= exact <= high, name
        assert getattr(ds, "stats_" + name)(0, **kw) == pytest.approx(cli[name], rel=1e-6)


def test_concat_two_parts(tmp_path):
    ds = taco_cpp.load(FLAT_ZIP)
    a = ds.sql("SELECT * FROM data_raw WHERE cloud_cover < 30")
    b = ds.sql("SELECT * FROM data_raw WHERE cloud_cover >= 30")
    both = taco_cpp.concat([a, b])
    assert len(both) == 5
    vsi = both.data.column("internal:gdal_vsi").to_pylist()
    sources = both.data_raw.column("internal:source_path").to_pylist()
    assert all(s in v for s, v in zip(sources, vsi))
    assert both.read_bytes(4) == b"content_lima"
    listed = taco_cpp.load([FLAT_ZIP, FLAT_ZIP])
    assert listed.pit_schema.root["n"] == 10


@pytest.mark.parametrize("path", [NESTED_ZIP, NESTED_FOLDER])
def test_concat_of_one_nested_dataset_twice_filters_each_part(path):
    """Issue 24 item 8: the rows twice (as tacoreader), a level-1 filter cascading to each
    part, and each part's surviving children once."""
    ds = taco_cpp.load(path)
    both = taco_cpp.concat([ds, ds])
    assert both.data.column("id").to_pylist() == ds.data.column("id").to_pylist() * 2
    nyc = both.filter_bbox(-74.2, 40.5, -73.8, 40.9, level=1)
    assert nyc.data.column("id").to_pylist() == ["americas", "americas"]
    # One row per part, in the concat's order (the cascade's semi-join alone came back as
    # [1, 0] about one run in four: read/source_order.h keeps the source order).
    assert nyc.data_raw.column("internal:source_part").to_pylist() == [0, 1]
    for row in (0, 1):
        assert nyc.read(row).data.column("id").to_pylist() == ["item_0", "item_2"]
    assert nyc.read(1, 1) == ds.read("americas", "item_2")
    assert len(both.filter_datetime("2023-01-01/2023-01-15", level=1)) == 6


def test_info_equals_cli_json(cli_json):
    for path in (FLAT_ZIP, NESTED_FOLDER):
        assert taco_cpp.info(path) == cli_json("info", "--json", path)
        assert taco_cpp.load(path).info() == cli_json("info", "--json", path)


def test_validate_reports():
    report = taco_cpp.validate(FLAT_ZIP)
    assert isinstance(report, taco_cpp.ValidationReport)
    assert report.format == "zip"
    # the shipped nested ZIP has rotated level-1 offsets (FORMAT §1.5)
    bad = taco_cpp.validate(NESTED_ZIP)
    assert not bad.ok and not bad
    assert any(v["rule"] == "member-offset" for v in bad.violations)
    assert bad.total >= len(bad.violations)


def test_cache_info_and_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("TACO_CACHE_DIR", str(tmp_path / "cache"))
    info = taco_cpp.cache_info()
    assert info["dir"] == str(tmp_path / "cache")
    assert info["entries"] == 0
    assert taco_cpp.cache_clear() == 0


def test_query_returns_arrow(flat):
    t = flat.query("SELECT count(*) AS n FROM level0")
    assert t.column("n").to_pylist() == [5]


def test_repr_html_has_collection_levels_and_pit():
    ds = taco_cpp.load(NESTED_ZIP)
    html = ds._repr_html_()
    assert "test_dataset" in html
    assert "level1" in html and "item_0" in html
    assert "<table>" in html
    view = ds.sql("SELECT * FROM data WHERE id = 'asia'")
    assert "1 FOLDER" in view._repr_html_()
    assert "test_dataset" in repr(ds)


def test_path_objects_and_lists_accepted():
    assert len(taco_cpp.load(FLAT_ZIP)) == len(taco_cpp.load(str(FLAT_ZIP)))
    assert len(taco_cpp.load([FLAT_ZIP])) == 5


def test_load_with_bbox_and_datetime_filters_a_dataset():
    ds = taco_cpp.load(FLAT_ZIP, bbox=(-80, -15, -70, 0), datetime="2023-01-01/2023-06-01")
    assert ds.data.column("location").to_pylist() == ["lima"]


def test_in_process_gdal_path_reads_the_sample(raster_tree, tmp_path, taco_cli):
    from osgeo import gdal

    out = tmp_path / "g.tacozip"
    taco_cli("create", raster_tree / "tiles", out, "--collection", raster_tree / "collection.json", check=True)
    path = taco_cpp.load(out).read("tile_3", "image.tif")
    local = taco_cpp.gdal_path(path, "image.tif")
    assert local.startswith("/vsitaco/")
    a = gdal.Open(local).ReadAsArray()
    b = gdal.Open(str(raster_tree / "tiles/tile_3/image.tif")).ReadAsArray()
    assert (a == b).all()


def test_keys_int_is_position_str_is_id(tmp_path):
    # Issue 16 A: with ids "0", "2", "5", the id "2" is that sample, never position 2.
    from conftest import COLLECTION
    from taco_cpp import Sample, Taco, Tortilla

    samples = [Sample(i, data=f"bytes of {i}".encode()) for i in ("0", "2", "5")]
    out = tmp_path / "digits.tacozip"
    taco_cpp.create(Taco(Tortilla(samples), COLLECTION), out)
    ds = taco_cpp.load(out)
    assert ds.read_bytes("2") == b"bytes of 2"
    assert ds.read_bytes(2) == b"bytes of 5"
    with pytest.raises(taco_cpp.NotFoundError):
        ds.read("7")


def _three_level_zip(tmp_path, parts: int = 1):
    """2 tiles x 2 sensors x 2 bands per part, written by taco_cpp.create (bytes samples);
    with parts > 1 each part is its own ZIP and the result is their .tacocat/."""
    from taco_cpp import Sample, Taco, Tortilla

    from conftest import COLLECTION

    outs = []
    for p in range(parts):
        tiles = [Sample(f"tile{p}{t}", Tortilla([Sample(s, Tortilla([Sample(b, data=f"{p}{t}{s}{b}".encode())
                                                                      for b in ("b1", "b2")]))
                                                 for s in ("s1", "s2")]))
                 for t in range(2)]
        out = tmp_path / f"part{p}.tacozip"
        taco_cpp.create(Taco(Tortilla(tiles), COLLECTION), out)
        outs.append(out)
    if parts == 1:
        return outs[0]
    taco_cpp.tacocat([str(o) for o in outs], tmp_path)
    return tmp_path / ".tacocat"


def test_flat_views_in_query_and_flatten(tmp_path):
    ds = taco_cpp.load(_three_level_zip(tmp_path))
    l2 = ds.query('SELECT "l2:id", "l1:id", "l0:id" FROM l2 ORDER BY 3, 2, 1')
    assert l2.column_names == ["l2:id", "l1:id", "l0:id"] and l2.num_rows == 8
    assert l2.to_pylist()[0] == {"l2:id": "b1", "l1:id": "s1", "l0:id": "tile00"}
    # a user WITH clause and a quoted "l1" inside a string are left alone
    n = ds.query("WITH x AS (SELECT * FROM l1) SELECT count(*) AS n FROM x WHERE 'l1' = 'l1'")
    assert n.column("n").to_pylist() == [4]
    flat = ds.flatten()
    assert flat.column_names[:2] == ["l2:id", "l2:type"] and flat.column_names[-1] == "gdal_vsi"
    assert not any(":internal:" in c for c in flat.column_names) and flat.num_rows == 8
    assert ds.flatten(level=1).num_rows == 0  # level 1 holds FOLDERs only
    top = ds.flatten(sort_by="l0:id", descending=True, limit=3)
    assert top.column("l0:id").to_pylist() == ["tile01"] * 3
    one = ds.sql("SELECT * FROM data WHERE id = 'tile01'")
    assert set(one.flatten().column("l0:id").to_pylist()) == {"tile01"}
    with pytest.raises(ValueError):
        ds.flatten(level=3)


def test_flat_views_of_a_tacocat_join_by_part(tmp_path):
    """Row positions restart in every part: a join on the position alone would pair each child
    with the same-position parent of every part (tacoreader 2.4.21 does)."""
    ds = taco_cpp.load(_three_level_zip(tmp_path, parts=2))
    assert ds.query("SELECT count(*) AS n FROM l1").column("n").to_pylist() == [8]
    assert ds.query("SELECT count(*) AS n FROM l2").column("n").to_pylist() == [16]
    pairs = ds.query('SELECT DISTINCT "l0:id", "l2:id" FROM l2 ORDER BY 1, 2').to_pylist()
    assert len(pairs) == 8 and ds.flatten().num_rows == 16
    paths = ds.flatten().column("gdal_vsi").to_pylist()
    assert len(set(paths)) == 16
