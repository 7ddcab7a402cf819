"""Fixtures of the taco_cpp.torch / taco_cpp.dask tests: small generated GeoTIFF datasets
(written with taco_cpp.create) and nginx on a loopback port.

Run by ctest (python_torch, python_dask; python/CMakeLists.txt sets PYTHONPATH to the
build's package), or by hand: `PYTHONPATH=build/python .venv/bin/python -m pytest tests/torch`.
"""

from __future__ import annotations

import os
import signal
import shutil
import socket
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

N_TILES = 24
SIZE = 32

COLLECTION = {
    "id": "torch_tests",
    "dataset_version": "1.0.0",
    "description": "written by the taco_cpp.torch tests",
    "licenses": ["CC-BY-4.0"],
    "providers": [{"name": "tests", "roles": ["producer"]}],
    "tasks": ["segmentation"],
}


def write_tif(path: Path, array: np.ndarray, lon: float, lat: float):
    """A DEFLATE GeoTIFF (EPSG:4326) of array (bands, rows, cols)."""
    from osgeo import gdal, osr

    gdal.UseExceptions()
    types = {np.dtype("uint16"): gdal.GDT_UInt16, np.dtype("uint8"): gdal.GDT_Byte, np.dtype("int16"): gdal.GDT_Int16,
             np.dtype("float32"): gdal.GDT_Float32}
    bands, rows, cols = array.shape
    ds = gdal.GetDriverByName("GTiff").Create(str(path), cols, rows, bands, types[array.dtype],
                                              options=["COMPRESS=DEFLATE", "TILED=YES", "BLOCKXSIZE=16",
                                                       "BLOCKYSIZE=16"])
    ds.SetGeoTransform((lon, 0.001, 0, lat, 0, -0.001))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(4326)
    ds.SetProjection(srs.ExportToWkt())
    for b in range(bands):
        ds.GetRasterBand(b + 1).WriteArray(array[b])
    ds.FlushCache()
    ds = None


def gdal_read(path) -> np.ndarray:
    """What GDAL reads from a loose file, as (bands, rows, cols)."""
    from osgeo import gdal

    gdal.UseExceptions()
    a = gdal.Open(str(path)).ReadAsArray()
    return a[None] if a.ndim == 2 else a


class Data:
    """Paths of the generated datasets."""

    def __init__(self, root: Path):
        self.root = root
        self.loose = root / "loose"
        self.nested_zip = root / "nested.tacozip"
        self.nested_folder = root / "nested_folder"
        self.flat_zip = root / "flat.tacozip"
        self.deep_zip = root / "deep.tacozip"
        self.ids = [f"tile_{i:02d}" for i in range(N_TILES)]

    def image(self, i: int) -> Path:
        return self.loose / self.ids[i] / "image.tif"

    def mask(self, i: int) -> Path:
        return self.loose / self.ids[i] / "mask.tif"


def tile_samples(data: Data, n: int = N_TILES):
    import taco_cpp as tc

    samples = []
    for i in range(n):
        image = tc.Sample("image.tif", data.image(i))
        mask = tc.Sample("mask.tif", data.mask(i))
        fields = {
            "label": "water" if i % 3 == 0 else "land",
            "cloud": float(i) / 4,
            "count": i,
            "note": tc.Field("note", None if i % 2 else f"n{i}", type="string"),
        }
        samples.append(tc.Sample(data.ids[i], tc.Tortilla([image, mask]), **fields))
    return samples


def zip_with_a_one_band_sample(data: Data, tmp_path: Path, n: int, bad: int) -> Path:
    """A ZIP of `n` samples s0..s{n-1} (image.tif only); sample `bad`'s image has 1 band where the
    others have 4, so `bands=[3]` fails at that sample only."""
    import taco_cpp as tc

    samples = []
    for i in range(n):
        path = data.image(i)
        if i == bad:
            path = tmp_path / "one_band.tif"
            write_tif(path, np.zeros((1, 32, 32), np.uint16), 0, 0)
        samples.append(tc.Sample(f"s{i}", tc.Tortilla([tc.Sample("image.tif", path)])))
    out = tmp_path / "bad.tacozip"
    tc.create(tc.Taco(tc.Tortilla(samples), id="bad", dataset_version="1", description="d", licenses=["MIT"],
                      providers=[{"name": "t"}], tasks=["classification"]), out)
    return out


@pytest.fixture(scope="session")
def data(tmp_path_factory) -> Data:
    import taco_cpp as tc

    d = Data(tmp_path_factory.mktemp("torchdata"))
    rng = np.random.default_rng(7)
    for i in range(N_TILES):
        folder = d.loose / d.ids[i]
        folder.mkdir(parents=True)
        lon, lat = -10 + i, 40 + (i % 5)
        write_tif(folder / "image.tif", rng.integers(0, 60000, size=(4, SIZE, SIZE), dtype=np.uint16), lon, lat)
        write_tif(folder / "mask.tif", rng.integers(0, 4, size=(1, SIZE, SIZE), dtype=np.uint8), lon, lat)
    taco = tc.Taco(tc.Tortilla(tile_samples(d)), COLLECTION)
    tc.create(taco, d.nested_zip)
    tc.create(taco, d.nested_folder, format="folder")
    flat = [tc.Sample(d.ids[i] + ".tif", d.image(i), index=i) for i in range(N_TILES)]
    tc.create(tc.Taco(tc.Tortilla(flat), COLLECTION), d.flat_zip)
    deep = []
    for i in range(4):
        sensor = tc.Sample("sensor_A", tc.Tortilla([tc.Sample("band.tif", d.image(i))]))
        deep.append(tc.Sample(d.ids[i], tc.Tortilla([sensor, tc.Sample("mask.tif", d.mask(i))])))
    tc.create(tc.Taco(tc.Tortilla(deep), COLLECTION), d.deep_zip)
    return d


class Nginx:
    """nginx serving `root` on a free loopback port; one access-log line per request with its
    Range header."""

    def __init__(self, root: Path, work: Path):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        work.mkdir(parents=True, exist_ok=True)
        self.log = work / "access.log"
        user = "user root;" if os.geteuid() == 0 else ""
        conf = work / "nginx.conf"
        conf.write_text(f"""{user} daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 256; }}
http {{ log_format ranges '$request_method $uri $http_range $status';
  access_log {self.log} ranges; client_body_temp_path {work}; proxy_temp_path {work};
  fastcgi_temp_path {work}; uwsgi_temp_path {work}; scgi_temp_path {work};
  server {{ listen 127.0.0.1:{self.port}; root {root}; location / {{ }} }} }}
""")
        exe = shutil.which("nginx") or "/usr/sbin/nginx"
        self.proc = subprocess.Popen([exe, "-c", str(conf), "-p", str(work)], stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            self.stop()
            raise RuntimeError("nginx did not start")
        self.url = f"http://127.0.0.1:{self.port}"

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def settled_lines(self) -> list[str]:
        """The log once it stops growing: nginx writes a request's line after the response
        went out, so the last requests of the previous test may still be on their way."""
        lines = self.lines()
        for _ in range(40):
            time.sleep(0.05)
            again = self.lines()
            if len(again) == len(lines):
                return again
            lines = again
        return lines

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)


@pytest.fixture(scope="session")
def nginx(data, tmp_path_factory):
    server = Nginx(data.root, tmp_path_factory.mktemp("nginx"))
    yield server
    server.stop()
