"""The interoperability matrix: every case written by every writer, in every format, read by
every reader, compared with what the case says (not with another implementation's answer).

Upstream bugs and gaps are asserted as such (test names say `upstream_`), so that a fix upstream
makes the assertion fail and gets noticed.
"""

from __future__ import annotations

import datetime as dt
import json
import pathlib

import duckdb
import pyarrow as pa
import pytest
import shapely

import cases as C
import readers as R
import conftest
from conftest import need_reader, need_writer

CELLS = [(c, w, f) for c in C.CASES for w in C.CASES[c]().writers for f in C.CASES[c]().formats]
READERS = ("taco-cli", "taco_cpp", "tacoreader")


def cell_id(cell):
    return "-".join(cell)


def ordered(reader: str) -> bool:
    # tacoreader's flat level views (l1, l2) come out of a join: compare them as multisets
    return reader != "tacoreader"


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_level_tables(matrix, readers, cell, reader):
    """Every level, value for value (ids, types, every extension column; padding hidden)."""
    case_name, writer, fmt = cell
    need_writer(writer)
    need_reader(readers, reader)
    path = matrix.output(case_name, writer, fmt)
    want = C.expected_levels(matrix.case(case_name).case, padded=True)
    want = [R.public_rows(level) for level in want]
    got = readers[reader].levels(path)
    assert len(got) == len(want), f"{reader} sees {len(got)} levels in {path}, expected {len(want)}"
    case = matrix.case(case_name).case
    if reader == "tacoreader" and case.pad_to:
        # Upstream gap, asserted: tacoreader 2.4.21 hides __TACOPAD__ rows in .data only; its
        # flat level views (l1, ...) show them (tacotoolbox 0.26 writes no padding any more).
        for i in range(1, len(got)):
            pads = [r for r in got[i] if r["id"].startswith("__TACOPAD__")]
            assert len(pads) == padding_rows(case, i), f"tacoreader l{i} shows {len(pads)} padding rows"
            got[i] = [r for r in got[i] if not r["id"].startswith("__TACOPAD__")]
    for i, (g, w) in enumerate(zip(got, want)):
        problem = R.diff_rows(g, w, ordered=ordered(reader) or i == 0)
        assert not problem, f"{reader} reading {writer}'s {fmt} {case_name}, level {i}: {problem}"


def padding_rows(case: C.Case, level: int) -> int:
    """How many __TACOPAD__ rows a level holds when every folder is padded to case.pad_to."""
    nodes = case.roots
    for _ in range(level - 1):
        nodes = [c for n in nodes if n.is_folder for c in n.children]
    return sum((-len(n.children)) % case.pad_to for n in nodes if n.is_folder)


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("cell", CELLS, ids=cell_id)
def test_navigation_bytes(matrix, readers, cell, reader):
    """Navigation by ids to every FILE sample gives that sample's bytes."""
    case_name, writer, fmt = cell
    need_writer(writer)
    need_reader(readers, reader)
    path = matrix.output(case_name, writer, fmt)
    for keys, data in C.file_paths(matrix.case(case_name).case):
        got = readers[reader].file_bytes(path, keys)
        assert got == data, f"{reader}: {'/'.join(keys)} in {writer}'s {fmt} gives {len(got)} bytes " \
                            f"{got[:24]!r}, expected {len(data)} bytes {data[:24]!r}"


def expected_filter(case: C.Case, kind: str, arg) -> list[str]:
    """The level-0 ids a filter must keep, computed from the case itself: shapely for bbox
    (planar, closed), UTC calendar dates for datetime, DuckDB over the typed level-0 values
    for SQL."""
    roots = case.roots
    if kind == "bbox":
        box = shapely.box(*arg)
        return [n.id for n in roots if shapely.intersects(shapely.from_wkb(n.ext["istac:geometry"][1]), box)]
    if kind == "datetime":
        a, _, b = arg.partition("/")
        lo = dt.date.fromisoformat(a)
        hi = dt.date.fromisoformat(b) if b else lo
        return [n.id for n in roots if lo <= n.ext["istac:time_start"][1].date() <= hi]
    cols = {"id": pa.array([n.id for n in roots]),
            "type": pa.array(["FOLDER" if n.is_folder else "FILE" for n in roots])}
    for k, (t, _) in roots[0].ext.items():
        cols[k] = pa.array([n.ext[k][1] for n in roots], type=t)
    data = pa.table(cols)  # noqa: F841  (DuckDB reads the local Arrow table by its name)
    con = duckdb.connect()
    return [r[0] for r in con.execute(arg.replace("SELECT *", "SELECT id")).fetchall()]


FILTERS = []
for _name, _make in C.CASES.items():
    _case = _make()
    FILTERS += [(_name, "bbox", b) for b in _case.bboxes]
    FILTERS += [(_name, "datetime", d) for d in _case.datetimes]
    FILTERS += [(_name, "sql", q) for q in _case.sqls]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("flt", FILTERS, ids=lambda f: f"{f[0]}-{f[1]}-{f[2]}")
