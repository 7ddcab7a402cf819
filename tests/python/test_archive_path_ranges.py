"""A ZIP sample's byte range is looked up by its archive path (FORMAT §1.5), not taken from
the stored level offsets (issue 24 item 1, issue 29: swapped offsets served silently).

tacotoolbox writes the level-1 offsets of a ZIP positionally, so that they point at another
tile's members when the level-0 ids are not sorted; a damaged or crafted level Parquet can do
the same. Here the consolidated level 1 of a ZIP is rewritten with the `image.tif` ranges
rotated across tiles (the `__meta__` members intact, as upstream writes them), next to a
control rewritten the same way without the rotation. Every front that reports or reads a
sample's range — `taco sql` over level1, `taco files`, exact statistics of a subset — must
give the control's answer.
"""

import importlib.util
import io
import json
import shutil
import sys

import pytest

import taco_cpp
from conftest import REPO


def _campaign():
    """scripts/mutation_campaign.py (its ZIP and Parquet rewriting helpers)."""
    spec = importlib.util.spec_from_file_location("mutation_campaign", REPO / "scripts" / "mutation_campaign.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation_campaign", module)
    spec.loader.exec_module(module)
    return module


def _rewrite_level1(path, rotate: bool):
    """Level 1 of the ZIP at `path` rewritten (uncompressed PLAIN, so sizes match); with
    rotate=True the image.tif rows take the range of the next tile's image.tif."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    mc = _campaign()
    z = mc.Zip(path)
    _, start, size = z.members["METADATA/level1.parquet"]
    table = pq.read_table(io.BytesIO(bytes(z.data[start:start + size])))
    ids = table.column("id").to_pylist()
    images = [i for i, v in enumerate(ids) if v == "image.tif"]
    assert len(images) >= 2, ids
    columns = {}
    for name in table.column_names:
        values = table.column(name).to_pylist()
        if rotate and name in ("internal:offset", "internal:size"):
            old = [values[i] for i in images]
            for k, i in enumerate(images):
                values[i] = old[(k + 1) % len(old)]
        columns[name] = pa.array(values, type=table.schema.field(name).type)
    mc.zip_replace_members(path, {"METADATA/level1.parquet": mc.write_parquet(pa.table(columns, schema=table.schema))})


@pytest.fixture(scope="module")
def shifted(raster_tree, taco_cli, tmp_path_factory):
    """(control ZIP, shifted ZIP), both in directories of the same name length."""
    root = tmp_path_factory.mktemp("ranges")
    made = []
    for name, rotate in (("control", False), ("shifted", True)):
        (root / name).mkdir()
        out = root / name / "ds.tacozip"
        r = taco_cli("create", raster_tree / "tiles", out, "--collection", raster_tree / "collection.json")
        assert r.returncode == 0, r.stderr
        _rewrite_level1(out, rotate)
        made.append(out)
    return made


def _ranges(taco_cli, path):
    r = taco_cli("sql", path, 'SELECT "internal:relative_path" AS p, "internal:offset" AS o, "internal:size" AS s, '
                 '"internal:gdal_vsi" AS g FROM level1 ORDER BY p', "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    for row in rows:  # the GDAL path carries the same range
        assert row["g"].startswith(f"/vsisubfile/{row['o']}_{row['s']},"), row
        row["g"] = row["g"].split(",", 1)[0]
    return rows


def test_the_rotation_really_moved_the_stored_offsets(shifted):
    import pyarrow.parquet as pq

    mc = _campaign()
    stored = []
    for path in shifted:
        z = mc.Zip(path)
        _, start, size = z.members["METADATA/level1.parquet"]
        stored.append(pq.read_table(io.BytesIO(bytes(z.data[start:start + size]))).column("internal:offset").to_pylist())
    assert stored[0] != stored[1]


def test_sql_over_level1_gives_the_members_ranges(shifted, taco_cli):
    control, bad = shifted
    assert _ranges(taco_cli, bad) == _ranges(taco_cli, control)


def test_files_gives_the_members_ranges(shifted, taco_cli):
    control, bad = shifted
    outs = []
    for path in (control, bad):
        r = taco_cli("files", path, "--format", "csv")
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.replace(str(path.parent), "<dir>"))
    assert outs[1] == outs[0]


def test_exact_stats_of_a_subset_read_the_right_rasters(shifted):
    control, bad = shifted
    values = []
    for path in (control, bad):
        one = taco_cpp.load(str(path)).sql("SELECT * FROM data WHERE id = 'tile_0'")
        values.append(float(one.stats_mean(0, level=1, file="image.tif", method="exact")))
    assert values[1] == pytest.approx(values[0])


def test_reading_through_python_gives_the_tiles_own_bytes(shifted):
    control, bad = shifted
    a = taco_cpp.load(str(control))
    b = taco_cpp.load(str(bad))
    for tile in ("tile_0", "tile_1", "tile_3"):
        assert b.read_bytes(tile, "image.tif") == a.read_bytes(tile, "image.tif")


def test_a_missing_member_is_refused_not_served(shifted, taco_cli, tmp_path):
    """A level-1 row whose archive path names no member: the query fails and says so."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    control, _ = shifted
    path = tmp_path / "ds.tacozip"
    shutil.copy(control, path)
    mc = _campaign()
    z = mc.Zip(path)
    _, start, size = z.members["METADATA/level1.parquet"]
    table = pq.read_table(io.BytesIO(bytes(z.data[start:start + size])))
    rel = table.column("internal:relative_path").to_pylist()
    rel[0] = rel[0].rsplit("/", 1)[0] + "/nope.tif"
    ids = table.column("id").to_pylist()
    ids[0] = "nope.tif"
    table = table.set_column(table.schema.get_field_index("internal:relative_path"), "internal:relative_path",
                             pa.array(rel, type=pa.string()))
    table = table.set_column(table.schema.get_field_index("id"), "id", pa.array(ids, type=pa.string()))
    mc.zip_replace_members(path, {"METADATA/level1.parquet": mc.write_parquet(table)})
    r = taco_cli("sql", path, 'SELECT "internal:gdal_vsi" FROM level1', "--format", "csv")
    assert r.returncode == 2, r.stdout
    assert "has no member named 'DATA/" in r.stderr and "/nope.tif'" in r.stderr, r.stderr


def test_a_central_directory_that_disagrees_with_the_local_header_is_refused(shifted, taco_cli, tmp_path):
    """The range is looked up in the central directory: one whose entry's size was damaged
    must not hand out that size (found by the mutation campaign) — the query fails, naming
    the member, as `validate` does."""
    import struct

    control, _ = shifted
    data = bytearray(control.read_bytes())
    name = b"DATA/tile_1/image.tif"
    at = data.rfind(b"PK\x01\x02", 0, data.rfind(name))  # the central directory entry of `name`
    assert at > 0 and data[at + 46:at + 46 + len(name)] == name
    size = struct.unpack_from("<I", data, at + 20)[0]
    struct.pack_into("<I", data, at + 20, size + 8)
    path = tmp_path / "ds.tacozip"
    path.write_bytes(bytes(data))
    r = taco_cli("sql", path, 'SELECT "internal:gdal_vsi" FROM level1', "--format", "csv")
    assert r.returncode == 2, r.stdout
    assert "the central directory and the local header of 'DATA/tile_1/image.tif' disagree" in r.stderr, r.stderr
