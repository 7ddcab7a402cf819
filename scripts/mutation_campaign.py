#!/usr/bin/env python3
"""Mutation campaign: damage small TACO datasets on purpose and see what every reader does.

It builds small datasets with the CLI under test (`taco demo` for the rasters, then `taco
create` / `taco tacocat`): a ZIP, a FOLDER, a `.tacocat/` folder and a single-file
`__TACOCAT__` (two ZIPs each), all with level 0 (FOLDER tiles) and level 1 (GeoTIFF FILEs).
Then, deterministically from --seed, it makes mutants (one mutation each: a bit flip, a
byte overwrite, a truncation, two samples' offsets swapped in the level Parquet, two FOLDER
files swapped, ...; `--list-classes` lists them) and runs operations on each mutant:

* CLI fronts: info, ls, files, sql level0/level1, cat, filter --bbox, stats (pooled and
  --exact), validate, convert;
* Python (`taco_cpp`): load, .data, read (every tile), read_bytes, stats_mean, validate;
* torch (`taco_cpp.torch.TacoDataset` through a DataLoader), when torch imports.

Each run has a timeout and an address-space limit (setrlimit) and is classified against
the same operation on the unmutated dataset (run at the same path):

  ok           exit 0 / no exception, output identical to the reference
  refused      non-zero exit with a `taco: ...` message (validate: exit 1 with violations) /
               a taco_cpp.TacoError
  crash        a signal, a sanitizer report, a non-zero exit without a `taco:` message, a
               Python exception that is not a taco_cpp error
  hang         the timeout
  memory       peak RSS above --mem-report-mb, or an allocation failure
  silent       exit 0 / no exception but the output differs from the reference (validate:
               "valid" for a mutant that another front saw differ or refuse, or whose damage
               a stored checksum reveals)

A silent result is split by whether a check exists for that damage (`check`): a ZIP member's
CRC-32 (payload, __meta__, levels, COLLECTION.json, TACO_HEADER; the central directory and
local headers cross-check each other), a Parquet page CRC (decided per mutant: PyArrow
reading the damaged file with page checksum verification fails), a Parquet footer (a
truncated Parquet file), a local header naming the member (swapped offsets in a ZIP). A
FOLDER payload, COLLECTION.json outside a ZIP, a `__TACOCAT__` header and swapped FOLDER
files have no checksum (docs/reliability.md).

Outputs in --out (default ./mutation-campaign): summary.md (container x class x front:
runs / ok / refused / crash / hang / memory / silent with check / silent without check),
silent.jsonl (every silent, crash, hang and memory case with a command that reproduces it),
runs.jsonl (every run).

Usage (from the repository root, with the project venv for pyarrow, taco_cpp and torch):

  .venv/bin/python scripts/mutation_campaign.py --build build                # ~300 runs
  .venv/bin/python scripts/mutation_campaign.py --build build --runs 3000    # full campaign
  .venv/bin/python scripts/mutation_campaign.py --build build --containers zip,folder \\
      --classes payload-bitflip --fronts cli --runs 50
  # one mutant again (as printed in silent.jsonl), keeping its files in DIR:
  .venv/bin/python scripts/mutation_campaign.py --build build --seed 1 \\
      --only zip:zip-payload-bitflip:17 --keep DIR

--build DIR takes DIR/taco and DIR/python (the taco_cpp package); --taco and --pythonpath
override them. --jobs N runs N mutants at a time (default 1: the machine is shared).
Exit status: 0 when the campaign ran (whatever it found), 2 on bad usage or when the
reference datasets cannot be built; --fail-on-silent-check makes it 1 when a silent
wrong result was found where a check exists.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import io
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from collections import defaultdict
from pathlib import Path

CONTAINERS = ["zip", "folder", "tacocat", "tacocat1"]
DATASET_PATH = {  # the path given to the commands, inside the container's directory
    "zip": "ds.tacozip",
    "folder": "ds",
    "tacocat": ".tacocat",
    "tacocat1": "__TACOCAT__",
}
TILES_A = ["tile_00", "tile_01", "tile_02"]
TILES_B = ["tile_03", "tile_04", "tile_05"]
FILES = ["after.tif", "before.tif", "label.tif"]
COLLECTION = {
    "id": "mutation_campaign", "dataset_version": "1.0.0",
    "description": "base dataset of scripts/mutation_campaign.py", "licenses": ["CC0-1.0"],
    "providers": [{"name": "taco-cpp", "roles": ["producer"]}], "tasks": ["segmentation"],
}
TACO_ERROR_NAMES = {"ViolationsFound", "TacoError", "InvalidArgumentError", "NotFoundError", "CorruptionError", "TacoIOError",
                    "NotSupportedError", "AlreadyExistsError", "InternalError"}
SANITIZER_MARKS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer", "runtime error:")
MEMORY_MARKS = ("bad_alloc", "out of memory", "Out of Memory", "Cannot allocate memory", "MemoryError",
                "failed to allocate")
CLASSES = ["ok", "refused", "crash", "hang", "memory", "silent"]


# ---------------------------------------------------------------------------------------------
# Mutation classes: name -> (containers, a check exists?, the function that applies it).
# A mutation function gets (root, dataset, rng) and returns (description, target, check):
# target = (tile, file) that `cat`/`read_bytes` read (None: the default), check = None to keep
# the class's answer, or True/False decided for this mutant.
# ---------------------------------------------------------------------------------------------

def flip_bit(data: bytearray, pos: int, rng: random.Random) -> str:
    bit = rng.randrange(8)
    data[pos] ^= 1 << bit
    return f"bit {bit} of byte {pos}"


def overwrite(data: bytearray, pos: int, rng: random.Random, end: int) -> str:
    n = min(rng.randint(1, 16), end - pos)
    data[pos:pos + n] = bytes(rng.randrange(256) for _ in range(n))
    return f"{n} bytes at {pos}"


def damage_range(data: bytearray, start: int, end: int, rng: random.Random, how: str) -> str:
    pos = rng.randrange(start, end)
    return flip_bit(data, pos, rng) if how == "bitflip" else overwrite(data, pos, rng, end)


class Zip:
    """The members of a stored (uncompressed) ZIP: name -> (local header offset, data offset, size)."""

    def __init__(self, path: Path):
        self.path = path
        self.data = bytearray(path.read_bytes())
        self.members = {}
        with zipfile.ZipFile(io.BytesIO(bytes(self.data))) as zf:
            for info in zf.infolist():
                lfh = info.header_offset
                nlen, xlen = struct.unpack_from("<HH", self.data, lfh + 26)
                self.members[info.filename] = (lfh, lfh + 30 + nlen + xlen, info.compress_size)
        self.eocd = self.data.rfind(b"PK\x05\x06")
        self.cd_offset = struct.unpack_from("<I", self.data, self.eocd + 16)[0]

    def names(self, pred) -> list[str]:
        return sorted(n for n in self.members if pred(n))

    def save(self):
        self.path.write_bytes(bytes(self.data))


def payload_names(z: Zip) -> list[str]:
    return z.names(lambda n: n.startswith("DATA/") and not n.endswith("__meta__"))


def meta_names(z: Zip) -> list[str]:
    return z.names(lambda n: n.endswith("__meta__") or n.startswith("METADATA/"))


def zip_of(root: Path, container: str, rng: random.Random) -> Path:
    if container == "zip":
        return root / "ds.tacozip"
    return root / rng.choice(["a.tacozip", "b.tacozip"])


def target_of(member: str):
    parts = member.split("/")
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "DATA" else None


def m_zip_payload(how):
    def apply(root, container, rng):
        z = Zip(zip_of(root, container, rng))
        name = rng.choice(payload_names(z))
        _, start, size = z.members[name]
        what = damage_range(z.data, start, start + size, rng, how)
        z.save()
        return f"{z.path.name}:{name}: {what}", target_of(name), None
    return apply


def m_zip_payload_zero_tail(root, container, rng):
    z = Zip(zip_of(root, container, rng))
    name = rng.choice(payload_names(z))
    _, start, size = z.members[name]
    cut = rng.randrange(1, size)
    z.data[start + cut:start + size] = bytes(size - cut)
    z.save()
    return f"{z.path.name}:{name}: bytes {cut}.. zeroed", target_of(name), None


def m_zip_meta(how):
    def apply(root, container, rng):
        z = Zip(zip_of(root, container, rng))
        name = rng.choice(meta_names(z))
        _, start, size = z.members[name]
        what = damage_range(z.data, start, start + size, rng, how)
        z.save()
        return f"{z.path.name}:{name}: {what}", None, None
    return apply


def m_zip_member(member, how):
    def apply(root, container, rng):
        z = Zip(zip_of(root, container, rng))
        _, start, size = z.members[member]
        what = damage_range(z.data, start, start + size, rng, how)
        z.save()
        return f"{z.path.name}:{member}: {what}", None, None
    return apply


# Bytes of ZIP headers that no reader needs and no check covers (times, version fields,
# attributes, disk numbers, comments): a flip there is harmless, so no check is expected.
LFH_FREE = set(range(4, 6)) | set(range(10, 14))
CDH_FREE = set(range(4, 8)) | set(range(12, 16)) | set(range(34, 42))
EOCD_FREE = set(range(4, 8))


def m_zip_taco_header(root, container, rng):
    z = Zip(zip_of(root, container, rng))
    pos = rng.randrange(0, 157)
    what = flip_bit(z.data, pos, rng)
    z.save()
    return f"{z.path.name}:TACO_HEADER record: {what}", None, pos not in LFH_FREE


def m_zip_central_directory(root, container, rng):
    z = Zip(zip_of(root, container, rng))
    pos = rng.randrange(z.cd_offset, len(z.data))
    record, rel = z.cd_offset, None
    while record < z.eocd:
        nlen, xlen, clen = struct.unpack_from("<HHH", z.data, record + 28)
        size = 46 + nlen + xlen + clen
        if pos < record + size:
            rel = pos - record
            check = rel not in CDH_FREE and rel < 46 + nlen + xlen
            break
        record += size
    if rel is None:
        rel = pos - z.eocd
        check = rel < 22 and rel not in EOCD_FREE
    what = flip_bit(z.data, pos, rng)
    z.save()
    return f"{z.path.name}: central directory/EOCD: {what}", None, check


def m_zip_local_header(root, container, rng):
    z = Zip(zip_of(root, container, rng))
    name = rng.choice(sorted(z.members))
    lfh, start, _ = z.members[name]
    pos = rng.randrange(lfh, start)
    what = flip_bit(z.data, pos, rng)
    z.save()
    return f"{z.path.name}: local header of {name}: {what}", target_of(name), (pos - lfh) not in LFH_FREE


def m_file_truncate(root, container, rng):
    path = zip_of(root, container, rng)
    data = path.read_bytes()
    cut = rng.randrange(0, len(data))
    path.write_bytes(data[:cut])
    return f"{path.name} truncated to {cut} of {len(data)} bytes", None, None


# ---- Parquet helpers (pyarrow) --------------------------------------------------------------

def parquet_damage_detected(original: bytes, damaged: bytes) -> bool:
    """True when an independent reader (PyArrow with page checksum verification) notices the
    damage: the file no longer reads, or reads only without the page CRC check."""
    import pyarrow.parquet as pq
    try:
        pq.read_table(io.BytesIO(damaged), page_checksum_verification=True)
    except Exception:  # noqa: BLE001 - any failure means the damage is detectable
        return True
    return False


def swap_rows(parquet: bytes, idx: tuple[int, int], ids: tuple[str, str], control: bool) -> bytes:
    """The level/__meta__ Parquet rewritten by PyArrow with internal:offset and internal:size
    of rows idx[0] and idx[1] (whose ids must be ids[0], ids[1]) exchanged; control=True
    rewrites it the same way without the exchange (the reference of this mutant)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pq.read_table(io.BytesIO(parquet))
    found = tuple(table.column("id")[i].as_py() for i in idx)
    if found != tuple(ids):
        raise RuntimeError(f"swap: rows {idx} are {found}, not {ids}")
    columns = {}
    for name in table.column_names:
        values = table.column(name).to_pylist()
        if name in ("internal:offset", "internal:size") and not control:
            values[idx[0]], values[idx[1]] = values[idx[1]], values[idx[0]]
        columns[name] = pa.array(values, type=table.schema.field(name).type)
    return write_parquet(pa.table(columns, schema=table.schema))