def test_filters(matrix, readers, flt, reader):
    """bbox / datetime / SQL filters keep the same level-0 ids in every reader, on every
    writer's file of the case."""
    case_name, kind, arg = flt
    need_reader(readers, reader)
    b = matrix.case(case_name)
    want = expected_filter(b.case, kind, arg)
    r = readers[reader]
    for writer in b.case.writers:
        if writer == "taco_cpp" and "taco_cpp" not in readers:
            continue
        for fmt in b.case.formats:
            path = matrix.output(case_name, writer, fmt)
            got = {"bbox": r.bbox, "datetime": r.datetime, "sql": r.sql_ids}[kind](path, arg)
            assert sorted(got) == sorted(want), f"{reader} {kind} {arg!r} on {writer}'s {fmt}: {got}, expected {want}"


def _toolbox_zip_cells():
    return [(c, f) for c, w, f in CELLS if w == "tacotoolbox"]


def _unsorted_depth(case: C.Case) -> bool:
    """True when the toolbox's positional level>=1 offsets go wrong (FORMAT §10.1): the
    case has levels >= 1 and some folder ids at a level are not in byte order."""
    def walk(nodes):
        ids = [n.id for n in nodes if n.is_folder]
        if ids != sorted(ids, key=lambda s: s.encode()):
            return True
        return any(walk(n.children) for n in nodes if n.is_folder)
    return any(n.is_folder for n in case.roots) and walk(case.roots)


@pytest.mark.parametrize("cell", _toolbox_zip_cells(), ids=lambda c: "-".join(c))
def test_validate_passes_on_upstream(matrix, cli, cell):
    """`taco validate` accepts everything tacotoolbox writes, except its known bug: in a ZIP
    with unsorted folder ids the level>=1 offsets are attached by position, and validate
    must name exactly those rows (member-offset) and nothing else."""
    case_name, fmt = cell
    for path in containers(matrix.output(case_name, "tacotoolbox", fmt)):
        p = cli.validate(path)
        report = json.loads(p.stdout) if p.stdout.strip() else {}
        if fmt == "zip" and _unsorted_depth(matrix.case(case_name).case):
            assert p.returncode == 1, f"upstream bug fixed? validate passes on {path}: {p.stdout[:400]}"
            rules = {v["rule"] for v in report["violations"]}
            assert rules == {"member-offset"}, f"{path}: {rules}"
            assert all(v["where"].startswith("level") and not v["where"].startswith("level0")
                       for v in report["violations"]), report["violations"][:3]
        else:
            assert p.returncode == 0, f"taco validate on tacotoolbox's {path}: {p.stdout[:600]} {p.stderr[:300]}"


def containers(path: str) -> list[str]:
    """The datasets `taco validate` checks: the path itself, or a .tacocat/'s ZIP parts."""
    if path.endswith(".tacocat"):
        parts = sorted(str(p) for p in pathlib.Path(path).parent.glob("*.tacozip"))
        assert len(parts) >= 2, f"{path}: expected several parts beside it, found {parts}"
        return parts
    return [path]


@pytest.mark.parametrize("writer", ("taco-cli", "taco_cpp"))
@pytest.mark.parametrize("case_name", [c for c in C.CASES if "taco-cli" in C.CASES[c]().writers])
def test_validate_passes_on_ours(matrix, cli, case_name, writer):
    need_writer(writer)
    for fmt in matrix.case(case_name).case.formats:
        for path in containers(matrix.output(case_name, writer, fmt)):
            p = cli.validate(path)
            assert p.returncode == 0, f"taco validate on {writer}'s {path}: {p.stdout[:600]}"


def test_upstream_level1_offsets_bug_and_ours(matrix, readers):
    """tacotoolbox 0.26.9 (FORMAT §10.1): the consolidated level-1 offsets of a ZIP whose
    level-0 ids are not sorted point at other samples' bytes; tacoreader's flat level view
    reports them as they are. Ours point at the right bytes. Navigation (via __meta__) is
    right for both (test_navigation_bytes)."""
    tr = readers["tacoreader"]
    case = matrix.case("nested").case
    truth = {"/".join(p): d for p, d in C.file_paths(case)}

    def wrong_rows(path: str) -> list[str]:
        bad = []
        for r in tr.raw_level(path, 1):
            if r["type"] != "FILE":
                continue
            key = r["internal:relative_path"]
            if R.read_vsi(r["internal:gdal_vsi"]) != truth[key]:
                bad.append(key)
        return bad

    upstream = wrong_rows(matrix.output("nested", "tacotoolbox", "zip"))
    assert upstream, "tacotoolbox's level-1 offsets are right now: the upstream bug is fixed, update FORMAT §10.1"
    assert all(k.endswith("/label") for k in upstream) or len(upstream) >= 2
    assert wrong_rows(matrix.output("nested", "taco-cli", "zip")) == []


