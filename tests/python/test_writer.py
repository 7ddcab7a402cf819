"""The writer API: the model, extensions, create/tacocat/tacollection/convert/export, and
both directions against the CLI (written in Python → read by the CLI; written by the CLI →
read in Python), byte for byte where the CLI writes the same tree."""

import datetime as dt
import json
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import taco_cpp
from taco_cpp import Field, Sample, Taco, Tortilla
from conftest import COLLECTION, FLAT_ZIP


def _members(path: Path) -> dict:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i.filename) for i in z.infolist()}


def _tree_taco(root: Path, **kwargs) -> Taco:
    """The Taco of tiles/<tile>/{image,mask}.tif built with the Python model, as `taco
    create` builds it (folders and files by name)."""
    folders = []
    for tile in sorted((root / "tiles").iterdir()):
        files = [Sample(f.name, f) for f in sorted(tile.iterdir())]
        folders.append(Sample(tile.name, Tortilla(files)))
    return Taco(Tortilla(folders), COLLECTION, **kwargs)


def test_python_written_zip_equals_cli_create(raster_tree, tmp_path, taco_cli):
    py_out = tmp_path / "py.tacozip"
    cli_out = tmp_path / "cli.tacozip"
    assert taco_cpp.create(_tree_taco(raster_tree), py_out) == [str(py_out)]
    r = taco_cli("create", raster_tree / "tiles", cli_out, "--collection", raster_tree / "collection.json")
    assert r.returncode == 0, r.stderr
    py_members, cli_members = _members(py_out), _members(cli_out)
    assert list(py_members) == list(cli_members)
    for name in py_members:
        assert py_members[name] == cli_members[name], name
    # and row for row
    a, b = taco_cpp.load(py_out), taco_cpp.load(cli_out)
    assert a.data_raw.drop(["internal:gdal_vsi"]).equals(b.data_raw.drop(["internal:gdal_vsi"]))


def test_python_from_directory_equals_cli_create_with_metadata(raster_tree, tmp_path, taco_cli):
    py_out = tmp_path / "py"
    cli_out = tmp_path / "cli"
    taco = taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json",
                                   metadata=[raster_tree / "meta.csv"], ext=["stac", "stats"])
    taco_cpp.create(taco, py_out, format="folder")
    r = taco_cli("create", raster_tree / "tiles", cli_out, "--collection", raster_tree / "collection.json",
                 "--metadata", raster_tree / "meta.csv", "--ext", "stac,stats", "--format", "folder")
    assert r.returncode == 0, r.stderr
    files_py = sorted(p.relative_to(py_out) for p in py_out.rglob("*") if p.is_file())
    files_cli = sorted(p.relative_to(cli_out) for p in cli_out.rglob("*") if p.is_file())
    assert files_py == files_cli
    for rel in files_py:
        assert (py_out / rel).read_bytes() == (cli_out / rel).read_bytes(), rel