def write_parquet(table) -> bytes:
    """Uncompressed PLAIN pages: exchanging two values keeps the file's size (and min/max),
    so the damaged file and its control have the same size and nothing else moves."""
    import pyarrow.parquet as pq
    out = io.BytesIO()
    pq.write_table(table, out, compression="NONE", use_dictionary=False)
    return out.getvalue()


def set_meta_ranges(level0: bytes, z: "Zip") -> bytes:
    """Level 0 with internal:offset/size of each FOLDER row set to its __meta__ member's."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pq.read_table(io.BytesIO(level0))
    ids = table.column("id").to_pylist()
    columns = {}
    for name in table.column_names:
        values = table.column(name).to_pylist()
        if name in ("internal:offset", "internal:size"):
            for i, tile in enumerate(ids):
                _, start, size = z.members[f"DATA/{tile}/__meta__"]
                values[i] = start if name == "internal:offset" else size
        columns[name] = pa.array(values, type=table.schema.field(name).type)
    return write_parquet(pa.table(columns, schema=table.schema))


def zip_replace_members(path: Path, replacements: dict[str, bytes]):
    """Rewrite the ZIP with new contents for some members; the members before the first
    replaced one keep their bytes and offsets, the TACO_HEADER pairs follow the moves."""
    z = Zip(path)
    data = z.data
    first = min(z.members[n][0] for n in replacements)
    out = bytearray(data[:first])
    moved = {}  # old local header offset -> (new lfh offset, new data offset, size, crc)
    by_offset = sorted((lfh, name) for name, (lfh, _, _) in z.members.items() if lfh >= first)
    for lfh, name in by_offset:
        _, start, size = z.members[name]
        content = replacements.get(name, bytes(data[start:start + size]))
        header = bytearray(data[lfh:start])
        crc = zlib.crc32(content)
        struct.pack_into("<III", header, 14, crc, len(content), len(content))
        moved[lfh] = (len(out), len(out) + len(header), len(content), crc, start)
        out += header + content
    cd_start = len(out)
    pos = z.cd_offset
    entries = struct.unpack_from("<H", data, z.eocd + 10)[0]
    for _ in range(entries):
        nlen, xlen, clen = struct.unpack_from("<HHH", data, pos + 28)
        record = bytearray(data[pos:pos + 46 + nlen + xlen + clen])
        lfh = struct.unpack_from("<I", record, 42)[0]
        if lfh in moved:
            new_lfh, _, size, crc, _ = moved[lfh]
            struct.pack_into("<III", record, 16, crc, size, size)
            struct.pack_into("<I", record, 42, new_lfh)
        out += record
        pos += len(record)
    eocd = bytearray(data[z.eocd:])
    struct.pack_into("<II", eocd, 12, len(out) - cd_start, cd_start)
    out += eocd
    # TACO_HEADER pairs: data offsets of the metadata members.
    old_data = {start: (new_start, size) for (_, new_start, size, _, start) in moved.values()}
    count = out[41]
    for i in range(count):
        off, length = struct.unpack_from("<QQ", out, 45 + 16 * i)
        if off in old_data:
            struct.pack_into("<QQ", out, 45 + 16 * i, *old_data[off])
    header_crc = zlib.crc32(bytes(out[41:157]))
    struct.pack_into("<I", out, 14, header_crc)
    cd = cd_start
    for _ in range(entries):
        nlen, xlen, clen = struct.unpack_from("<HHH", out, cd + 28)
        if struct.unpack_from("<I", out, cd + 42)[0] == 0:
            struct.pack_into("<I", out, cd + 16, header_crc)
        cd += 46 + nlen + xlen + clen
    path.write_bytes(bytes(out))


def pick_swap(rng: random.Random, tiles: list[str]):
    tile = rng.choice(tiles)
    a, b = rng.sample(FILES, 2)
    return tile, a, b


def m_zip_swap_offsets(root, container, rng, control=False):
    path = root / "ds.tacozip"
    z = Zip(path)
    tile, a, b = pick_swap(rng, TILES_A)
    level1 = bytes(z.data[z.members["METADATA/level1.parquet"][1]:][:z.members["METADATA/level1.parquet"][2]])
    meta_name = f"DATA/{tile}/__meta__"
    meta = bytes(z.data[z.members[meta_name][1]:][:z.members[meta_name][2]])
    row = 3 * TILES_A.index(tile)  # level 1 holds each tile's FILES, in name order
    zip_replace_members(path, {
        "METADATA/level1.parquet": swap_rows(level1, (row + FILES.index(a), row + FILES.index(b)), (a, b), control),
        meta_name: swap_rows(meta, (FILES.index(a), FILES.index(b)), (a, b), control)})
    # the rewritten __meta__ moved: level 0 rows point at their __meta__
    z = Zip(path)
    level0 = bytes(z.data[z.members["METADATA/level0.parquet"][1]:][:z.members["METADATA/level0.parquet"][2]])
    zip_replace_members(path, {"METADATA/level0.parquet": set_meta_ranges(level0, z)})
    return f"offsets of {tile}/{a} and {tile}/{b} swapped (level1 + __meta__)", (tile, a), None


def tacocat_parts(data: bytes):
    """The single-file __TACOCAT__: [(offset, size)] of levels 0..5 and COLLECTION.json."""
    pairs = [struct.unpack_from("<QQ", data, 16 + 16 * i) for i in range(7)]
    return pairs


def tacocat_rebuild(path: Path, replace: dict[int, bytes]):
    data = path.read_bytes()
    pairs = tacocat_parts(data)
    head = bytearray(data[:128])
    body = bytearray()
    for i, (off, size) in enumerate(pairs):
        if off == 0 and size == 0:
            continue
        content = replace.get(i, data[off:off + size])
        struct.pack_into("<QQ", head, 16 + 16 * i, 128 + len(body), len(content))
        body += content
    path.write_bytes(bytes(head + body))


def m_tacocat_swap_offsets(root, container, rng, control=False):
    tile, a, b = pick_swap(rng, TILES_A + TILES_B)
    row = 3 * (TILES_A + TILES_B).index(tile)
    rows = (row + FILES.index(a), row + FILES.index(b))
    if container == "tacocat":
        path = root / ".tacocat" / "level1.parquet"
        path.write_bytes(swap_rows(path.read_bytes(), rows, (a, b), control))
    else:
        path = root / "__TACOCAT__"
        data = path.read_bytes()
        off, size = tacocat_parts(data)[1]
        tacocat_rebuild(path, {1: swap_rows(data[off:off + size], rows, (a, b), control)})
    return f"offsets of {tile}/{a} and {tile}/{b} swapped in the consolidated level1", (tile, a), None


def m_file_damage(pick, how, parquet=False):
    """Damage one file of a FOLDER / .tacocat (pick(root, rng) -> path)."""
    def apply(root, container, rng):
        path = pick(root, rng)
        original = path.read_bytes()
        data = bytearray(original)
        if how == "truncate":
            cut = rng.randrange(0, len(data))
            data = data[:cut]
            what = f"truncated to {cut} of {len(original)} bytes"
        else:
            what = damage_range(data, 0, len(data), rng, how)
        path.write_bytes(bytes(data))
        check = None
        if parquet:
            check = how == "truncate" or parquet_damage_detected(original, bytes(data))
        rel = path.relative_to(root)
        target = (rel.parts[-2], rel.parts[-1]) if rel.parts[-1] in FILES else None
        return f"{rel}: {what}", target, check
    return apply


def pick_folder_payload(root, rng):
    return root / "ds" / "DATA" / rng.choice(TILES_A) / rng.choice(FILES)


def pick_folder_parquet(root, rng):
    choices = [root / "ds/METADATA/level0.parquet", root / "ds/METADATA/level1.parquet"]
    choices += [root / "ds/DATA" / t / "__meta__" for t in TILES_A]
    return rng.choice(choices)


def pick_tacocat_parquet(root, rng):
    return rng.choice([root / ".tacocat/level0.parquet", root / ".tacocat/level1.parquet"])


def m_folder_swap_files(root, container, rng):
    tile, a, b = pick_swap(rng, TILES_A)
    pa_, pb = root / "ds/DATA" / tile / a, root / "ds/DATA" / tile / b
    da, db = pa_.read_bytes(), pb.read_bytes()
    pa_.write_bytes(db)
    pb.write_bytes(da)
    return f"DATA/{tile}/{a} and {b} exchanged", (tile, a), None


def m_tacocat1_region(region, how):
    def apply(root, container, rng):
        path = root / "__TACOCAT__"
        original = path.read_bytes()
        data = bytearray(original)
        pairs = tacocat_parts(original)
        check = None
        if region == "header":
            what = damage_range(data, 0, 128, rng, how)
        elif region == "collection":
            off, size = pairs[6]
            what = "COLLECTION.json: " + damage_range(data, off, off + size, rng, how)
        else:
            level = rng.choice([i for i in range(6) if pairs[i] != (0, 0)])
            off, size = pairs[level]
            what = f"level{level}: " + damage_range(data, off, off + size, rng, how)
            check = parquet_damage_detected(original[off:off + size], bytes(data[off:off + size]))
        path.write_bytes(bytes(data))
        return f"__TACOCAT__ {what}", None, check
    return apply


def mutation_classes() -> dict:
    z, c = ["zip"], ["tacocat", "tacocat1"]
    zc = z + c  # payload damage of the ZIPs behind a TACOCAT too
    folder_coll = lambda root, rng: root / "ds/COLLECTION.json"  # noqa: E731
    tacocat_coll = lambda root, rng: root / ".tacocat/COLLECTION.json"  # noqa: E731
    return {
        # name: (containers, check exists, apply)
        "zip-payload-bitflip": (zc, True, m_zip_payload("bitflip")),
        "zip-payload-overwrite": (zc, True, m_zip_payload("overwrite")),
        "zip-payload-zero-tail": (zc, True, m_zip_payload_zero_tail),
        "zip-meta-parquet-bitflip": (z, True, m_zip_meta("bitflip")),
        "zip-meta-parquet-overwrite": (z, True, m_zip_meta("overwrite")),
        "zip-collection-bitflip": (z, True, m_zip_member("COLLECTION.json", "bitflip")),
        "zip-taco-header-bitflip": (z, True, m_zip_taco_header),
        "zip-central-directory-bitflip": (zc, True, m_zip_central_directory),
        "zip-local-header-bitflip": (zc, True, m_zip_local_header),
        "zip-file-truncate": (zc, True, m_file_truncate),
        "zip-swap-offsets": (z, True, m_zip_swap_offsets),
        "folder-payload-bitflip": (["folder"], False, m_file_damage(pick_folder_payload, "bitflip")),
        "folder-payload-overwrite": (["folder"], False, m_file_damage(pick_folder_payload, "overwrite")),
        "folder-payload-truncate": (["folder"], False, m_file_damage(pick_folder_payload, "truncate")),
        "folder-swap-files": (["folder"], False, m_folder_swap_files),
        "folder-parquet-bitflip": (["folder"], False, m_file_damage(pick_folder_parquet, "bitflip", True)),
        "folder-parquet-overwrite": (["folder"], False, m_file_damage(pick_folder_parquet, "overwrite", True)),
        "folder-parquet-truncate": (["folder"], True, m_file_damage(pick_folder_parquet, "truncate", True)),
        "folder-collection-bitflip": (["folder"], False, m_file_damage(folder_coll, "bitflip")),
        "folder-collection-overwrite": (["folder"], False, m_file_damage(folder_coll, "overwrite")),
        "tacocat-parquet-bitflip": (["tacocat"], False, m_file_damage(pick_tacocat_parquet, "bitflip", True)),
        "tacocat-parquet-overwrite": (["tacocat"], False, m_file_damage(pick_tacocat_parquet, "overwrite", True)),
        "tacocat-parquet-truncate": (["tacocat"], True, m_file_damage(pick_tacocat_parquet, "truncate", True)),
        "tacocat-collection-bitflip": (["tacocat"], False, m_file_damage(tacocat_coll, "bitflip")),
        "tacocat-swap-offsets": (c, True, m_tacocat_swap_offsets),
        "tacocat1-header-bitflip": (["tacocat1"], False, m_tacocat1_region("header", "bitflip")),
        "tacocat1-parquet-bitflip": (["tacocat1"], False, m_tacocat1_region("level", "bitflip")),
        "tacocat1-parquet-overwrite": (["tacocat1"], False, m_tacocat1_region("level", "overwrite")),
        "tacocat1-collection-bitflip": (["tacocat1"], False, m_tacocat1_region("collection", "bitflip")),
    }


# ---------------------------------------------------------------------------------------------
# Running things: a subprocess with a timeout and an address-space limit; peak RSS from wait4.
# ---------------------------------------------------------------------------------------------

def limit_memory(mem_mb: int):
    def preexec():
        os.setsid()
        limit = mem_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return preexec


def run_process(argv, cwd, timeout, mem_mb, stdout_path, stderr_path, env=None) -> dict:
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                preexec_fn=limit_memory(mem_mb), env=env)
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    proc.returncode = 0  # reaped by wait4; keep Popen from waiting again
    code = os.waitstatus_to_exitcode(status)
    return {"timeout": timed_out, "code": code, "maxrss_kb": usage.ru_maxrss}


# ---------------------------------------------------------------------------------------------
# Python and torch fronts: a fork server (imports taco_cpp and torch once; one fork per run).
# ---------------------------------------------------------------------------------------------

class ViolationsFound(Exception):
    """py-validate found violations: counted as refused, like `taco validate` exiting 1."""


def py_op(op: str, ds_path: str, target):
    import taco_cpp
    tile, name = target
    if op == "py-load":
        ds = taco_cpp.load(ds_path)
        return [ds.id, ds.version, ds.format, len(ds)]
    if op == "py-data":
        return taco_cpp.load(ds_path).data.to_pylist()
    if op == "py-read":
        ds = taco_cpp.load(ds_path)
        out = []
        for i in range(len(ds)):
            frame = ds.read(i)
            out.append([frame.data.to_pylist(), [ds.read(i, f) for f in FILES]])
        return out
    if op == "py-read-bytes":
        return hashlib.sha256(taco_cpp.load(ds_path).read_bytes(tile, name)).hexdigest()
    if op == "py-stats":
        ds = taco_cpp.load(ds_path)
        return [ds.stats_mean([0, 1], level=1, file="before.tif").tolist(),
                ds.stats_max([0, 1], level=1, file="before.tif").tolist()]
    if op == "py-validate":
        report = taco_cpp.validate(ds_path)
        if not report.ok:  # violations found: the damage was reported (as `taco validate` exit 1)
            raise ViolationsFound(f"{report.total} violation(s): {report.violations[:3]}")
        return True
    if op == "torch-loader":
        import torch.utils.data
        from taco_cpp.torch import TacoDataset
        dataset = TacoDataset(ds_path, files=["before.tif", "label.tif"])
        loader = torch.utils.data.DataLoader(dataset, batch_size=None, num_workers=0)
        out = []
        for sample in loader:
            digest = {}
            for key, value in sample.items():
                if hasattr(value, "numpy"):
                    array = value.numpy()
                    digest[key] = [list(array.shape), str(array.dtype), hashlib.sha256(array.tobytes()).hexdigest()]
                else:
                    digest[key] = value
            out.append(digest)
        return out
    raise ValueError(f"unknown op {op}")


def serve():
    """The fork server: one JSON request per stdin line, one JSON answer per stdout line."""
    import taco_cpp  # noqa: F401 - imported once, inherited by every fork
    try:
        import taco_cpp.torch  # noqa: F401
        has_torch = True
    except Exception:  # noqa: BLE001 - torch is optional
        has_torch = False
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    protocol.write(json.dumps({"ready": True, "torch": has_torch}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        result_path = req["result"]
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setsid()
                log = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(log, 1)
                os.dup2(log, 2)
                limit = req["mem_bytes"]
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                try:
                    value = py_op(req["op"], req["ds"], req["target"])
                    result = {"ok": True, "out": json.dumps(value, sort_keys=True, default=repr)}
                except BaseException as exc:  # noqa: BLE001 - classified by the caller
                    names = {cls.__name__ for cls in type(exc).__mro__}
                    result = {"ok": False, "etype": type(exc).__name__, "taco": bool(names & TACO_ERROR_NAMES),
                              "msg": str(exc)[:500]}
                with open(result_path, "w") as f:
                    json.dump(result, f)
            except BaseException:  # noqa: BLE001
                code = 3
            os._exit(code)
        deadline = time.monotonic() + req["timeout"]
        timed_out = False
        while True:
            wpid, status, usage = os.wait4(pid, os.WNOHANG)
            if wpid:
                break
            if time.monotonic() > deadline:
                timed_out = True
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    os.kill(pid, signal.SIGKILL)
                wpid, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.01)
        protocol.write(json.dumps({"timeout": timed_out, "code": os.waitstatus_to_exitcode(status),
                                   "maxrss_kb": usage.ru_maxrss}) + "\n")


class ForkServer:
    def __init__(self, python: str, pythonpath: str, workdir: Path):
        env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONDONTWRITEBYTECODE="1", TACO_NO_CACHE="1")
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=open(workdir / "server.log", "wb"),
                                     text=True, bufsize=1, env=env)
        hello = json.loads(self.proc.stdout.readline() or "{}")
        if not hello.get("ready"):
            raise RuntimeError(f"the Python fork server did not start (see {workdir / 'server.log'})")
        self.has_torch = hello["torch"]
        self.lock = threading.Lock()

    def run(self, req: dict) -> dict:
        with self.lock:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# ---------------------------------------------------------------------------------------------
# Operations and their classification.
# ---------------------------------------------------------------------------------------------

DEFAULT_TARGET = ("tile_01", "before.tif")


def cli_ops(bbox: str) -> dict:
    """name -> argv after `taco` (DS = the dataset, T/F = the target tile/file, OUT = an output)."""
    return {
        "info": ["info", "DS"],
        "ls": ["ls", "DS"],
        "files": ["files", "DS", "--format", "csv"],
        "sql-level0": ["sql", "DS", "SELECT * FROM level0", "--format", "csv"],
        "sql-level1": ["sql", "DS", "SELECT * FROM level1", "--format", "csv"],
        "cat": ["cat", "DS", "T", "F"],
        "filter-bbox": ["filter", "DS", "--bbox", bbox],
        "stats": ["stats", "DS", "--level", "1", "--file", "before.tif", "--band", "0,1"],
        "stats-exact": ["stats", "DS", "--level", "1", "--file", "before.tif", "--band", "0,1", "--exact"],
        "validate": ["validate", "DS"],
        "convert": ["convert", "DS", "OUT"],
    }


CONTROLLED = {"zip-swap-offsets", "tacocat-swap-offsets"}  # mutations that rewrite metadata
TARGET_OPS = {"cat", "py-read-bytes"}
PY_OPS = ["py-load", "py-data", "py-read", "py-read-bytes", "py-stats", "py-validate"]
TORCH_OPS = ["torch-loader"]


def fingerprint_dataset(path: Path) -> str:
    """A digest of a dataset written by `convert`: each file/member's bytes, Parquet as rows."""
    import pyarrow.parquet as pq

    def digest(name: str, data: bytes) -> str:
        if name.endswith(".parquet") or name.endswith("__meta__"):
            try:
                rows = pq.read_table(io.BytesIO(data)).to_pylist()
                return hashlib.sha256(json.dumps(rows, sort_keys=True, default=repr).encode()).hexdigest()
            except Exception:  # noqa: BLE001
                pass
        return hashlib.sha256(data).hexdigest()

    items = []
    if path.is_dir():
        for f in sorted(path.rglob("*")):
            if f.is_file():
                items.append((str(f.relative_to(path)), digest(f.name, f.read_bytes())))
    else:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                if info.filename != "TACO_HEADER":
                    items.append((info.filename, digest(info.filename, zf.read(info))))
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()


