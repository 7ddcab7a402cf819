"""TACOCAT files that leave the dataset's directory through a symbolic link (issue 29.9):
an index file (level Parquet, COLLECTION.json) is refused on open, as a FOLDER dataset's
are; a source ZIP that navigation refuses is an `outside-link` violation of `validate`."""

import json
import shutil

import pytest

import taco_cpp


@pytest.fixture()
def tacocat(raster_tree, taco_cli, tmp_path):
    base = tmp_path / "cat"
    base.mkdir()
    for name in ("a", "b"):
        r = taco_cli("create", raster_tree / "tiles", base / f"{name}.tacozip",
                     "--collection", raster_tree / "collection.json")
        assert r.returncode == 0, r.stderr
    r = taco_cli("tacocat", base / "a.tacozip", base / "b.tacozip")
    assert r.returncode == 0, r.stderr
    outside = tmp_path / "outside"
    outside.mkdir()
    assert taco_cli("validate", base / ".tacocat").returncode == 0
    return base, outside


def _link_out(path, outside):
    target = outside / path.name
    shutil.move(path, target)
    path.symlink_to(target)


@pytest.mark.parametrize("member", ["level0.parquet", "level1.parquet", "COLLECTION.json"])
def test_an_index_file_linked_outside_is_refused(tacocat, taco_cli, member):
    base, outside = tacocat
    _link_out(base / ".tacocat" / member, outside)
    for args in (("sql", base / ".tacocat", "SELECT count(*) FROM data"), ("validate", base / ".tacocat")):
        r = taco_cli(*args)
        assert r.returncode == 2, (args, r.stdout)
        assert "outside the dataset directory" in r.stderr and member in r.stderr, r.stderr
    with pytest.raises(taco_cpp.TacoError, match="outside the dataset directory"):
        taco_cpp.load(str(base / ".tacocat"))


def test_a_source_zip_linked_outside_is_a_violation(tacocat, taco_cli):
    base, outside = tacocat
    _link_out(base / "b.tacozip", outside)
    r = taco_cli("validate", base / ".tacocat", "--json")
    assert r.returncode == 1, r.stdout + r.stderr
    rules = [(v["rule"], v["where"]) for v in json.loads(r.stdout)["violations"]]
    assert ("outside-link", "b.tacozip") in rules, rules
    report = taco_cpp.validate(str(base / ".tacocat"))
    assert any(v["rule"] == "outside-link" for v in report.violations), report.violations
