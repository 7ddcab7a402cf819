"""Issue 24 item 10: `create` of a folder with a GDAL sidecar or another stray file names it,
`--exclude GLOB` / `exclude=` leave entries out, `*.aux.xml` is left out by default.
(The other items of issue 24 are tested in tests/torch/test_issue24.py.)"""

import shutil

import pytest

import taco_cpp as tc


def _tree(raster_tree, root):
    shutil.copytree(raster_tree / "tiles", root)
    (root / "tile_1" / "image.tif.aux.xml").write_text("<PAMDataset/>")  # what GDAL leaves behind
    (root / "tile_2" / "preview.png").write_bytes(b"png")


def test_create_names_the_extra_child_and_excludes(raster_tree, tmp_path, taco_cli):
    src = tmp_path / "src"
    _tree(raster_tree, src)
    collection = raster_tree / "collection.json"
    with pytest.raises(tc.InvalidArgumentError, match=r"has 3 children, expected 2.*'preview.png'"):
        tc.from_directory(src, collection)
    tc.create(tc.from_directory(src, collection, exclude="*.png"), tmp_path / "py.tacozip")
    ds = tc.load(tmp_path / "py.tacozip")
    assert [len(ds.read(i)) for i in range(len(ds))] == [2, 2, 2, 2]
    r = taco_cli("create", src, tmp_path / "cli.tacozip", "--collection", collection)
    assert r.returncode == 2 and "preview.png" in r.stderr, r.stderr
    r = taco_cli("create", src, tmp_path / "cli.tacozip", "--collection", collection,
                 "--exclude", "tile_*/preview.png")
    assert r.returncode == 0, r.stderr
    cli = tc.load(tmp_path / "cli.tacozip")
    assert [len(cli.read(i)) for i in range(len(cli))] == [2, 2, 2, 2]
    assert "image.tif.aux.xml" not in cli.read(1).data.column("id").to_pylist()


def test_gdal_sidecar_alone_is_left_out(raster_tree, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(raster_tree / "tiles", src)
    (src / "tile_0" / "mask.tif.aux.xml").write_text("<PAMDataset/>")
    taco = tc.from_directory(src, raster_tree / "collection.json")
    tc.create(taco, tmp_path / "out.tacozip")
    assert len(tc.load(tmp_path / "out.tacozip").read(0)) == 2