class Campaign:
    def __init__(self, args):
        self.args = args
        self.taco = str(Path(args.taco).resolve())
        self.work = Path(args.work).resolve()
        self.classes = mutation_classes()
        self.server = None
        self.references = {}  # (container, op, target) -> output digest

    # ---- base datasets ----------------------------------------------------------------------
    def taco_run(self, *argv, cwd=None):
        res = subprocess.run([self.taco, *argv], cwd=cwd, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"taco {' '.join(argv)}: exit {res.returncode}: {res.stderr.strip()}")
        return res.stdout

    def build_bases(self):
        base = self.work / "base"
        if base.exists():
            shutil.rmtree(base)
        src = self.work / "src"
        if src.exists():
            shutil.rmtree(src)
        src.mkdir(parents=True)
        self.taco_run("demo", str(src / "demo"))
        for part, tiles in (("a", TILES_A), ("b", TILES_B), ("all", TILES_A + TILES_B)):
            for tile in tiles:
                shutil.copytree(src / "demo" / "tiles" / tile, src / part / tile)
        (src / "collection.json").write_text(json.dumps(COLLECTION))
        coll = str(src / "collection.json")
        ext = ["--collection", coll, "--ext", "stac,stats"]
        wanted = [c for c in CONTAINERS if c in self.args.containers]
        for c in wanted:
            (base / c).mkdir(parents=True)
        if "zip" in wanted:
            self.taco_run("create", str(src / "a"), str(base / "zip" / "ds.tacozip"), *ext)
        if "folder" in wanted:
            self.taco_run("create", str(src / "a"), str(base / "folder" / "ds"), *ext)
        for c in ("tacocat", "tacocat1"):
            if c not in wanted:
                continue
            for part in ("a", "b"):
                self.taco_run("create", str(src / part), str(base / c / f"{part}.tacozip"), *ext)
            single = ["--single-file"] if c == "tacocat1" else []
            self.taco_run("tacocat", str(base / c / "a.tacozip"), str(base / c / "b.tacozip"), *single)
        for c in wanted:
            if not (base / c / DATASET_PATH[c]).exists():
                raise RuntimeError(f"{c}: {base / c / DATASET_PATH[c]} was not written")
        # the box of filter --bbox: the extent of all six tiles (the same for every container)
        self.taco_run("create", str(src / "all"), str(src / "all.tacozip"), *ext)
        info = json.loads(self.taco_run("info", "--json", str(src / "all.tacozip")))
        box = info_bbox(info)
        self.bbox = ",".join(repr(round(v, 6)) for v in box)

    # ---- one run ------------------------------------------------------------------------------
    def run_op(self, slot: Path, container: str, op: str, target) -> dict:
        ds = str(slot / container / DATASET_PATH[container])
        out_dir = slot / "out"
        if out_dir.exists():
            shutil.rmtree(out_dir)
        out_dir.mkdir()
        t0 = time.monotonic()
        if op in PY_OPS or op in TORCH_OPS:
            mem = self.args.mem_mb * 1024 * 1024 * (4 if op in TORCH_OPS else 2)
            res = self.server.run({"op": op, "ds": ds, "target": list(target), "timeout": self.args.timeout,
                                   "mem_bytes": mem, "result": str(out_dir / "result.json"),
                                   "log": str(out_dir / "log.txt")})
            res["seconds"] = time.monotonic() - t0
            log = read_text(out_dir / "log.txt")
            result = None
            if (out_dir / "result.json").exists():
                result = json.loads((out_dir / "result.json").read_text())
            return classify_py(res, result, log, self.args)
        argv = [self.taco] + [{"DS": ds, "T": target[0], "F": target[1], "OUT": str(out_dir / "converted")}.get(a, a)
                              for a in cli_ops(self.bbox)[op]]
        res = run_process(argv, str(slot), self.args.timeout, self.args.mem_mb, out_dir / "stdout",
                          out_dir / "stderr", env=dict(os.environ, TACO_NO_CACHE="1"))
        res["seconds"] = time.monotonic() - t0
        stdout = (out_dir / "stdout").read_bytes()
        stderr = read_text(out_dir / "stderr")
        if op == "convert" and res["code"] == 0 and not res["timeout"]:
            try:
                stdout = fingerprint_dataset(out_dir / "converted").encode()
            except Exception as exc:  # noqa: BLE001 - unreadable output of a successful convert
                stdout = f"unreadable output: {exc}".encode()
        if not stderr.strip() and res["code"] != 0:
            stderr = stdout.decode("utf-8", "replace")[-2000:]  # validate lists violations on stdout
        return classify_cli(op, res, hashlib.sha256(stdout).hexdigest(), stderr, self.args)

    def ops(self):
        fronts = self.args.fronts
        ops = []
        if "cli" in fronts:
            ops += list(cli_ops("0,0,0,0"))
        if "python" in fronts:
            ops += PY_OPS
        if "torch" in fronts and self.server is not None and self.server.has_torch:
            ops += TORCH_OPS
        if self.args.ops:
            ops = [op for op in ops if op in self.args.ops]
        return ops

    def reference(self, slot: Path, container: str, op: str, target, control=None) -> dict | None:
        """The op on the unmutated dataset at the same path (run twice: it must be a
        deterministic success). The mutant in slot/container is set aside meanwhile."""
        key = (str(slot), container, op, tuple(target) if op in TARGET_OPS else None,
               control[0] if control else None)
        if key not in self.references:
            here, aside = slot / container, slot / (container + ".mutant")
            if here.exists():
                here.rename(aside)
            try:
                restore(self.work / "base" / container, here)
                if control:
                    control[1](here)
                first = self.run_op(slot, container, op, target)
                second = self.run_op(slot, container, op, target)
            finally:
                if aside.exists():
                    shutil.rmtree(here, ignore_errors=True)
                    aside.rename(here)
            ok = first["kind"] == "exit0" and second["kind"] == "exit0" and first["digest"] == second["digest"]
            if not ok:
                print(f"note: {container} {op}: the reference run is not a deterministic success "
                      f"({first.get('detail') or first['kind']}); this op is left out there", file=sys.stderr)
            self.references[key] = first if ok else None
        return self.references[key]

    def run_mutant(self, slot: Path, container: str, cls: str, index: int) -> list[dict]:
        _, check_default, apply = self.classes[cls]
        rng = random.Random(f"{self.args.seed}:{container}:{cls}:{index}")
        restore(self.work / "base" / container, slot / container)
        try:
            description, target, check = apply(slot / container, container, rng)
        except Exception as exc:  # noqa: BLE001 - a mutation that cannot be made here
            print(f"note: {container}:{cls}:{index}: mutation failed: {exc}", file=sys.stderr)
            return []
        if check is None:
            check = check_default
        target = target or DEFAULT_TARGET
        if self.args.keep:
            restore(slot / container, self.work / "mutants" / f"{container}-{cls}-{index}")
        results = []
        control = None
        if cls in CONTROLLED:  # the reference is the same rewrite without the damage
            control = (f"{cls}:{index}", lambda here: apply(here, container, random.Random(
                f"{self.args.seed}:{container}:{cls}:{index}"), control=True))
        for op in self.ops():
            ref = self.reference(slot, container, op, target, control)
            if ref is None:
                continue
            res = self.run_op(slot, container, op, target)
            kind = res["kind"]
            if kind == "exit0":
                kind = "ok" if res["digest"] == ref["digest"] else "silent"
            results.append({"container": container, "mclass": cls, "index": index, "op": op,
                            "front": front_of(op), "mutation": description, "target": "/".join(target),
                            "check": bool(check), "result": kind, "detail": res.get("detail", ""),
                            "seconds": round(res["seconds"], 3), "maxrss_mb": round(res["maxrss_kb"] / 1024, 1)})
        # validate's verdict depends on the other fronts: "valid" is silent when another front
        # saw the damage or a checksum reveals it.
        damaged = check or any(r["result"] in ("refused", "silent", "crash") for r in results
                               if r["op"] not in ("validate", "py-validate"))
        for r in results:
            if r["op"] in ("validate", "py-validate") and r["result"] == "ok" and damaged:
                r["result"] = "silent"
                r["detail"] = "validate called the damaged mutant valid"
        return results


