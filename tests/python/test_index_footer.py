"""`validate` walks the TACOCAT index's own level Parquets (issue 29.5; found by the mutation
campaign: one bit flipped in the footer of a `__TACOCAT__` level made a column chunk's value
count negative; every reader still answered, PyArrow refused the file, and `validate` called
the index valid). Both index forms, CLI and Python."""

import json
import struct

import pytest

import taco_cpp
from thrift_compact import varint, zigzag


def num_values_position(parquet: bytes) -> int:
    """Byte offset (in `parquet`) of the varint of row group 0, column 0's
    ColumnMetaData.num_values (Thrift compact protocol: FileMetaData.4 → RowGroup.1 →
    ColumnChunk.3 → ColumnMetaData.5)."""
    footer_len = struct.unpack_from("<I", parquet, len(parquet) - 8)[0]
    pos = len(parquet) - 8 - footer_len
    found = []

    def skip(t, pos, path):
        if t in (1, 2):
            return pos
        if t == 3:
            return pos + 1
        if t in (4, 5, 6):
            if path == [4, 0, 1, 0, 3, 5] and not found:
                found.append(pos)
            return varint(parquet, pos)[1]
        if t == 7:
            return pos + 8
        if t == 8:
            n, pos = varint(parquet, pos)
            return pos + n
        if t in (9, 10):
            h = parquet[pos]
            pos += 1
            n, et = h >> 4, h & 15
            if n == 15:
                n, pos = varint(parquet, pos)
            for i in range(n):
                pos = skip(et, pos, path + [i])
            return pos
        if t == 12:
            return struct_(pos, path)
        raise AssertionError(f"thrift type {t}")

    def struct_(pos, path):
        last = 0
        while True:
            h = parquet[pos]
            pos += 1
            if h == 0:
                return pos
            t, delta = h & 15, h >> 4
            if delta:
                fid = last + delta
            else:
                raw, pos = varint(parquet, pos)
                fid = zigzag(raw)
            last = fid
            pos = skip(t, pos, path + [fid])

    struct_(pos, [])
    assert found, "no num_values in the footer"
    return found[0]


def negate_num_values(parquet: bytes) -> bytes:
    """The same file with row group 0, column 0's num_values made negative (bit 0 of its
    zigzag varint flipped: the campaign's mutation)."""
    at = num_values_position(parquet)
    data = bytearray(parquet)
    data[at] ^= 1
    return bytes(data)


@pytest.fixture(scope="module")
def parts(raster_tree, taco_cli, tmp_path_factory):
    root = tmp_path_factory.mktemp("index")
    for name in ("a", "b"):
        r = taco_cli("create", raster_tree / "tiles", root / f"{name}.tacozip",
                     "--collection", raster_tree / "collection.json")
        assert r.returncode == 0, r.stderr
    return root


def _index(parts, taco_cli, single: bool):
    out = parts / ("single" if single else "folder")
    if out.exists():
        return out / ("__TACOCAT__" if single else ".tacocat")
    out.mkdir()
    for name in ("a", "b"):
        (out / f"{name}.tacozip").write_bytes((parts / f"{name}.tacozip").read_bytes())
    r = taco_cli("tacocat", out / "a.tacozip", out / "b.tacozip", *(["--single-file"] if single else []))
    assert r.returncode == 0, r.stderr
    path = out / ("__TACOCAT__" if single else ".tacocat")
    assert path.exists(), list(out.iterdir())
    return path


def _damage(path):
    if path.is_dir():
        level0 = path / "level0.parquet"
        level0.write_bytes(negate_num_values(level0.read_bytes()))
        return
    data = bytearray(path.read_bytes())
    off, size = struct.unpack_from("<QQ", data, 16)
    data[off:off + size] = negate_num_values(bytes(data[off:off + size]))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("single", [False, True], ids=["tacocat-folder", "tacocat-file"])
def test_a_damaged_index_footer_is_reported(parts, taco_cli, single):
    path = _index(parts, taco_cli, single)
    ok = taco_cli("validate", path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert taco_cpp.validate(str(path)).ok
    _damage(path)
    bad = taco_cli("validate", path, "--json")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    report = json.loads(bad.stdout)
    rules = {v["rule"]: v for v in report["violations"]}
    assert "parquet-crc" in rules, report
    assert "negative value count" in rules["parquet-crc"]["found"], rules["parquet-crc"]
    assert "level0" in rules["parquet-crc"]["where"], rules["parquet-crc"]
    py = taco_cpp.validate(str(path))
    assert not py.ok
    assert any(v["rule"] == "parquet-crc" for v in py.violations), py.violations
