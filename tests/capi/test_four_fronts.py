"""The same five queries — SQL, bbox, datetime, navigation, stats — through the CLI, the
Python package, the C ABI (capi_query) and the R package, on the ZIP and the FOLDER that
`taco demo` writes: every answer must be identical (stats compared as float32, the type the
library computes). Also: the pixels terra reads from R's taco_read(ds, 0, "before.tif") equal
those GDAL reads from the loose file.

Run by ctest (capi_four_fronts) with TACO_CLI, TACO_CAPI_QUERY, TACO_DEMO_DIR, TACO_BUILD_DIR
set; it stages libtaco (cmake --install) and installs the R package into a temporary library.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from osgeo import gdal

import taco_cpp

CLI = os.environ["TACO_CLI"]
CAPI_QUERY = os.environ["TACO_CAPI_QUERY"]
DEMO = os.environ["TACO_DEMO_DIR"]
BUILD = os.environ["TACO_BUILD_DIR"]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SQL = "SELECT * FROM data WHERE split = 'validation' ORDER BY id"
BBOX = (-10.0, 35.0, 5.0, 44.0)
DATETIME = "2021-01-15/2021-02-20"
POSITION, FILE = 5, "label.tif"
STATS_FILE = "before.tif"
DATASETS = ["demo.tacozip", "demo"]
BANDS = [0, 1, 2, 3]
MEASURES = ["mean", "std", "min", "max", "p25", "p50", "p75", "p95"]


def run(args, **kw):
    done = subprocess.run(args, capture_output=True, **kw)
    assert done.returncode == 0, f"{args[0]} failed: {done.stderr.decode(errors='replace')}"
    return done.stdout


@pytest.fixture(scope="module")
def r_answers(tmp_path_factory):
    """R's answers for every dataset, from one Rscript session (R and terra start slowly)."""
    work = tmp_path_factory.mktemp("r")
    prefix, lib = work / "prefix", work / "lib"
    lib.mkdir()
    run(["cmake", "--install", BUILD, "--component", "capi", "--prefix", str(prefix)])
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    pkg = work / "pkg"
    run(["cp", "-r", os.path.join(SOURCE, "r"), str(pkg)])
    run(["R", "CMD", "INSTALL", "--no-test-load", "-l", str(lib), str(pkg)], env=env)
    env["R_LIBS"] = str(lib)
    paths = [os.path.join(DEMO, name) for name in DATASETS]
    return json.loads(run(["Rscript", os.path.join(SOURCE, "tests", "capi", "four_fronts.R"), *query_args(None)[1:],
                           STATS_FILE, *paths], env=env))


def query_args(path):
    return [path, SQL, *(str(v) for v in BBOX), DATETIME, str(POSITION), FILE, STATS_FILE]


def from_cli(path):
    ids = lambda out: [row["id"] for row in json.loads(out)]
    stats = json.loads(run([CLI, "stats", path, "--band", ",".join(map(str, BANDS)), "--level", "1",
                            "--file", STATS_FILE, "--json"]))
    return {
        "sql": ids(run([CLI, "sql", path, SQL, "--format", "json"])),
        "bbox": ids(run([CLI, "filter", path, "--bbox", ",".join(map(str, BBOX)), "--json", "--columns", "id"])),
        "datetime": ids(run([CLI, "filter", path, "--datetime", DATETIME, "--json", "--columns", "id"])),
        "read": json.loads(run([CLI, "read", path, f"@{POSITION}", FILE, "--json"]))["gdal_path"],
        "read_size": len(run([CLI, "cat", path, f"@{POSITION}", FILE])),
        "stats": {m: stats[m] for m in MEASURES},
    }


def from_python(path):
    ds = taco_cpp.load(path)
    ids = lambda view: view.data.column("id").to_pylist()
    return {
        "sql": ids(ds.sql(SQL)),
        "bbox": ids(ds.filter_bbox(*BBOX)),
        "datetime": ids(ds.filter_datetime(DATETIME)),
        "read": ds.read(POSITION, FILE),
        "read_size": len(ds.read_bytes(POSITION, FILE)),
        "stats": {m: getattr(ds, f"stats_{m}")(BANDS, level=1, file=STATS_FILE).tolist() for m in MEASURES},
    }


def from_c(path):
    out = json.loads(run([CAPI_QUERY, *query_args(path)]))
    out["stats"] = {m: out["stats"][m] for m in MEASURES}
    return out


def normalized(answer):
    out = dict(answer)
    out["stats"] = {m: np.asarray(answer["stats"][m], dtype=np.float32).tolist() for m in MEASURES}
    out.pop("pixels", None)
    return out


@pytest.mark.parametrize("name", DATASETS)
def test_four_fronts_agree(name, r_answers):
    path = os.path.join(DEMO, name)
    answers = {"cli": from_cli(path), "python": from_python(path), "c": from_c(path)}
    r = r_answers[path]
    answers["r"] = r
    reference = normalized(answers["cli"])
    # The queries select something and not everything, so that agreement means something.
    for key in ("sql", "bbox", "datetime"):
        assert 0 < len(reference[key]) < 48, (key, reference[key])
    assert reference["read_size"] > 0 and reference["stats"]["mean"][0] > 0
    for front, answer in answers.items():
        assert normalized(answer) == reference, front

    # terra through taco_read() == GDAL on the loose file the sample was made from.
    loose = gdal.Open(os.path.join(DEMO, "tiles", "tile_00", "before.tif")).ReadAsArray()
    assert loose.size > 0
    assert np.array_equal(np.asarray(r["pixels"], dtype=loose.dtype), loose.reshape(-1))