def info_bbox(info: dict) -> list[float]:
    """The collection's spatial extent (`taco info --json`), 0.01 degree wider: every tile of
    the reference is inside, a tile whose geometry moves far is not."""
    box = ((info.get("collection") or {}).get("extent") or {}).get("spatial")
    if isinstance(box, list) and box and isinstance(box[0], list):
        box = box[0]
    if not (isinstance(box, list) and len(box) == 4):
        raise RuntimeError("taco info --json: no collection.extent.spatial")
    return [box[0] - 0.01, box[1] - 0.01, box[2] + 0.01, box[3] + 0.01]


def read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


def restore(src: Path, dst: Path):
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)


def front_of(op: str) -> str:
    return "torch" if op in TORCH_OPS else "python" if op in PY_OPS else "cli"


def common_kind(res: dict, text: str, args) -> str | None:
    if res["timeout"]:
        return "hang"
    if res["maxrss_kb"] > args.mem_report_mb * 1024 or any(m in text for m in MEMORY_MARKS):
        return "memory"
    if any(m in text for m in SANITIZER_MARKS) or res["code"] < 0:
        return "crash"
    return None


def classify_cli(op: str, res: dict, digest: str, stderr: str, args) -> dict:
    kind = common_kind(res, stderr, args)
    detail = stderr.strip().splitlines()[-1][:300] if stderr.strip() else ""
    if kind is None:
        if res["code"] == 0:
            kind = "exit0"
        elif op == "validate" and res["code"] == 1:
            kind = "refused"
        elif "taco: " in stderr or stderr.startswith("taco:"):
            kind = "refused"
        else:
            kind = "crash"
            detail = f"exit {res['code']} without a taco: message: {detail}"
    if res["code"] < 0:
        detail = f"signal {-res['code']}: {detail}"
    return dict(res, kind=kind, digest=digest, detail=detail)


