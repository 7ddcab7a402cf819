"""Content-defined pages in the consolidated levels (issue 28): a ZIP, a FOLDER and a
TACOCAT of 20,000 samples written by taco_cpp hold levels of many data pages, written the
same byte for byte twice, and pyarrow reads them back equal to what DuckDB (taco_cpp's SQL)
returns."""

import datetime as dt
import struct
import zipfile

import pyarrow.parquet as pq
import pytest

import taco_cpp
from taco_cpp import Field, Sample, Taco, Tortilla
from conftest import COLLECTION
from thrift_compact import varint, zigzag

N = 20_000


def _taco(n: int = N) -> Taco:
    t0 = dt.datetime(2023, 1, 1)
    samples = []
    for i in range(n):
        s = Sample(f"sample_{i:06d}", data=b"x")
        s.extend([Field("label", f"class_{(i * 7919) % 13}", "string"),
                  Field("stac:centroid", struct.pack("<BIdd", 1, 1, (i % 360) - 180.0, (i % 120) - 60.0), "binary"),
                  Field("stac:time_start", t0 + dt.timedelta(hours=i), "timestamp[us]")])
        samples.append(s)
    return Taco(Tortilla(samples), COLLECTION)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    d = tmp_path_factory.mktemp("cdc")
    taco = _taco()
    taco_cpp.create(taco, d / "a.tacozip")
    taco_cpp.create(taco, d / "b.tacozip")
    taco_cpp.create(taco, d / "folder", format="folder")
    taco_cpp.tacocat([d / "a.tacozip"], d)
    return d


def _level0(zip_path):
    with zipfile.ZipFile(zip_path) as z:
        return z.read("METADATA/level0.parquet")


def test_levels_are_deterministic(written):
    assert _level0(written / "a.tacozip") == _level0(written / "b.tacozip")


def test_pyarrow_reads_what_duckdb_reads(written, tmp_path):
    sources = {"zip": written / "a.tacozip", "folder": written / "folder", "tacocat": written / ".tacocat"}
    for name, raw in [("zip", _level0(written / "a.tacozip")),
                      ("folder", (written / "folder" / "METADATA" / "level0.parquet").read_bytes()),
                      ("tacocat", (written / ".tacocat" / "level0.parquet").read_bytes())]:
        path = tmp_path / f"{name}.parquet"
        path.write_bytes(raw)
        by_pyarrow = pq.read_table(path)
        assert by_pyarrow.num_rows == N, name
        ds = taco_cpp.load(sources[name])
        by_duckdb = ds.sql("SELECT * FROM level0").data_raw
        for col in by_pyarrow.column_names:
            assert by_pyarrow.column(col).to_pylist() == by_duckdb.column(col).to_pylist(), (name, col)


def test_levels_have_content_defined_pages(written, tmp_path):
    # The id column of 20,000 rows is ~300 KB of PLAIN values: CDC cuts it into pages of
    # 16-128 KiB; a single-page writer would leave one page per column chunk.
    for raw in [_level0(written / "a.tacozip"), (written / ".tacocat" / "level0.parquet").read_bytes()]:
        path = tmp_path / "l0.parquet"
        path.write_bytes(raw)
        f = pq.ParquetFile(path)
        chunk = f.metadata.row_group(0).column(f.schema_arrow.get_field_index("id"))
        assert chunk.total_uncompressed_size > 64 * 1024
        start = chunk.data_page_offset
        assert _count_pages(raw, start, start + chunk.total_compressed_size) >= 3


def _skip_struct(b: bytes, i: int):
    """Reads a Thrift compact struct from i; returns (fields {id: int value}, end)."""
    fields, last = {}, 0
    while True:
        h = b[i]
        i += 1
        if h == 0:
            return fields, i
        t, delta = h & 0x0F, h >> 4
        if delta:
            fid = last + delta
        else:
            z, i = varint(b, i)
            fid = zigzag(z)
        last = fid
        if t in (1, 2):  # bool
            fields[fid] = t == 1
        elif t in (3, 4, 5, 6):  # byte, i16, i32, i64
            if t == 3:
                fields[fid] = b[i]
                i += 1
            else:
                z, i = varint(b, i)
                fields[fid] = zigzag(z)
        elif t == 8:  # binary
            n, i = varint(b, i)
            i += n
        elif t == 12:
            _, i = _skip_struct(b, i)
        else:
            raise AssertionError(f"unexpected thrift type {t}")


def _count_pages(raw: bytes, start: int, end: int) -> int:
    pages, i = 0, start
    while i < end:
        fields, i = _skip_struct(raw, i)
        i += fields[3]  # compressed_page_size
        pages += 1
    assert i == end
    return pages
