"""Issue 29 item 1: a sample's bytes must not make GDAL read outside the dataset or use the
network. `image.tif` of tile_1 is replaced by a GDAL VRT naming a GeoTIFF outside the dataset,
of tile_2 by a VRT naming a /vsicurl/ URL on a loopback server of this test that counts
requests. The pixel readers (torch loader, stats_*(method="exact"), `taco stats --exact`)
refuse both, `taco validate` reports them, no request is sent; load(...,
allow_external_rasters=True) reads the local VRT (and still sends no request: the dataset is
local). ZIP and FOLDER.
"""

import http.server
import struct
import threading
import zipfile
import zlib

import numpy as np
import pytest

import taco_cpp as tc

from conftest import COLLECTION, write_geotiff

OUTSIDE_VALUE = 200  # write_geotiff: band 0 pixels are value + (x+y) % 5


class _Counting(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_GET(self):  # noqa: N802 (http.server's naming)
        _Counting.requests.append(self.path)
        self.send_error(404)

    do_HEAD = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _vrt(source: str) -> bytes:
    return (f'<VRTDataset rasterXSize="32" rasterYSize="32">\n'
            f'  <VRTRasterBand dataType="UInt16" band="1">\n'
            f'    <SimpleSource><SourceFilename relativeToVRT="0">{source}</SourceFilename>'
            f'<SourceBand>1</SourceBand></SimpleSource>\n'
            f'  </VRTRasterBand>\n</VRTDataset>\n').encode()


def _patch_zip_member(zip_path, name: str, data: bytes):
    """Replaces member `name` in place (same size: `data` padded with spaces) and fixes its
    CRC-32 in the local header and the central directory, as an attacker would."""
    with zipfile.ZipFile(zip_path) as z:
        info = z.getinfo(name)
        start_dir = z.start_dir
    assert len(data) <= info.file_size, "the VRT must fit in the member"
    data = data + b" " * (info.file_size - len(data))
    crc = struct.pack("<I", zlib.crc32(data))
    with open(zip_path, "r+b") as f:
        f.seek(info.header_offset)
        header = f.read(30)
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        f.seek(info.header_offset + 14)
        f.write(crc)
        f.seek(info.header_offset + 30 + name_len + extra_len)
        f.write(data)
        f.seek(start_dir)
        directory = f.read()
    record = directory.find(b"PK\x01\x02")
    while record >= 0:
        n = struct.unpack("<H", directory[record + 28:record + 30])[0]
        if directory[record + 46:record + 46 + n] == name.encode():
            with open(zip_path, "r+b") as f:
                f.seek(start_dir + record + 16)
                f.write(crc)
            return
        record = directory.find(b"PK\x01\x02", record + 46)
    raise AssertionError(f"no central record for {name}")


@pytest.fixture(scope="module")
def datasets(tmp_path_factory, taco_cli, server):
    root = tmp_path_factory.mktemp("external")
    outside = root / "outside.tif"
    write_geotiff(outside, OUTSIDE_VALUE, 10, 50, size=32, bands=1)
    tiles = root / "tiles"
    for i in range(3):
        (tiles / f"tile_{i}").mkdir(parents=True)
        write_geotiff(tiles / f"tile_{i}" / "image.tif", 10 * i, 10 + i, 50, size=32, bands=1)
    (root / "collection.json").write_text(__import__("json").dumps(COLLECTION))
    url = f"/vsicurl/http://127.0.0.1:{server.server_address[1]}/x.tif"
    bad = {"tile_1": _vrt(str(outside)), "tile_2": _vrt(url)}
    out = {}
    for fmt in ("zip", "folder"):
        path = root / ("ds.tacozip" if fmt == "zip" else "ds_folder")
        r = taco_cli("create", tiles, path, "--collection", root / "collection.json", "--ext", "stats",
                     "--format", fmt)
        assert r.returncode == 0, r.stderr
        for tile, data in bad.items():
            if fmt == "zip":
                _patch_zip_member(path, f"DATA/{tile}/image.tif", data)
            else:
                (path / "DATA" / tile / "image.tif").write_bytes(data)
        out[fmt] = path
    _Counting.requests.clear()
    return out


def _one(path, tile, **kw):
    return tc.load(path, **kw).sql(f"SELECT * FROM data WHERE id = '{tile}'")


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_stats_exact_refuses_references_and_sends_no_request(datasets, fmt):
    path = datasets[fmt]
    honest = _one(path, "tile_0").stats_mean(0, level=1, file="image.tif", method="exact")
    assert np.isfinite(honest)
    for tile in ("tile_1", "tile_2"):
        with pytest.raises(Exception, match="VRT") as err:
            _one(path, tile).stats_mean(0, level=1, file="image.tif", method="exact")
        assert "allow-external-rasters" in str(err.value)
    assert _Counting.requests == []


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_opt_in_reads_the_local_vrt_without_network(datasets, fmt):
    path = datasets[fmt]
    mean = _one(path, "tile_1", allow_external_rasters=True).stats_mean(0, level=1, file="image.tif",
                                                                         method="exact")
    assert mean >= OUTSIDE_VALUE
    with pytest.raises(Exception):  # noqa: B017 (any error will do: what matters is that no request is sent)
        _one(path, "tile_2", allow_external_rasters=True).stats_mean(0, level=1, file="image.tif",
                                                                     method="exact")
    assert _Counting.requests == []


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_cli_stats_and_validate(datasets, fmt, taco_cli):
    path = datasets[fmt]
    for tile in ("tile_1", "tile_2"):
        r = taco_cli("stats", path, "--band", "0", "--exact", "--level", "1", "--file", "image.tif", "--sql",
                     f"SELECT * FROM data WHERE id = '{tile}'")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "VRT" in r.stderr
    v = taco_cli("validate", path)
    assert v.returncode == 1, v.stdout + v.stderr
    assert "external-reference" in v.stdout
    assert "tile_1" in v.stdout and "tile_2" in v.stdout
    assert _Counting.requests == []


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_torch_loader_refuses_references(datasets, fmt):
    pytest.importorskip("torch")
    from taco_cpp.torch import TacoDataset

    path = datasets[fmt]
    ds = TacoDataset(tc.load(path), files=["image.tif"], as_tensor=False)
    assert ds[0]["image.tif"].max() < OUTSIDE_VALUE
    for row in (1, 2):
        with pytest.raises(Exception, match="VRT"):
            ds[row]
    assert _Counting.requests == []
    allowed = TacoDataset(tc.load(path, allow_external_rasters=True), files=["image.tif"], as_tensor=False)
    assert allowed[1]["image.tif"].min() >= OUTSIDE_VALUE
    assert _Counting.requests == []
