"""Shared fixtures of the taco_cpp pytest suite.

Run by ctest (python/CMakeLists.txt sets PYTHONPATH to the build's package and TACO_CLI to
the build's `taco`), or by hand: `.venv/bin/python -m pytest tests/python` after `make`.
Upstream fixtures: build/fixtures/upstream, written by the ctest fixture step
`upstream_fixtures` (scripts/upstream_fixtures.sh; TACO_FIXTURES overrides, ctest sets it).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _fixtures() -> Path:
    env = os.environ.get("TACO_FIXTURES")
    return Path(env) if env else REPO / "build" / "fixtures" / "upstream"


FIXTURES = _fixtures()
FLAT_ZIP = FIXTURES / "zip" / "flat" / "flat.tacozip"
NESTED_ZIP = FIXTURES / "zip" / "nested" / "nested.tacozip"
FLAT_FOLDER = FIXTURES / "folder" / "flat"
NESTED_FOLDER = FIXTURES / "folder" / "nested"


def _cli() -> str:
    env = os.environ.get("TACO_CLI")
    if env:
        return env
    for candidate in (REPO / "build" / "taco",):
        if candidate.exists():
            return str(candidate)
    found = shutil.which("taco")
    if not found:
        raise RuntimeError("set TACO_CLI to the taco executable")
    return found


@pytest.fixture(scope="session")
def taco_cli():
    """run(*args) → CompletedProcess of the `taco` executable (text mode)."""
    exe = _cli()

    def run(*args, check=False, binary=False):
        return subprocess.run([exe, *map(str, args)], capture_output=True, text=not binary, check=check)

    return run


@pytest.fixture(scope="session")
def cli_json(taco_cli):
    def run(*args):
        r = taco_cli(*args)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    return run


COLLECTION = {
    "id": "pytest_dataset",
    "dataset_version": "1.0.0",
    "description": "written by the taco_cpp tests",
    "licenses": ["CC-BY-4.0"],
    "providers": [{"name": "tests", "roles": ["producer"]}],
    "tasks": ["segmentation"],
}


def write_geotiff(path: Path, value: int, lon: float, lat: float, size: int = 16, bands: int = 2):
    """A small north-up EPSG:4326 GeoTIFF whose pixels are value + band + (x+y) % 5."""
    from osgeo import gdal, osr

    gdal.UseExceptions()
    drv = gdal.GetDriverByName("GTiff")
    ds = drv.Create(str(path), size, size, bands, gdal.GDT_UInt16)
    ds.SetGeoTransform((lon, 0.001, 0, lat, 0, -0.001))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    import numpy as np

    yy, xx = np.mgrid[0:size, 0:size]
    for b in range(bands):
        ds.GetRasterBand(b + 1).WriteArray(((value + b + (xx + yy) % 5)).astype("uint16"))
    ds.FlushCache()
    ds = None


@pytest.fixture(scope="session")
def raster_tree(tmp_path_factory):
    """tiles/<tile_i>/{image.tif, mask.tif} for 4 tiles, plus collection.json and a
    metadata CSV with a timestamp and a label per tile."""
    root = tmp_path_factory.mktemp("tree")
    tiles = root / "tiles"
    places = [(-3.7, 40.4), (2.35, 48.85), (-74.0, 40.7), (139.7, 35.7)]
    for i, (lon, lat) in enumerate(places):
        d = tiles / f"tile_{i}"
        d.mkdir(parents=True)
        write_geotiff(d / "image.tif", 10 * i, lon, lat)
        write_geotiff(d / "mask.tif", i, lon, lat, bands=1)
    (root / "collection.json").write_text(json.dumps(COLLECTION))
    lines = ["path,label,acquired"]
    for i in range(len(places)):
        lines.append(f"tile_{i},{'water' if i % 2 else 'land'},2023-0{i + 1}-15T10:00:00")
    (root / "meta.csv").write_text("\n".join(lines) + "\n")
    return root