def test_upstream_taco_eo_reads_only_its_own_format(matrix):
    """taco-eo 0.14.2 reads TACO 3.0 (COLLECTION.json taco:version 3.0.0, cozip archives,
    sample.parquet); it refuses TACO 2.0 files from every writer with a ContainerError. When it
    learns TACO 2.0, this fails: then add it as a reader of the matrix."""
    paths = []
    for case_name, writer, fmt in CELLS:
        if writer == "taco_cpp" and conftest.taco_cpp_module() is None:
            continue
        paths.append(matrix.output(case_name, writer, fmt))
    results = R.taco_eo_open(paths)
    for p in paths:
        assert results[p].startswith("ContainerError"), f"taco-eo on {p}: {results[p]}"


@pytest.mark.parametrize("fmt", ("zip", "folder"))
@pytest.mark.parametrize("case_name", ("flat", "nested"))
def test_collection_and_pit(matrix, cli, case_name, fmt):
    """The collection fields and the pit schema agree between tacotoolbox's and our file.
    Known differences, asserted: tacotoolbox writes taco_version 0.5.0 (FORMAT §10.7) and a
    pit `shape` array (its virtual padding, 0.26); we write 2.0.0 and no shape."""
    def coll(path):
        return cli.json("info", "--json", path)

    up, ours = coll(matrix.output(case_name, "tacotoolbox", fmt)), coll(matrix.output(case_name, "taco-cli", fmt))
    for k in ("id", "dataset_version", "description", "licenses", "tasks", "title", "keywords"):
        assert up["collection"].get(k) == ours["collection"].get(k), k
    assert [p["name"] for p in up["collection"]["providers"]] == [p["name"] for p in ours["collection"]["providers"]]
    assert up["collection"]["taco_version"] == "0.5.0" and ours["collection"]["taco_version"] == "2.0.0"
    assert "shape" in up["pit_schema"] and "shape" not in ours["pit_schema"]
    assert up["pit_schema"]["root"] == ours["pit_schema"]["root"]
    assert up["pit_schema"]["hierarchy"] == ours["pit_schema"]["hierarchy"]


# Percentiles are approximations on both sides (tacotoolbox: bin centres of a 100-bucket GDAL
# histogram between the band's min and max; taco-cpp: its own histogram): measured within 3
# of those buckets on the matrix's GeoTIFFs.
PCT_BUCKETS = 3


def test_computed_stats_agree(matrix, cli, tmp_path):
    """`taco create --ext stats` computes the same geotiff:stats as tacotoolbox's GeotiffStats
    on the same GeoTIFFs: min/max/mean/std/valid% to float32 precision, percentiles within
    PCT_BUCKETS buckets of tacotoolbox's histogram. Known difference,
    asserted: tacotoolbox applies the sample's Scaling extension to the statistics (x * factor
    + offset; std * factor), `taco create --ext stats` stores the raw pixel statistics."""
    b = matrix.case("flat")
    meta = C.metadata_table(b.case).drop_columns(["geotiff:stats"])
    import pyarrow.parquet as pq

    pq.write_table(meta, tmp_path / "meta.parquet")
    coll = tmp_path / "c.json"
    coll.write_text(json.dumps(b.case.collection), encoding="utf-8")
    out = tmp_path / "stats.tacozip"
    cli.run("create", str(b.src), str(out), "--collection", str(coll), "--metadata", str(tmp_path / "meta.parquet"),
            "--ext", "stats")
    rows = {r["id"]: r["geotiff:stats"] for r in cli.json("sql", str(out), 'SELECT id, "geotiff:stats" FROM data', "--json")}
    for n in b.case.roots:
        up = n.ext["geotiff:stats"][1]
        f, o = n.ext["scaling:scale_factor"][1], n.ext["scaling:scale_offset"][1]
        assert f != 1.0
        got = [[(x * f if i == 3 else x if i == 4 else x * f + o) for i, x in enumerate(band)] for band in rows[n.id]]
        assert len(got) == len(up), n.id
        for band, (g, u) in enumerate(zip(got, up)):
            assert len(g) == len(u) == 9, (n.id, band, g, u)
            lo, hi = u[0], u[1]
            bucket = (hi - lo) / 100 if hi > lo else abs(f)
            for i, (x, y) in enumerate(zip(g, u)):
                tol = bucket * 1.01 * PCT_BUCKETS if i >= 5 else max(abs(y) * 1e-5, abs(f) * 1e-3)
                assert abs(x - y) <= tol, f"{n.id} band {band} value {i}: ours {x}, tacotoolbox {y}"


def test_upstream_tacobridge_export_with_tacoreader_2_4_21(matrix, tmp_path):
    """tacobridge 0.3.0 cannot export a dataset loaded by tacoreader 2.4.21: its plan reads
    TacoDataset._joined_levels, which 2.4.21 no longer has (AttributeError), whoever wrote the
    file. Asserted so that a fixed pair of releases gets noticed (then compare its output with
    `taco export` here). `taco export` of the same subset is checked by taco's own tests."""
    import tacobridge
    import tacoreader

    for writer in ("tacotoolbox", "taco-cli"):
        ds = tacoreader.load(matrix.output("flat", writer, "zip")).filter_datetime("2023-01-01/2023-12-31")
        with pytest.raises(AttributeError, match="_joined_levels"):
            tacobridge.export(ds, tmp_path / f"{writer}.tacozip", progress=False)
