"""Shared helpers of the tacotoolbox scripts (skipped by the runner: leading underscore;
importable because a script's directory is first on sys.path). Uses only the standard
library, pyarrow and diffkit, never taco_cpp.

make_files(): small deterministic input files. stac(): the declarative STAC of one of them.
dump(path): a written dataset as plain JSON, so that the two runs compare VALUE FOR VALUE:
  * tacotoolbox's ZIPs carry the write time in every local header and its Parquet files are
    pyarrow's (content-defined chunking, pyarrow 26 page layout); taco-cpp writes the same
    tables with its own Parquet writer. So the dump holds, per container member / file:
    DATA bytes as sha256 (byte for byte), every Parquet as its decoded table (column names,
    Arrow types, rows), COLLECTION.json as its JSON value;
  * in a ZIP, internal:offset / internal:size are replaced by the member they point at
    ("DATA/a/b" or "?offset" when they point at no member's bytes) and whether the size is
    that member's: the Parquet members (__meta__) have other sizes, so later offsets move;
  * the items that differ on purpose are moved under "deliberate" (one pointer for the
    deliberate-differences file): taco_version, the pit_schema "shape" (upstream's virtual
    padding), and whose wording the descriptions of the core columns (id, type, internal:*)
    in taco:field_schema have ("tacotoolbox" or "own").
"""

from __future__ import annotations

import hashlib
import io
import json
import pathlib
import sys
import zipfile

import diffkit

CORE = ("id", "type", "path")
T0 = 1672531200000000  # 2023-01-01T00:00:00Z in microseconds
DAY = 86400000000


def workdir() -> pathlib.Path:
    wd = pathlib.Path(sys.argv[1])
    (wd / "out").mkdir(parents=True, exist_ok=True)
    return wd


def make_files(wd: pathlib.Path, n: int, prefix: str = "f", size: int = 256, sub: str = "src") -> list[pathlib.Path]:
    d = wd / sub
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for k in range(n):
        p = d / f"{prefix}{k}.bin"
        p.write_bytes(bytes((k * 7 + i) % 251 for i in range(size + k)))
        out.append(p)
    return out


def stac(k: int, bands: int = 2, lon_shift: float = 0.0, crs: str = "EPSG:32630", **extra):
    from tacotoolbox.datamodel.sample import STAC

    gt = (500000.0 + k * 80.0 + lon_shift, 10.0, 0.0, 4500000.0 - k * 80.0, 0.0, -10.0)
    return STAC(crs=crs, tensor_shape=(bands, 8, 8), geotransform=gt, time_start=T0 + k * DAY, **extra)


def taco(tortilla, name: str = "demo", **extra):
    from tacotoolbox.datamodel import Taco

    kw = dict(tortilla=tortilla, id=name, dataset_version="1.0.0", description=f"dataset {name}",
              licenses=["CC-BY-4.0"], providers=[{"name": "lab", "roles": ["producer"], "url": "https://example.org"}],
              tasks=["classification"])
    kw.update(extra)
    return Taco(**kw)


# tacotoolbox 0.26.9's descriptions of the core columns (to tell its wording from another)
UPSTREAM_CORE = {
    "id": "Unique sample identifier within parent scope. Must be unique among siblings.",
    "type": "Sample type discriminator (FILE or FOLDER).",
    "internal:current_id": "Current sample position at this level (0-indexed). Enables O(1) random access and "
                           "relational JOINs (ZIP, FOLDER, TACOCAT).",
    "internal:parent_id": "Foreign key referencing parent sample position in previous level (ZIP, FOLDER, TACOCAT).",
    "internal:relative_path": "Relative path from DATA/ directory. Format: {parent_path}/{id} or {id} for level0 "
                              "(ZIP, FOLDER, TACOCAT).",
}


def _table(raw: bytes, members: dict | None = None):
    import pyarrow.parquet as pq

    t = pq.read_table(io.BytesIO(raw))
    doc = diffkit.enc(t)
    if members is not None and "internal:offset" in t.schema.names and "internal:size" in t.schema.names:
        oi, si = t.schema.names.index("internal:offset"), t.schema.names.index("internal:size")
        for row in doc["rows"]:
            off, size = row[oi], row[si]
            name = members.get(off)
            row[oi] = name[0] if name else (None if off is None else "?offset")
            row[si] = None if size is None else ("member size" if name and name[1] == size else "other size")
    return doc


def _collection(raw: bytes, deliberate: dict) -> dict:
    c = json.loads(raw)
    deliberate["taco_version"] = c.pop("taco_version", None)
    pit = c.get("taco:pit_schema") or {}
    deliberate["pit_shape"] = pit.pop("shape", None)
    own = False
    for level, rows in (c.get("taco:field_schema") or {}).items():
        for row in rows:
            if row[0] in ("id", "type") or row[0].startswith("internal:"):
                own = own or UPSTREAM_CORE.get(row[0], row[2]) != row[2]
                row[2] = "<core>"
    deliberate["core_descriptions"] = "own" if own else "tacotoolbox"
    return c


def dump(path) -> dict:
    """A written dataset (ZIP file, FOLDER, or a .tacocat folder) as JSON (see the module doc)."""
    p = pathlib.Path(path)
    deliberate: dict = {}
    files = {}
    if p.is_file():
        with zipfile.ZipFile(p) as z, open(p, "rb") as fh:
            names = z.namelist()
            members = {}
            for info in z.infolist():  # where each member's bytes start: after its local header
                fh.seek(info.header_offset + 26)
                n_len, x_len = int.from_bytes(fh.read(2), "little"), int.from_bytes(fh.read(2), "little")
                members[info.header_offset + 30 + n_len + x_len] = (info.filename, info.file_size)
            for n in names:
                raw = z.read(n)
                files[n] = _entry(n, raw, deliberate, members)
        return {"kind": "zip", "members": names, "files": files, "deliberate": deliberate}
    for f in sorted(x for x in p.rglob("*") if x.is_file()):
        rel = f.relative_to(p).as_posix()
        files[rel] = _entry(rel, f.read_bytes(), deliberate)
    return {"kind": "folder", "files": files, "deliberate": deliberate}


def _entry(name: str, raw: bytes, deliberate: dict, members: dict | None = None):
    base = name.rsplit("/", 1)[-1]
    if base.endswith(".parquet") or base == "__meta__":
        return _table(raw, members)
    if base == "COLLECTION.json":
        return _collection(raw, deliberate)
    if base == "TACO_HEADER":
        return {"len": len(raw)}
    return {"sha256": hashlib.sha256(raw).hexdigest(), "len": len(raw)}


def run(fn, *a, **kw):
    return diffkit.run(fn, *a, **kw)


def emit(doc) -> None:
    diffkit.emit(doc)
