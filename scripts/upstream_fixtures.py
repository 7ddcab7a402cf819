"""Writes the upstream fixtures (flat and nested, ZIP and FOLDER) with the pinned tacotoolbox.

Usage (the peers venv's interpreter, see scripts/peers_venv.sh):
    .venv-peers/bin/python scripts/upstream_fixtures.py OUT_DIR [--manifest FILE] [--force]

OUT_DIR receives
    zip/flat/flat.tacozip      1 level, 5 FILE samples
    folder/flat/               the same dataset as a FOLDER
    zip/nested/nested.tacozip  3 FOLDER samples x 3 FILE samples
    folder/nested/             the same dataset as a FOLDER
    shifted/zip/<case>.tacozip small ZIPs whose FOLDERs come in or out of archive-path order,
                               for the exact rule of when the writer's level >= 1 offsets
                               are right (SHIFTED_CASES; docs/format.md §1.5)
    shifted/cat/               a ZIP split in two parts (cat_part0001: FOLDERs b, a, shifted;
                               cat_part0002: c, d, right) and their .tacocat/

These are the datasets of the tacoreader test suite that the C++ and Python tests read (the
same ids, payloads, metadata values and column names); the recipe below is ours. They are
written by tacotoolbox itself (the writer whose behaviour the tests pin, including its known
level-1 offset bug in nested.tacozip, docs/format.md), so nothing written by an older version is
committed. The output is deterministic except for the DOS modification time and date of each
ZIP entry (the writer stamps the time of writing): --manifest compares every file's SHA-256
(for a .tacozip, of its bytes with those time/date fields zeroed) with a committed list
(tests/fixtures/upstream.sha256) and fails on any difference, so a change of the pinned writer
shows up as a failing fixture step, not as puzzling test failures.

A stamp (OUT_DIR/.stamp, the hash of this script, the manifest and the peers requirements)
makes a second run return at once. The output is built in a temporary sibling directory and
renamed into place, so a killed run leaves no half-written fixtures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import pathlib
import shutil
import struct
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve()
REPO = HERE.parents[1]

COLLECTION = {
    "id": "test_dataset",
    "dataset_version": "1.0.0",
    "description": "Test fixture with STAC metadata",
    "licenses": ["CC-BY-4.0"],
    "providers": [{"name": "Test"}],
    "tasks": ["classification"],
}

# (min lon, min lat, max lon, max lat) of each place.
PLACES = {
    "valencia": (-0.5, 39.3, -0.2, 39.6),
    "paris": (2.2, 48.7, 2.5, 49.0),
    "berlin": (13.2, 52.3, 13.6, 52.7),
    "nyc": (-74.2, 40.5, -73.8, 40.9),
    "tokyo": (139.5, 35.5, 139.9, 35.9),
    "lima": (-77.2, -12.2, -76.8, -11.8),
    "sydney": (150.9, -34.1, 151.5, -33.6),
    "shanghai": (121.2, 31.0, 121.7, 31.5),
}

# geotiff:stats per sample: one row per band, either 9 continuous statistics (min, max, mean,
# std, valid %, p25, p50, p75, p95) or 3 class shares.
FLAT_STATS = [
    [[0, 255, 128.5, 45.2, 98.5, 85, 125, 170, 220], [0, 255, 115.3, 38.7, 99.1, 75, 110, 155, 205],
     [0, 255, 95.8, 42.1, 97.8, 60, 92, 130, 185]],
    [[5, 250, 135.2, 48.1, 97.2, 90, 132, 178, 225], [3, 248, 120.8, 41.5, 98.5, 80, 118, 162, 210],
     [2, 252, 102.3, 44.8, 96.9, 65, 100, 140, 192]],
    [[10, 245, 142.0, 42.8, 99.0, 95, 138, 182, 218], [8, 240, 125.5, 39.2, 98.8, 82, 122, 165, 208],
     [5, 248, 108.7, 46.3, 97.5, 70, 105, 145, 195]],
    [[0, 255, 150.8, 50.5, 96.8, 100, 148, 195, 235], [2, 252, 132.1, 43.8, 97.9, 88, 130, 175, 220],
     [1, 250, 112.5, 48.2, 95.5, 72, 110, 152, 200]],
    [[3, 248, 138.3, 46.7, 98.2, 92, 135, 180, 222], [5, 245, 118.9, 40.1, 99.3, 78, 115, 158, 212],
     [0, 255, 99.2, 43.5, 97.1, 62, 96, 138, 188]],
]
FLAT_PLACES = ["valencia", "paris", "nyc", "tokyo", "lima"]

NESTED = {  # region -> [(place, stats)] in the order written
    "europe": [
        ("valencia", [[0.4, 0.4, 0.2], [0.3, 0.5, 0.2], [0.2, 0.3, 0.5]]),
        ("paris", [[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.1, 0.4, 0.5]]),
        ("berlin", [[0.3, 0.3, 0.4], [0.4, 0.4, 0.2], [0.2, 0.5, 0.3]]),
    ],
    "americas": [
        ("nyc", [[0, 200, 98.5, 35.2, 98.1, 65, 95, 130, 175], [5, 180, 85.3, 28.5, 97.5, 55, 82, 115, 160],
                 [10, 220, 115.8, 42.1, 99.0, 75, 110, 150, 200]]),
        ("lima", [[-1.0, 1.0, 0.25, 0.38, 96.3, -0.2, 0.22, 0.55, 0.82],
                  [-0.8, 0.95, 0.18, 0.32, 95.8, -0.15, 0.16, 0.48, 0.75],
                  [-0.9, 0.98, 0.22, 0.35, 97.1, -0.18, 0.2, 0.52, 0.78]]),
        ("nyc", [[10, 250, 145.8, 48.6, 97.5, 95, 140, 195, 230], [15, 240, 138.2, 45.3, 98.2, 88, 135, 188, 220],
                 [12, 255, 150.5, 50.1, 96.8, 98, 145, 200, 235]]),
    ],
    "asia": [
        ("tokyo", [[0.2, 0.5, 0.3], [0.4, 0.3, 0.3], [0.3, 0.4, 0.3]]),
        ("shanghai", [[0, 100, 52.3, 28.5, 99.0, 28, 50, 75, 92], [5, 95, 48.7, 25.2, 98.5, 25, 47, 70, 88],
                      [2, 105, 55.8, 30.1, 99.5, 30, 53, 78, 95]]),
        ("sydney", [[0.6, 0.2, 0.2], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]]),
    ],
}

DAY0 = dt.datetime(2023, 1, 1)

# name -> the tree: a FOLDER is (id, [children]), a FILE is its id. Every FILE's payload is
# its archive path repeated to 6,000 bytes (payload()), so that a range that names another
# member shows, and the central directory lies beyond the first 16 KiB a remote open reads.
SHIFTED_CASES = {
    # Level-0 FOLDERs not in order: every level-1 range is another sample's.
    "level0_unsorted": [("b", ["x", "y"]), ("a", ["x", "y"])],
    # Sorted as ids but not as archive paths ("a.b/" < "a/"): level 1 is shifted.
    "dot_before_slash": [("a", ["x", "y"]), ("a.b", ["x", "y"])],
    # Unsorted sibling ids at level 1 (z before m), but the FOLDERs among them in order:
    # level 2 is right.
    "file_first": [("a", ["z", ("m", ["f0"])]), ("b", ["z", ("m", ["f0"])])],
    # FILE children out of order inside each FOLDER: level 1 is right.
    "files_unsorted": [("a", ["y", "x"]), ("b", ["y", "x"])],
    # Level 1 right (a, b in order), level 2 shifted (n before m under each).
    "deep": [("a", [("n", ["f0", "f1"]), ("m", ["f0", "f1"])]), ("b", [("n", ["f0", "f1"]), ("m", ["f0", "f1"])])],
}

# The parts of shifted/cat (split at 3 KB: each FOLDER holds 2 x 700 bytes).
SHIFTED_CAT = [(name, ["x", "y"]) for name in ("b", "a", "c", "d")]


def polygon_wkb(box: tuple[float, float, float, float]) -> bytes:
    """ISO WKB (little-endian) of the box as a closed 5-point ring, counter-clockwise."""
    x0, y0, x1, y1 = box
    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    return struct.pack("<BIII", 1, 3, 1, len(ring)) + b"".join(struct.pack("<dd", x, y) for x, y in ring)


def point_wkb(box: tuple[float, float, float, float]) -> bytes:
    x0, y0, x1, y1 = box
    return struct.pack("<BIdd", 1, 1, (x0 + x1) / 2, (y0 + y1) / 2)


def union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def stats_extension():
    """A tacotoolbox SampleExtension that stores given geotiff:stats (no raster needed)."""
    import pyarrow as pa
    from tacotoolbox.sample.datamodel import SampleExtension

    schema = pa.schema([pa.field("geotiff:stats", pa.list_(pa.list_(pa.float32())))])

    class GivenStats(SampleExtension):
        stats: list[list[float]]

        def get_schema(self):
            return schema

        def get_field_descriptions(self):
            return {"geotiff:stats": "Fake statistics for testing"}

        def _compute(self, sample):
            return pa.Table.from_pydict({"geotiff:stats": [self.stats]}, schema=schema)

    return GivenStats


def file_sample(sample_id: str, payload: bytes, place: str, day: int, cloud: float, shape, stats):
    from tacotoolbox.datamodel import Sample

    box = PLACES[place]
    s = Sample(id=sample_id, path=payload)
    s.extend_with({
        "istac:geometry": polygon_wkb(box),
        "istac:centroid": point_wkb(box),
        "istac:time_start": DAY0 + dt.timedelta(days=day),
        "cloud_cover": cloud,
        "location": place,
        "stac:tensor_shape": shape,
    })
    s.extend_with(stats_extension()(stats=stats))
    return s


def flat_taco():
    from tacotoolbox.datamodel import Taco, Tortilla

    samples = [file_sample(f"sample_{i}", f"content_{p}".encode(), p, 30 * i, 15.0 * i, [3, 256, 256], FLAT_STATS[i])
               for i, p in enumerate(FLAT_PLACES)]
    return Taco(tortilla=Tortilla(samples), **COLLECTION)


def nested_taco():
    from tacotoolbox.datamodel import Sample, Taco, Tortilla

    groups = []
    for region, items in NESTED.items():
        children = [file_sample(f"item_{j}", f"data_{region}_{j}".encode(), place, 30 * j, 20.0 * j + 5,
                                [3, 512, 512], stats) for j, (place, stats) in enumerate(items)]
        g = Sample(id=region, path=Tortilla(children))
        g.extend_with({
            "istac:geometry": polygon_wkb(union([PLACES[p] for p, _ in items])),
            "istac:time_start": DAY0,
            "region": region,
        })
        groups.append(g)
    return Taco(tortilla=Tortilla(groups), **COLLECTION)


def payload(archive_path: str, size: int = 0) -> bytes:
    data = archive_path.encode()
    return data * max(1, -(-size // len(data))) if size else data


def tree_samples(items, parent: str, size: int = 0):
    from tacotoolbox.datamodel import Sample, Tortilla

    samples = []
    for item in items:
        if isinstance(item, str):
            samples.append(Sample(id=item, path=payload(f"{parent}{item}", size)))
        else:
            name, children = item
            samples.append(Sample(id=name, path=Tortilla(tree_samples(children, f"{parent}{name}/", size))))
    return samples


def tree_taco(items, size: int = 0):
    from tacotoolbox.datamodel import Taco, Tortilla

    return Taco(tortilla=Tortilla(tree_samples(items, "DATA/", size)), **COLLECTION)


def write_shifted(out: pathlib.Path) -> None:
    import warnings

    import tacotoolbox

    # file_first puts a FILE before a FOLDER on purpose (the writer warns about it).
    warnings.filterwarnings("ignore", message="Consider placing FOLDERs before FILEs")
    for name, items in SHIFTED_CASES.items():
        tacotoolbox.create(tree_taco(items, size=6000), out / "shifted" / "zip" / f"{name}.tacozip",
                           output_format="zip", split_size=None)
    tacotoolbox.create(tree_taco(SHIFTED_CAT, size=700), out / "shifted" / "cat" / "cat.tacozip", output_format="zip",
                       split_size="3KB")


def write_all(out: pathlib.Path) -> None:
    import tacotoolbox

    # The writer stores each payload's file mode (from the temporary file it makes) in the ZIP's
    # external attributes: a fixed umask keeps the bytes the same on every machine (0664, as
    # in tacoreader's fixtures).
    os.umask(0o002)

    for name, make in (("flat", flat_taco), ("nested", nested_taco)):
        tacotoolbox.create(make(), out / "zip" / name / f"{name}.tacozip", output_format="zip", split_size=None)
        tacotoolbox.create(make(), out / "folder" / name, output_format="folder", split_size=None)
    write_shifted(out)


def without_zip_times(data: bytes) -> bytes:
    """`data` with the DOS time and date of every central-directory entry and of the local
    header it points at set to zero (the only bytes of a ZIP that depend on the clock)."""
    buf = bytearray(data)
    eocd = buf.rfind(b"PK\x05\x06")
    if eocd < 0:
        raise ValueError("not a ZIP: no end of central directory record")
    count = struct.unpack_from("<H", buf, eocd + 10)[0]
    pos = struct.unpack_from("<I", buf, eocd + 16)[0]
    if count == 0xFFFF or pos == 0xFFFFFFFF:  # ZIP64: the locator sits just before the record
        z64 = struct.unpack_from("<Q", buf, eocd - 20 + 8)[0]
        count, pos = struct.unpack_from("<QQ", buf, z64 + 32)[0], struct.unpack_from("<Q", buf, z64 + 48)[0]
    for _ in range(count):
        if buf[pos:pos + 4] != b"PK\x01\x02":
            raise ValueError(f"no central directory entry at {pos}")
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", buf, pos + 28)
        local = struct.unpack_from("<I", buf, pos + 42)[0]
        if local == 0xFFFFFFFF:  # ZIP64 extra field: sizes first when they overflow, then the offset
            extra = bytes(buf[pos + 46 + name_len:pos + 46 + name_len + extra_len])
            local = zip64_local_offset(extra, buf, pos)
        buf[pos + 12:pos + 16] = bytes(4)
        buf[local + 10:local + 14] = bytes(4)
        pos += 46 + name_len + extra_len + comment_len
    return bytes(buf)


def zip64_local_offset(extra: bytes, buf: bytearray, cd: int) -> int:
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, i)
        if tag == 1:
            fields = extra[i + 4:i + 4 + size]
            skip = 8 * sum(1 for off in (20, 24) if struct.unpack_from("<I", buf, cd + off)[0] == 0xFFFFFFFF)
            return struct.unpack_from("<Q", fields, skip)[0]
        i += 4 + size
    raise ValueError(f"central directory entry at {cd}: no ZIP64 offset")


def digest(p: pathlib.Path) -> str:
    data = p.read_bytes()
    if p.suffix == ".tacozip":
        data = without_zip_times(data)
    return hashlib.sha256(data).hexdigest()


def digests(root: pathlib.Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): digest(p)
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".stamp"}


def read_manifest(path: pathlib.Path) -> dict[str, str]:
    rows = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split(maxsplit=1)
            rows[name] = digest
    return rows


def stamp_of(manifest: pathlib.Path | None) -> str:
    h = hashlib.sha256(HERE.read_bytes())
    for p in [manifest, REPO / "bench" / "peers" / "requirements.txt"]:
        if p is not None and p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--manifest", type=pathlib.Path, help="expected SHA-256 per file; a mismatch fails")
    ap.add_argument("--write-manifest", type=pathlib.Path, help="write the SHA-256 list of what was made")
    ap.add_argument("--force", action="store_true", help="write again even if the stamp matches")
    args = ap.parse_args()
    out = args.out.resolve()
    stamp = stamp_of(args.manifest)
    if not args.force and (out / ".stamp").is_file() and (out / ".stamp").read_text() == stamp:
        return 0

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        write_all(tmp)
        got = digests(tmp)
        if args.write_manifest:
            lines = [f"{d}  {n}" for n, d in got.items()]
            args.write_manifest.write_text(
                "# SHA-256 of the upstream fixtures written by scripts/upstream_fixtures.py with the pinned\n"
                "# tacotoolbox (bench/peers/requirements.txt). Regenerate: see docs/development.md.\n"
                + "\n".join(lines) + "\n")
        if args.manifest:
            want = read_manifest(args.manifest)
            bad = sorted(n for n in set(want) | set(got) if want.get(n) != got.get(n))
            if bad:
                for n in bad:
                    print(f"upstream_fixtures: {n}: expected {want.get(n, 'no file')}, wrote {got.get(n, 'no file')}",
                          file=sys.stderr)
                print(f"upstream_fixtures: the pinned tacotoolbox wrote different bytes than {args.manifest}",
                      file=sys.stderr)
                return 1
        (tmp / ".stamp").write_text(stamp)
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"upstream_fixtures: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