def test_written_in_python_read_by_cli(raster_tree, tmp_path, taco_cli):
    out = tmp_path / "x.tacozip"
    folders = []
    for i, tile in enumerate(sorted((raster_tree / "tiles").iterdir())):
        image = Sample("image.tif", tile / "image.tif").extend(taco_cpp.Stac(dt.datetime(2023, 1, 1 + i)))
        image.extend(taco_cpp.GeotiffStats())
        mask = Sample("mask.tif", tile / "mask.tif")
        mask.extend(taco_cpp.Stac(dt.datetime(2023, 1, 1 + i)))
        no_stats = taco_cpp.GeotiffStats()
        no_stats.schema_only = True  # the same column, null: masks are left out of the statistics
        mask.extend(no_stats)
        folder = Sample(tile.name, Tortilla([image, mask]))
        folder.extend({"label": "water" if i % 2 else "land", "cloud": float(i), "count": i,
                       "when": dt.datetime(2023, 5, 1, 12, 0, 0)})
        folder.extend([Field("score", 0.5, type="float", description="a float32 column")])
        folders.append(folder)
    taco = Taco(Tortilla(folders), COLLECTION).extend_with(taco_cpp.labels(["land", "water"]))
    taco_cpp.create(taco, out)
    info = json.loads(taco_cli("info", "--json", out, check=True).stdout)
    assert info["id"] == "pytest_dataset"
    assert info["collection"]["labels:num_classes"] == 2
    cols = dict(map(tuple, info["levels"][0]["columns"]))
    assert cols["label"] == "string" and cols["cloud"] == "double" and cols["count"] == "int64"
    assert cols["when"] == "timestamp[us]" and cols["score"] == "float"
    sql = taco_cli("sql", out, "SELECT id, label FROM data WHERE label = 'water' ORDER BY id", "--format", "csv",
                   check=True).stdout
    assert sql.splitlines() == ["id,label", "tile_1,water", "tile_3,water"]
    assert taco_cli("validate", out).returncode == 0
    cat = taco_cli("cat", out, "tile_2", "mask.tif", binary=True)
    assert cat.returncode == 0
    assert cat.stdout == (raster_tree / "tiles/tile_2/mask.tif").read_bytes()
    assert taco_cpp.load(out).read_bytes("tile_2", "mask.tif") == cat.stdout
    # the level-1 stats can be aggregated by the reader
    ds = taco_cpp.load(out)
    assert ds.stats_mean(0, level=1, id="tile_0") > 0
    # statistics of one child file under every level-0 row: image.tif of tile i holds
    # 10i + band + (x+y) % 5 on 16x16 pixels, so the mean over the 4 tiles is 15 + band + m5
    per_file = ds.stats_mean([0, 1], level=1, file="image.tif")
    assert per_file.shape == (2,) and per_file[1] > per_file[0]
    m5 = sum((x + y) % 5 for x in range(16) for y in range(16)) / 256
    assert per_file.tolist() == pytest.approx([15 + m5, 16 + m5], rel=1e-6)
    exact = ds.stats_mean([0, 1], level=1, file="image.tif", method="exact")
    assert exact.tolist() == pytest.approx(per_file.tolist(), rel=1e-6)
    assert ds.stats_max(0, level=1, file="image.tif", method="exact") == 30 + 4


def test_written_by_cli_read_in_python(raster_tree, tmp_path, taco_cli):
    out = tmp_path / "cli.tacozip"
    taco_cli("create", raster_tree / "tiles", out, "--collection", raster_tree / "collection.json",
             "--metadata", raster_tree / "meta.csv", "--ext", "stac", check=True)
    ds = taco_cpp.load(out)
    assert len(ds) == 4
    assert ds.data.column("label").to_pylist() == ["land", "water", "land", "water"]
    assert ds.data.column("acquired").to_pylist()[0] == dt.datetime(2023, 1, 15, 10, 0)
    image = ds.read("tile_1", "image.tif")
    from osgeo import gdal

    g = gdal.Open(image)
    assert g.RasterCount == 2 and g.RasterXSize == 16
    ds1 = ds.filter_bbox(2.3, 48.8, 2.4, 48.9, level=1)
    assert ds1.data.column("id").to_pylist() == ["tile_1"]


def test_model_rules_are_checked():
    with pytest.raises(taco_cpp.InvalidArgumentError, match="a:b"):
        Sample("a:b", data=b"x")
    with pytest.raises(taco_cpp.InvalidArgumentError, match="duplicate"):
        Tortilla([Sample("a", data=b"1"), Sample("a", data=b"2")])
    with pytest.raises(taco_cpp.InvalidArgumentError, match="licenses"):
        Taco(Tortilla([Sample("a", data=b"1")]), {k: v for k, v in COLLECTION.items() if k != "licenses"})
    s = Sample("a", data=b"1")
    with pytest.raises(taco_cpp.InvalidArgumentError):
        s.extend({"bad key!": 1})
    with pytest.raises(ValueError, match="None has no type"):
        s.extend({"x": None})
    with pytest.raises(taco_cpp.InvalidArgumentError, match="expected a value of type int32"):
        s.extend([Field("n", "text", type="int32")])
    with pytest.raises(FileNotFoundError):
        Sample("f", "/no/such/file.tif")
    with pytest.raises(TypeError):
        Sample("f")


def test_sample_fields_roundtrip():
    s = Sample("a", data=b"hello", n=3, x=1.5, tags=["a", "b"], when=dt.datetime(2024, 2, 3, 4, 5, 6),
               nested={"k": 1, "v": "z"})
    assert s.fields == {"n": 3, "x": 1.5, "tags": ["a", "b"], "when": dt.datetime(2024, 2, 3, 4, 5, 6),
                        "nested": {"k": 1, "v": "z"}}
    assert dict(s.schema())["nested"] == "struct<k: int64, v: string>"
    s.pop("n")
    assert "n" not in s.fields
    assert s.type == "FILE" and s.size_bytes == 5