def classify_py(res: dict, result: dict | None, log: str, args) -> dict:
    text = log + (result.get("msg", "") if result else "")
    kind = common_kind(res, text, args)
    detail, digest = "", ""
    if result and not result["ok"]:
        detail = f"{result['etype']}: {result['msg']}"[:300]
    if kind is None:
        if result is None:
            kind, detail = "crash", f"exit {res['code']} without a result: {log.strip()[-300:]}"
        elif result["ok"]:
            kind, digest = "exit0", hashlib.sha256(result["out"].encode()).hexdigest()
        elif result["taco"]:
            kind = "refused"
        elif result["etype"] == "MemoryError":
            kind = "memory"
        else:
            kind = "crash"
            detail = "not a taco_cpp error: " + detail
    if res["code"] < 0:
        detail = f"signal {-res['code']}: {detail}"
    return dict(res, kind=kind, digest=digest, detail=detail)


# ---------------------------------------------------------------------------------------------
# Plan, run, report.
# ---------------------------------------------------------------------------------------------

def plan(args, classes: dict, ops_per_mutant: int) -> list[tuple[str, str, int]]:
    if args.only:
        container, cls, index = args.only.split(":")
        return [(container, cls, int(index))]
    pairs = [(c, k) for k, (cs, _, _) in classes.items() for c in cs
             if c in args.containers and (not args.classes or any(s in k for s in args.classes))]
    if not pairs:
        raise SystemExit("mutation_campaign: no mutation class matches --containers/--classes")
    mutants = max(1, -(-args.runs // max(1, ops_per_mutant)))
    out = []
    for i in range(mutants):  # round robin over the (container, class) pairs
        c, k = pairs[i % len(pairs)]
        out.append((c, k, i // len(pairs)))
    return out


def summarise(records: list[dict]) -> str:
    table = defaultdict(lambda: defaultdict(int))
    for r in records:
        row = table[(r["container"], r["mclass"], r["front"])]
        row["runs"] += 1
        key = r["result"]
        if key == "silent":
            key = "silent (check)" if r["check"] else "silent (no check)"
        row[key] += 1
    cols = ["runs", "ok", "refused", "crash", "hang", "memory", "silent (check)", "silent (no check)"]
    lines = ["| container | mutation class | front | " + " | ".join(cols) + " |",
             "|---|---|---|" + "---:|" * len(cols)]
    totals = defaultdict(int)
    for key in sorted(table):
        row = table[key]
        for c in cols:
            totals[c] += row[c]
        lines.append("| " + " | ".join(key) + " | " + " | ".join(str(row[c]) for c in cols) + " |")
    lines.append("| **all** | | | " + " | ".join(f"**{totals[c]}**" for c in cols) + " |")
    return "\n".join(lines) + "\n"


def repro_command(args, r: dict) -> dict:
    """How to see one case again: the campaign command that rebuilds that mutant (kept in
    /tmp/taco-mutant/mutants/NAME) and the operation to run on it."""
    keep = "/tmp/taco-mutant"
    parts = [sys.executable, os.path.relpath(os.path.abspath(__file__)), "--taco", str(Path(args.taco).resolve()),
             "--pythonpath", args.pythonpath, "--seed", str(args.seed),
             "--only", f"{r['container']}:{r['mclass']}:{r['index']}", "--keep", keep,
             "--fronts", r["front"], "--ops", r["op"], "--out", keep + "/report"]
    ds = f"{keep}/mutants/{r['container']}-{r['mclass']}-{r['index']}/{DATASET_PATH[r['container']]}"
    tile, name = r["target"].split("/")
    if r["front"] == "cli":
        argv = [{"DS": ds, "T": tile, "F": name, "OUT": "/tmp/taco-mutant/converted"}.get(a, a)
                for a in cli_ops(args.bbox)[r["op"]]]
        op = " ".join(["taco"] + [a if a.replace(",", "").replace(".", "").replace("-", "").replace("_", "")
                                  .replace("/", "").isalnum() else repr(a) for a in argv])
    else:
        op = f"PYTHONPATH={args.pythonpath} python: py_op({r['op']!r}, {ds!r}, ({tile!r}, {name!r})) " \
             f"in scripts/mutation_campaign.py"
    return {"campaign": " ".join(parts), "operation": op}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--build", help="build directory: its taco and python/ (default: build)")
    parser.add_argument("--taco", help="the taco CLI under test (default: BUILD/taco)")
    parser.add_argument("--pythonpath", help="where taco_cpp is imported from (default: BUILD/python)")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the Python/torch fronts")
    parser.add_argument("--runs", type=int, default=300, help="about this many runs in all (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--containers", default=",".join(CONTAINERS), help="comma-separated: " + ",".join(CONTAINERS))
    parser.add_argument("--classes", default="", help="comma-separated substrings of mutation class names")
    parser.add_argument("--fronts", default="cli,python,torch", help="comma-separated: cli,python,torch")
    parser.add_argument("--ops", default="", help="comma-separated operation names (default: all; see --list-classes)")
    parser.add_argument("--only", help="CONTAINER:CLASS:INDEX: that one mutant")
    parser.add_argument("--keep", help="keep the work directory (mutants under KEEP/mutants)")
    parser.add_argument("--out", default="mutation-campaign", help="report directory (default ./mutation-campaign)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants at a time (default 1)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run (default 30)")
    parser.add_argument("--mem-mb", type=int, default=2048, help="address-space limit of a CLI run, MiB (default 2048;"
                        " Python runs get twice, torch runs four times that)")
    parser.add_argument("--mem-report-mb", type=int, default=1024, help="peak RSS above this is a memory blow-up")
    parser.add_argument("--list-classes", action="store_true", help="print the mutation classes and exit")
    parser.add_argument("--fail-on-silent-check", action="store_true",
                        help="exit 1 when a silent wrong result was found where a check exists")
    parser.add_argument("--no-reference", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    if args.list_classes:
        for name, (containers, check, _) in mutation_classes().items():
            print(f"{name:32} {','.join(containers):24} check exists: {'yes' if check else 'no (or per mutant)'}")
        print("operations:", ", ".join(list(cli_ops("BBOX")) + PY_OPS + TORCH_OPS))
        return 0
    build = Path(args.build or "build")
    args.taco = args.taco or str(build / "taco")
    args.pythonpath = str(Path(args.pythonpath or (build / "python")).resolve())
    args.containers = [c for c in args.containers.split(",") if c]
    args.classes = [c for c in args.classes.split(",") if c]
    args.fronts = [f for f in args.fronts.split(",") if f]
    args.ops = [o for o in args.ops.split(",") if o]
    unknown_ops = [o for o in args.ops if o not in list(cli_ops("")) + PY_OPS + TORCH_OPS]
    if unknown_ops:
        print(f"mutation_campaign: unknown --ops {unknown_ops}", file=sys.stderr)
        return 2
    bad = [c for c in args.containers if c not in CONTAINERS] + [f for f in args.fronts if f not in ("cli", "python", "torch")]
    if bad or not Path(args.taco).is_file():
        print(f"mutation_campaign: bad --containers/--fronts {bad} or no CLI at {args.taco}", file=sys.stderr)
        return 2
    if args.only:
        args.containers = [args.only.split(":")[0]]
    work = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(prefix="taco-mutation-"))
    work.mkdir(parents=True, exist_ok=True)
    args.work = str(work)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    campaign = Campaign(args)
    started = time.monotonic()
    try:
        try:
            campaign.build_bases()
        except RuntimeError as exc:
            print(f"mutation_campaign: cannot build the datasets: {exc}", file=sys.stderr)
            return 2
        if "python" in args.fronts or "torch" in args.fronts:
            campaign.server = ForkServer(args.python, args.pythonpath, work)
            if "torch" in args.fronts and not campaign.server.has_torch:
                print("note: torch does not import in that interpreter: no torch front", file=sys.stderr)
        jobs = plan(args, campaign.classes, len(campaign.ops()))
        records = run_all(campaign, jobs, args)
        args.bbox = campaign.bbox
    finally:
        if campaign.server:
            campaign.server.close()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - started
    summary = summarise(records)
    mutants = len({(r["container"], r["mclass"], r["index"]) for r in records})
    header = (f"Mutation campaign: {len(records)} runs on {mutants} mutants, seed {args.seed}, "
              f"{elapsed:.0f} s, CLI {Path(args.taco).resolve()}, taco_cpp from {args.pythonpath}\n\n")
    (out / "summary.md").write_text(header + summary)
    with open(out / "runs.jsonl", "w") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    bad_records = [r for r in records if r["result"] in ("silent", "crash", "hang", "memory")]
    with open(out / "silent.jsonl", "w") as f:
        for r in bad_records:
            f.write(json.dumps(dict(r, **repro_command(args, r)), sort_keys=True) + "\n")
    print(header + summary, end="")
    print(f"\nwritten: {out / 'summary.md'}, {out / 'silent.jsonl'} ({len(bad_records)} cases), {out / 'runs.jsonl'}")
    if args.fail_on_silent_check and any(r["result"] == "silent" and r["check"] for r in records):
        return 1
    return 0


def run_all(campaign: Campaign, jobs, args) -> list[dict]:
    slots = [campaign.work / f"slot{i}" for i in range(max(1, args.jobs))]
    for s in slots:
        s.mkdir(parents=True, exist_ok=True)
    free = list(slots)
    lock = threading.Lock()
    records = []
    done = [0]
    t0 = time.monotonic()

    def one(job):
        with lock:
            slot = free.pop()
        try:
            container, cls, index = job
            rs = campaign.run_mutant(slot, container, cls, index)
        finally:
            with lock:
                free.append(slot)
        with lock:
            records.extend(rs)
            done[0] += 1
            if done[0] % 5 == 0 or done[0] == len(jobs):
                print(f"  {done[0]}/{len(jobs)} mutants, {len(records)} runs, {time.monotonic() - t0:.0f} s",
                      file=sys.stderr, flush=True)
        return rs

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, jobs))
    records.sort(key=lambda r: (r["container"], r["mclass"], r["index"], r["op"]))
    return records


if __name__ == "__main__":
    sys.exit(main())
