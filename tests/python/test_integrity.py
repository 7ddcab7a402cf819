"""Issue 29, items 5 and 6: a ZIP member at a sample's offset must be the sample's own
(read/read_bytes/stats exact/cat/convert refuse another), and damaged metadata is caught
when a dataset is opened (ZIP member CRCs, Parquet page CRCs of FOLDER levels)."""

import json
import struct
import zlib

import pytest

import taco_cpp
from conftest import COLLECTION


def _member_block(data: bytes, name: str):
    """(start, end) of the local header + data of member `name`."""
    needle = b"PK\x03\x04"
    p = data.find(needle)
    while p >= 0:
        n, extra = struct.unpack_from("<HH", data, p + 26)
        if data[p + 30:p + 30 + n] == name.encode():
            size = struct.unpack_from("<I", data, p + 18)[0]
            return p, p + 30 + n + extra + size
        p = data.find(needle, p + 1)
    raise AssertionError(f"no member {name}")


def swap_members(src, dst, a: str, b: str):
    """`src` with members `a` and `b` (blocks of the same size) exchanged: the metadata's
    offsets of `a` now lead to `b`'s member, CRC intact."""
    data = bytearray(open(src, "rb").read())
    a0, a1 = _member_block(bytes(data), a)
    b0, b1 = _member_block(bytes(data), b)
    assert a1 - a0 == b1 - b0
    block_a = bytes(data[a0:a1])
    data[a0:a1] = data[b0:b1]
    data[b0:b1] = block_a
    open(dst, "wb").write(bytes(data))


@pytest.fixture
def flat_zip(tmp_path, taco_cli):
    src = tmp_path / "src"
    src.mkdir()
    for tile in ("tile_00", "tile_01"):
        (src / tile).write_bytes((tile + ";").encode() * 8)
    (tmp_path / "collection.json").write_text(json.dumps(COLLECTION))
    out = tmp_path / "flat.tacozip"
    r = taco_cli("create", src, out, "--collection", tmp_path / "collection.json")
    assert r.returncode == 0, r.stderr
    return out


def test_swapped_members_are_refused_by_read_read_bytes_cat_and_convert(flat_zip, tmp_path, taco_cli):
    good = taco_cpp.load(flat_zip)
    assert good.read_bytes("tile_00").startswith(b"tile_00;")
    bad = tmp_path / "swapped.tacozip"
    swap_members(flat_zip, bad, "DATA/tile_00", "DATA/tile_01")
    ds = taco_cpp.load(bad)
    why = "is 'DATA/tile_01', not the sample's 'DATA/tile_00'"
    with pytest.raises(taco_cpp.CorruptionError, match=why):
        ds.read_bytes("tile_00")
    with pytest.raises(taco_cpp.CorruptionError, match=why):
        ds.read("tile_00")
    r = taco_cli("cat", bad, "tile_00", binary=True)
    assert r.returncode == 2 and r.stdout == b""
    assert why in r.stderr.decode()
    out = tmp_path / "converted_folder"
    c = taco_cli("convert", bad, out)
    assert c.returncode == 2 and why in c.stderr
    assert not out.exists()


def test_swapped_rasters_are_refused_by_exact_stats(raster_tree, tmp_path):
    out = tmp_path / "stats.tacozip"
    taco = taco_cpp.from_directory(raster_tree / "tiles", raster_tree / "collection.json", ext=["stac", "stats"])
    taco_cpp.create(taco, out)
    kw = dict(level=1, file="image.tif", method="exact")
    truth = taco_cpp.load(out).stats_mean(0, **kw)
    bad = tmp_path / "swapped.tacozip"
    swap_members(out, bad, "DATA/tile_0/image.tif", "DATA/tile_1/image.tif")
    ds = taco_cpp.load(bad)
    with pytest.raises(taco_cpp.CorruptionError, match="not the sample's 'DATA/tile_0/image.tif'"):
        ds.stats_mean(0, **kw)
    assert truth is not None


def test_a_bit_flip_in_a_zip_level_fails_load(flat_zip, tmp_path, taco_cli):
    header = taco_cpp.load(flat_zip)._ds.header
    offset, length = header[0]
    intact = open(flat_zip, "rb").read()
    bad = tmp_path / "flipped.tacozip"
    # inside each page's data: today's main served different rows without an error for some
    for at in _page_middles(intact[offset:offset + length]):
        data = bytearray(intact)
        data[offset + at] ^= 0x10
        bad.write_bytes(bytes(data))
        with pytest.raises(taco_cpp.CorruptionError, match="METADATA/level0.parquet: CRC-32 mismatch"):
            taco_cpp.load(bad).sql("SELECT * FROM data").data
    r = taco_cli("sql", bad, "SELECT * FROM data")
    assert r.returncode == 2 and r.stdout == ""
    assert "METADATA/level0.parquet: CRC-32 mismatch" in r.stderr


def _page_middles(data: bytes):
    """A byte in the middle of each page body of a Parquet file written by taco-cpp: from
    byte 4, compact-Thrift PageHeaders starting with the i32 fields 1-4 (type, uncompressed
    size, compressed size, CRC-32 of the body); a body is where that CRC matches."""
    pos, out = 4, []
    footer = len(data) - 8 - struct.unpack_from("<I", data, len(data) - 8)[0]
    while pos < footer:
        p, values = pos, []
        for _ in range(4):
            p += 1  # field header: delta id 1, type i32
            shift = value = 0
            while True:
                b = data[p]
                p += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            values.append((value >> 1) ^ -(value & 1))
        compressed, crc = values[2], values[3] & 0xFFFFFFFF
        body = next(s for s in range(p, p + 256) if zlib.crc32(data[s:s + compressed]) == crc)
        out.append(body + compressed // 2)
        pos = body + compressed
    assert len(out) >= 2
    return out


def test_a_bit_flip_in_a_folder_level_page_fails_load_and_validate(flat_zip, tmp_path, taco_cli):
    folder = tmp_path / "folder"
    assert taco_cli("convert", flat_zip, folder).returncode == 0
    assert taco_cli("validate", folder).returncode == 0
    level0 = folder / "METADATA" / "level0.parquet"
    intact = level0.read_bytes()
    for at in _page_middles(intact):
        data = bytearray(intact)
        data[at] ^= 0x04
        level0.write_bytes(bytes(data))
        with pytest.raises(taco_cpp.CorruptionError, match="Parquet page CRC-32 mismatch"):
            taco_cpp.load(folder).sql("SELECT * FROM data").data
    v = taco_cli("validate", folder)
    assert v.returncode == 1 and "parquet-crc  METADATA/level0.parquet" in v.stdout


def test_validate_reports_a_local_header_size_that_disagrees(flat_zip, tmp_path, taco_cli):
    # A local header whose compressed size is not the central directory's (found by the
    # mutation campaign: validate called such a file valid).
    data = bytearray(flat_zip.read_bytes())
    start, _ = _member_block(bytes(data), "DATA/tile_01")
    size = struct.unpack_from("<I", data, start + 18)[0]
    struct.pack_into("<I", data, start + 18, size + 1)
    bad = tmp_path / "bad_size.tacozip"
    bad.write_bytes(bytes(data))
    r = taco_cli("validate", bad)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "DATA/tile_01 local header" in r.stdout and f"compressed size {size + 1}" in r.stdout, r.stdout
    report = taco_cpp.validate(bad)
    assert any(v["where"] == "DATA/tile_01 local header" for v in report.violations), report.violations