def test_padding_and_non_strict(tmp_path):
    t = Tortilla([Sample("a", data=b"1", x=1), Sample("b", data=b"2", y="z")], pad_to=4, strict_schema=False)
    assert len(t) == 4
    assert [s.id for s in t][2:] == ["__TACOPAD__0", "__TACOPAD__1"]
    out = tmp_path / "p.tacozip"
    taco_cpp.create(Taco(t, COLLECTION), out)
    ds = taco_cpp.load(out)
    assert len(ds) == 2  # padding is hidden
    assert ds.data.column("x").to_pylist() == [1, None]


def test_split_group_by_and_tacocat(tmp_path):
    samples = [Sample(f"s{i}", data=bytes(100), split="train" if i % 2 else "test") for i in range(6)]
    taco = Taco(Tortilla(samples), COLLECTION)
    parts = taco_cpp.create(taco, tmp_path / "g.tacozip", group_by="split")
    assert sorted(Path(p).name for p in parts) == ["g_test.tacozip", "g_train.tacozip"]
    assert (tmp_path / ".tacocat").is_dir()
    cat = taco_cpp.load(tmp_path)
    assert cat.format == "tacocat" and len(cat) == 6
    single = tmp_path / "single"
    single.mkdir()
    # A TACOCAT written away from its ZIPs could not find them: refused (issue 16 A).
    with pytest.raises(taco_cpp.InvalidArgumentError, match="is not inside the output directory"):
        taco_cpp.tacocat(parts, single, single_file=True)
    written = taco_cpp.tacocat(parts, tmp_path, single_file=True)
    assert written.endswith("__TACOCAT__")
    moved = single / "__TACOCAT__"
    Path(written).rename(moved)
    assert len(taco_cpp.load(moved, base_path=tmp_path)) == 6
    split_parts = taco_cpp.create(taco, tmp_path / "s.tacozip", split_size="250", consolidate=False)
    assert len(split_parts) == 3


def test_tacollection_convert_export(tmp_path):
    a = tmp_path / "a.tacozip"
    b = tmp_path / "b.tacozip"
    for path, lo in ((a, 0), (b, 3)):
        taco_cpp.create(Taco(Tortilla([Sample(f"s{i}", data=b"x") for i in range(lo, lo + 3)]), COLLECTION), path)
    collection = taco_cpp.tacollection([a, b])
    assert collection["taco:pit_schema"]["root"]["n"] == 6
    out = taco_cpp.tacollection([a, b], tmp_path / "TACOLLECTION.json")
    assert json.loads(Path(out).read_text()) == collection
    folder = tmp_path / "a_folder"
    taco_cpp.convert(a, folder)
    assert taco_cpp.load(folder).format == "folder"
    assert taco_cpp.load(folder).read_bytes("s1") == b"x"
    sub = taco_cpp.load(FLAT_ZIP).filter_datetime("2023-01-01/2023-02-15")
    written = taco_cpp.export(sub, tmp_path / "sub.tacozip")
    exported = taco_cpp.load(written[0])
    assert len(exported) == 2
    assert exported.collection["taco:subset_of"] == "test_dataset"
    assert exported.read_bytes(1) == b"content_paris"
    with pytest.raises(taco_cpp.AlreadyExistsError):
        taco_cpp.convert(a, folder)


def test_convert_and_export_meta_with_ids(tmp_path):
    """meta_with_ids=True: each __meta__ is its children's rows of their level (tacobridge's
    layout: ids kept, relative_path dropped); default: no internal columns but offset/size."""
    kids = [Sample("b", data=b"bb"), Sample("c", data=b"ccc")]
    more = [Sample("b", data=b"d"), Sample("c", data=b"ee")]
    nested = Taco(Tortilla([Sample("x", Tortilla(kids)), Sample("y", Tortilla(more))]), COLLECTION)
    src = tmp_path / "n.tacozip"
    taco_cpp.create(nested, src)
    taco_cpp.convert(src, tmp_path / "plain")
    taco_cpp.convert(src, tmp_path / "ids", meta_with_ids=True)
    taco_cpp.convert(tmp_path / "ids", tmp_path / "ids.tacozip", meta_with_ids=True)
    taco_cpp.load(src).export(tmp_path / "exp", format="folder", meta_with_ids=True)
    plain = pq.read_table(tmp_path / "plain/DATA/y/__meta__")
    assert not [c for c in plain.column_names if c.startswith("internal:")]
    for root in ("ids", "exp"):
        y = pq.read_table(tmp_path / root / "DATA/y/__meta__")
        assert y.column_names == ["id", "type", "internal:current_id", "internal:parent_id"]
        assert y.to_pylist() == [{"id": "b", "type": "FILE", "internal:current_id": 2, "internal:parent_id": 1},
                                 {"id": "c", "type": "FILE", "internal:current_id": 3, "internal:parent_id": 1}]
    with zipfile.ZipFile(tmp_path / "ids.tacozip") as z:
        x = pq.read_table(pa.BufferReader(z.read("DATA/x/__meta__")))
    assert x.column_names == ["id", "type", "internal:current_id", "internal:parent_id", "internal:offset",
                              "internal:size"]
    assert x.column("internal:current_id").to_pylist() == [0, 1]
    assert x.column("internal:size").to_pylist() == [2, 3]


