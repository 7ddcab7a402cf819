#!/usr/bin/env python3
"""Regenerates the seed corpora under fuzz/corpus/<target>/ (committed; run by hand).

    PYTHONPATH=build/python .venv/bin/python fuzz/make_seeds.py FIXTURES_DIR TACO_CLI

Seeds come from the upstream fixtures and from our own writer (`taco create`, `taco tacocat
--single-file`), plus small hand-made inputs for the text parsers. WKB seeds need GDAL's
Python bindings (Debian python3-gdal); seeds only the Python writer can make (a NaN
statistic) need taco_cpp on PYTHONPATH; the huge row claim (dataset_zip/huge_row_claim.tacozip:
10^7 rows in a 15 KB ZIP, tests/reliability/huge_claim.py) needs the Python duckdb package,
so run it with `.venv/bin/python` (it sees Debian's GDAL too). Existing files are
overwritten, others kept.
"""
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

here = os.path.dirname(os.path.abspath(__file__))
fixtures, taco = sys.argv[1], sys.argv[2]


def put(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def read(path):
    with open(path, "rb") as f:
        return f.read()


flat = read(os.path.join(fixtures, "zip/flat/flat.tacozip"))
nested = read(os.path.join(fixtures, "zip/nested/nested.tacozip"))

# ---- our writer: a tiny nested dataset, a FILE-only one, and a __TACOCAT__ --------------
work = tempfile.mkdtemp()
src = os.path.join(work, "src")
for folder in ("a", "b"):
    os.makedirs(os.path.join(src, folder))
    for child in ("x.bin", "y.bin"):
        with open(os.path.join(src, folder, child), "wb") as f:
            f.write((folder + child).encode() * 3)
collection = {"id": "seed", "dataset_version": "1", "description": "fuzz seed", "licenses": ["CC0-1.0"],
              "providers": [{"name": "taco-cpp"}], "tasks": ["classification"]}
with open(os.path.join(work, "c.json"), "w") as f:
    json.dump(collection, f)
with open(os.path.join(work, "m.csv"), "w") as f:
    f.write("path,split,cloud,when\na,train,0.5,2023-01-02T03:04:05Z\nb,test,12,2024-02-29\n")
subprocess.run([taco, "create", src, os.path.join(work, "nested.tacozip"), "--collection",
                os.path.join(work, "c.json"), "--metadata", os.path.join(work, "m.csv")], check=True)
files = os.path.join(work, "files")
os.makedirs(files)
for i in range(3):
    with open(os.path.join(files, "s%d.bin" % i), "wb") as f:
        f.write(bytes([i]) * 7)
subprocess.run([taco, "create", files, os.path.join(work, "p1", "files.tacozip"), "--collection",
                os.path.join(work, "c.json")], check=True)
subprocess.run([taco, "tacocat", os.path.join(work, "p1", "files.tacozip"), "--single-file"], check=True)
ours_nested = read(os.path.join(work, "nested.tacozip"))
ours_files = read(os.path.join(work, "p1", "files.tacozip"))
tacocat = read(os.path.join(work, "p1", "__TACOCAT__"))

# ---- ZIP structures ----------------------------------------------------------------------
def zip64_small():
    """A small ZIP with ZIP64 local extras and ZIP64 end records (forced)."""
    path = os.path.join(work, "z64.zip")
    old = zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP_FILECOUNT_LIMIT = 1
    try:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
            with z.open("a.txt", "w", force_zip64=True) as m:
                m.write(b"hello")
            z.writestr("b.txt", b"world")
    finally:
        zipfile.ZIP_FILECOUNT_LIMIT = old
    return read(path)


for name, data in (("flat.tacozip", flat), ("nested.tacozip", nested), ("ours_nested.tacozip", ours_nested),
                   ("ours_files.tacozip", ours_files)):
    put("taco_header", name, data[:4096] if len(data) > 4096 else data)
    put("zip_directory", name, data)
    put("dataset_zip", name, data)
put("zip_directory", "zip64_forced.zip", zip64_small())

# The huge row claim (issue 29): a level 0 of 10^7 copies of one row, about 15 KB.
try:
    sys.path.insert(0, os.path.join(here, "..", "tests", "reliability"))
    from huge_claim import make_huge_claim_zip
    put("dataset_zip", "huge_row_claim.tacozip", make_huge_claim_zip(taco, os.path.join(work, "huge.tacozip")))
except ImportError:
    print("make_seeds: no duckdb module: huge_row_claim.tacozip not regenerated", file=sys.stderr)

# ---- Parquet: every Parquet member of the upstream ZIPs and of ours (levels, __meta__) -----
for label, data in (("up_flat", flat), ("up_nested", nested), ("ours_nested", ours_nested)):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            member = z.read(info.filename)
            if member[:4] == b"PAR1":
                put("parquet_decode", label + "_" + info.filename.replace("/", "_"), member)
put("zip_directory", "empty.zip", b"PK\x05\x06" + b"\0" * 18)
ghost = bytearray(flat[:157])
put("taco_header", "short.bin", bytes(ghost[:100]))
put("tacocat_header", "ours.tacocat", tacocat)
put("tacocat_header", "header_only.bin", tacocat[:128])

# ---- JSON --------------------------------------------------------------------------------
put("collection_json", "flat.json", read(os.path.join(fixtures, "folder/flat/COLLECTION.json")))
put("collection_json", "nested.json", read(os.path.join(fixtures, "folder/nested/COLLECTION.json")))
pair = read(os.path.join(fixtures, "folder/flat/COLLECTION.json")) + b"\0" + \
    read(os.path.join(fixtures, "folder/flat/COLLECTION.json")).replace(b"test_dataset", b"other")
put("collection_json", "pair.json", pair)
put("collection_json", "bad_utf8.json", b'{"id": "\xff\xfe"}')
put("collection_json", "deep.json", b"[" * 40 + b"]" * 40)
# 50,000 keys and a repeated one: parsing was quadratic in the number of keys.
put("collection_json", "many_keys.json",
    "{" + ",".join('"a%d":0' % i for i in range(50000)) + ',"a7":{"again":[1]}}')

# ---- metadata files (first byte: even = .csv, odd = .jsonl) -------------------------------
put("metadata_files", "basic.csv", b"\0path,split,cloud,when\na,train,0.5,2023-01-02T03:04:05Z\nb,test,12,2024-02-29\n")
put("metadata_files", "quoted.csv", b"\0\xef\xbb\xbfpath,\"note, quoted\"\r\n\"a\",\"line1\nline2 \"\"x\"\"\"\r\nb,\r\n")
put("metadata_files", "lines.jsonl",
    b'\1{"path": "a", "n": 1, "tags": [1, 2], "s": {"k": true}, "t": "2023-06-01T12:00:00+02:00"}\n'
    b'{"path": "b", "n": 2.5, "tags": [], "s": {"k": false}, "t": null}\n')
put("metadata_files", "array.jsonl", b'\1[{"path": "a", "x": "1"}, {"path": "b", "x": 2}]')

# ---- SQL -----------------------------------------------------------------------------------
for i, q in enumerate([
    "SELECT * FROM data",
    "select id from DATA d join \"data_raw\" r on d.id = r.id where d.id <> 'from data'",
    "SELECT count(*) FROM data, data_raw /* from data */ -- join data\n WHERE x = $tag$ from data $tag$",
    "WITH data AS (SELECT 1) SELECT * FROM data AS x, \"Data\"",
    "SELECT 'unterminated FROM data",
]):
    put("sql_rewrite", "q%d.sql" % i, q)

# ---- paths, URLs, HTTP header lines ----------------------------------------------------------
for i, p in enumerate([
    "/vsisubfile/490_5703,/data/flat.tacozip",
    "/vsisubfile/0_0,/vsicurl/https://example.org/a,b.tacozip",
    "https://example.org/x.tacozip",
    "s3://bucket/key/x.tacozip",
    "/vsicurl/http://127.0.0.1:8080/x",
    "Content-Range: bytes 0-65535/9193\r\n",
    "content-range: bytes */123",
    "ETag: \"abc\"",
    "HTTP/1.1 206 Partial Content\r\n",
    "9999999999999999999",
]):
    put("vsi_path", "p%d.txt" % i, p)

# ---- WKB -------------------------------------------------------------------------------------
try:
    from osgeo import ogr
    for i, wkt in enumerate([
        "POINT (10 20)", "POINT EMPTY", "LINESTRING (0 0, 10 10, 20 0)",
        "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))",
        "MULTIPOINT ((1 1), (2 2))", "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
        "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))", "POINT Z (1 2 3)", "LINESTRING M (0 0 1, 1 1 2)",
    ]):
        g = ogr.CreateGeometryFromWkt(wkt)
        put("wkb", "iso%d.wkb" % i, bytes(g.ExportToIsoWkb(ogr.wkbNDR)))
        put("wkb", "xdr%d.wkb" % i, bytes(g.ExportToIsoWkb(ogr.wkbXDR)))
except ImportError:
    print("make_seeds: no osgeo (python3-gdal): WKB seeds from struct only", file=sys.stderr)
# EWKB point with SRID 4326 (flag 0x20000000).
put("wkb", "ewkb_srid.wkb", struct.pack("<BII2d", 1, 0x20000001, 4326, 1.5, -2.5))

# ---- datasets only the Python writer can make (needs taco_cpp on PYTHONPATH) ------------------
try:
    import taco_cpp
    from taco_cpp import Sample, Taco, Tortilla

    # A NaN minimum in one sample's geotiff:stats (the pooled percentile search looped on it).
    good = [[0.0, 10.0, 5.0, 2.0, 100.0, 2.5, 5.0, 7.5, 9.5]]
    bad = [[float("nan")] + good[0][1:]]
    samples = [Sample("s%d" % i, data=b"x", **{"geotiff:stats": bad if i == 1 else good}) for i in range(3)]
    taco_cpp.create(Taco(Tortilla(samples), collection), os.path.join(work, "nan_stats.tacozip"))
    put("dataset_zip", "nan_stats.tacozip", read(os.path.join(work, "nan_stats.tacozip")))
except ImportError:
    print("make_seeds: no taco_cpp on PYTHONPATH: no Python-writer seeds", file=sys.stderr)

shutil.rmtree(work)
print("make_seeds: done")
