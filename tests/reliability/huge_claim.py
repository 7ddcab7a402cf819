"""The "huge row claim" (issue 29 item 4): a small TACO ZIP whose level 0 holds millions of rows.

    make_huge_claim_zip(taco_cli, out_path, rows=10_000_000) -> bytes of the ZIP written

The rows are real (a reader that decodes level 0 gets them all), but they are copies of one
row, so Parquet's dictionary + RLE encoding stores them in a few KB: 10^7 rows make a ZIP of
about 40 KB. Built from a 3-sample FILE dataset written by `taco create`: its level0.parquet
is replaced by its first row repeated `rows` times (DuckDB COPY, one row group per million
rows), the ZIP is rewritten (STORE, TACO_HEADER first and pointing at the new members).
Used by tests/reliability/test_huge_claim.py and fuzz/make_seeds.py (seed of dataset_zip).
Needs the Python duckdb package (requirements.txt) and the `taco` executable.
"""

import io
import json
import os
import struct
import subprocess
import tempfile
import zipfile

_COLLECTION = {"id": "huge_claim", "dataset_version": "1", "description": "a level 0 of one row repeated",
               "licenses": ["CC0-1.0"], "providers": [{"name": "taco-cpp"}], "tasks": ["other"]}


def _small_zip(taco_cli, work):
    src = os.path.join(work, "src")
    os.makedirs(src)
    for i in range(3):
        with open(os.path.join(src, "s%d.bin" % i), "wb") as f:
            f.write(bytes([65 + i]) * 64)
    with open(os.path.join(work, "c.json"), "w") as f:
        json.dump(_COLLECTION, f)
    out = os.path.join(work, "small.tacozip")
    subprocess.run([taco_cli, "create", src, out, "--collection", os.path.join(work, "c.json")], check=True,
                   capture_output=True)
    return out


def _repeated_level0(level0, rows, work):
    import duckdb

    src = os.path.join(work, "level0_in.parquet")
    dst = os.path.join(work, "level0_out.parquet")
    with open(src, "wb") as f:
        f.write(level0)
    con = duckdb.connect()
    con.execute("SET threads = 1")  # one writer: row groups of exactly ROW_GROUP_SIZE rows
    con.execute("SET enable_progress_bar = false")
    con.execute(
        "COPY (SELECT t.* FROM (SELECT * FROM read_parquet('%s') LIMIT 1) t, range(%d)) TO '%s' "
        "(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1000000)" % (src, rows, dst))
    con.close()
    with open(dst, "rb") as f:
        return f.read()


def _write_zip(members, header_payload):
    """STORE ZIP: TACO_HEADER (157 bytes) then `members` [(name, bytes)] in order."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        info = zipfile.ZipInfo("TACO_HEADER", date_time=(2025, 1, 1, 0, 0, 0))
        z.writestr(info, header_payload)
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def make_huge_claim_zip(taco_cli, out_path, rows=10_000_000):
    with tempfile.TemporaryDirectory() as work:
        with zipfile.ZipFile(_small_zip(taco_cli, work)) as z:
            members = [(i.filename, z.read(i)) for i in z.infolist() if i.filename != "TACO_HEADER"]
        members = [(n, _repeated_level0(d, rows, work) if n == "METADATA/level0.parquet" else d)
                   for n, d in members]
        # Offsets do not depend on the payload (fixed 116 bytes): lay out once, then patch.
        placeholder = bytes(116)
        with zipfile.ZipFile(io.BytesIO(_write_zip(members, placeholder))) as z:
            where = {i.filename: (i.header_offset + 30 + len(i.filename.encode()) + len(i.extra), i.file_size)
                     for i in z.infolist()}
        levels = sorted(n for n, _ in members if n.startswith("METADATA/level"))
        pairs = [where[n] for n in levels] + [where["COLLECTION.json"]]
        payload = struct.pack("<B3x", len(pairs)) + b"".join(struct.pack("<QQ", o, s) for o, s in pairs)
        payload += bytes(116 - len(payload))
        data = _write_zip(members, payload)
    with open(out_path, "wb") as f:
        f.write(data)
    return data