def test_collection_fragments():
    assert taco_cpp.labels([("a", "cat", "desc"), "b"])["labels:num_classes"] == 2
    assert taco_cpp.optical_data("sentinel2msi[B02,B03]")["optical:num_bands"] == 2
    assert taco_cpp.split_strategy("random") == {"split:strategy": "random"}
    assert taco_cpp.publications([("10.1/x", "X et al.")])["publications"][0]["doi"] == "10.1/x"
    with pytest.raises(taco_cpp.InvalidArgumentError):
        taco_cpp.split_strategy("sometimes")


def test_extensions_compute_and_schema(raster_tree):
    image = raster_tree / "tiles/tile_1/image.tif"
    stac = taco_cpp.Stac(dt.datetime(2023, 1, 1), dt.datetime(2023, 1, 3))
    fields = stac.compute(Sample("image.tif", image))
    assert fields["stac:crs"] == "EPSG:4326"
    assert fields["stac:tensor_shape"] == [2, 16, 16]
    assert fields["stac:time_middle"] == dt.datetime(2023, 1, 2)
    assert [n for n, _ in taco_cpp.Istac().schema()][:2] == ["istac:crs", "istac:geometry"]
    stats = taco_cpp.GeotiffStats().compute(Sample("image.tif", image))["geotiff:stats"]
    assert len(stats) == 2 and len(stats[0]) == 9
    assert taco_cpp.Split("train").compute(Sample("x", data=b"1")) == {"split": "train"}
    with pytest.raises(taco_cpp.InvalidArgumentError):
        taco_cpp.Split("sometimes")
    t = Tortilla([Sample("a", image).extend(taco_cpp.Stac()), Sample("b", image).extend(taco_cpp.Stac())])
    t2 = t.extend_with(taco_cpp.MajorTom())
    assert all(s.fields["majortom:code"] for s in t2)


def test_metadata_parquet_of_python_write_is_readable_by_pyarrow(tmp_path):
    out = tmp_path / "f"
    taco_cpp.create(Taco(Tortilla([Sample("a", data=b"1", v=2)]), COLLECTION), out)
    table = pq.read_table(out / "METADATA" / "level0.parquet")
    assert table.column("v").to_pylist() == [2]


def test_time_column_and_folder_stac(raster_tree, tmp_path, taco_cli, cli_json):
    """from_directory(time_column=) names the metadata column that gives a sample's time (the
    CLI's --time-column), and "stac" also fills the tile FOLDERs from their files, so the
    level-0 bbox and datetime filters and the collection's temporal extent work on the
    image+mask layout; "stats:image.tif" targets one file per tile. Same dataset as the CLI."""
    args = dict(metadata=[raster_tree / "meta.csv"], ext=["stac", "stats:image.tif"], time_column="acquired")
    taco = taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json", **args)
    out = tmp_path / "t.tacozip"
    taco_cpp.create(taco, out)
    ds = taco_cpp.load(out)
    assert ds.extent["temporal"] == ["2023-01-15T10:00:00Z", "2023-04-15T10:00:00Z"]
    assert ds.filter_datetime("2023-02-01/2023-02-28").data.column("id").to_pylist() == ["tile_1"]
    # tile_2 is the 16x16 raster at (-74.0, 40.7): its FOLDER centroid lies in its footprint
    assert ds.filter_bbox(-74.01, 40.68, -73.98, 40.71).data.column("id").to_pylist() == ["tile_2"]
    level1 = ds.sql('SELECT id, "geotiff:stats" AS s FROM level1').data.to_pylist()
    assert {r["id"] for r in level1 if r["s"] is not None} == {"image.tif"}
    # the CLI builds the same thing
    cli_out = tmp_path / "cli.tacozip"
    taco_cli("create", raster_tree / "tiles", cli_out, "--collection", raster_tree / "collection.json",
             "--metadata", raster_tree / "meta.csv", "--ext", "stac,stats:image.tif", "--time-column", "acquired",
             check=True)
    rows = cli_json("filter", cli_out, "--datetime", "2023-02-01/2023-02-28", "--json")
    assert [r["id"] for r in rows] == ["tile_1"]
    assert cli_json("info", "--json", cli_out)["collection"]["extent"] == ds.extent
    with pytest.raises(taco_cpp.InvalidArgumentError, match="no --metadata column"):
        taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json",
                                metadata=[raster_tree / "meta.csv"], ext=["stac"], time_column="nope")
    with pytest.raises(taco_cpp.InvalidArgumentError, match="matches no FILE sample"):
        taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json", ext=["stats:nope.tif"])


def test_stac_on_a_folder_sample_comes_from_its_children(raster_tree):
    """The object API: Stac()/Istac() on a FOLDER sample aggregates its (extended) children."""
    tile = raster_tree / "tiles" / "tile_1"
    children = Tortilla([Sample("image.tif", tile / "image.tif").extend(taco_cpp.Stac(dt.datetime(2023, 1, 1))),
                         Sample("mask.tif", tile / "mask.tif").extend(taco_cpp.Stac(dt.datetime(2023, 1, 5)))])
    folder = Sample("tile_1", children).extend(taco_cpp.Stac())
    f = folder.fields
    assert f["stac:time_start"] == dt.datetime(2023, 1, 1)
    assert f["stac:time_end"] == dt.datetime(2023, 1, 5)
    assert f["stac:crs"] is None and f["stac:centroid"] is not None
    g = Sample("tile_1", children).extend(taco_cpp.Istac()).fields
    assert g["istac:crs"] == "EPSG:4326" and g["istac:geometry"] is not None

def test_load_tacollection_routes_by_bbox_and_datetime(raster_tree, tmp_path, taco_cli):
    """load("TACOLLECTION.json", bbox=, datetime=) opens only the parts whose taco:sources
    extents meet them (ds.parts_skipped counts the others) and returns the rows the same
    filters give on the concat of all parts; the CLI's filter agrees."""
    meta = tmp_path / "meta.csv"
    meta.write_text("path,part,acquired\n" + "".join(
        f"tile_{i},p{min(i, 2)},2023-0{i + 1}-15T10:00:00\n" for i in range(4)))
    taco = taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json", metadata=[meta],
                                   ext=["stac"], time_column="acquired")
    parts = taco_cpp.create(taco, tmp_path / "parts" / "ds.tacozip", group_by="part", consolidate=False)
    assert len(parts) == 3
    index = taco_cpp.tacollection(parts, tmp_path / "parts" / "TACOLLECTION.json")

    whole = taco_cpp.load(index)
    assert whole.parts_skipped is None
    assert sorted(whole.data.column("id").to_pylist()) == ["tile_0", "tile_1", "tile_2", "tile_3"]

    paris = (2.0, 48.0, 3.0, 49.0)
    ds = taco_cpp.load(index, bbox=paris)
    assert ds.parts_skipped == 2
    assert ds.data.column("id").to_pylist() == ["tile_1"]
    assert taco_cpp.load(parts).filter_bbox(*paris).data.column("id").to_pylist() == ["tile_1"]

    ds = taco_cpp.load(index, datetime="2023-03-01/2023-04-30")
    assert ds.parts_skipped == 2  # only p2 (March and April) is opened
    assert sorted(ds.data.column("id").to_pylist()) == ["tile_2", "tile_3"]

    ds = taco_cpp.load(index, bbox=(100, -10, 110, 0))
    assert ds.parts_skipped == 3 and len(ds) == 0

    r = taco_cli("-v", "filter", index, "--bbox", ",".join(map(str, paris)), "--json")
    assert r.returncode == 0, r.stderr
    assert [row["id"] for row in json.loads(r.stdout)] == ["tile_1"]
    assert "2 of 3 parts skipped" in r.stderr
