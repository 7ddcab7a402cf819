"""The datasets of the interoperability matrix, described once and written by every writer.

A case is a tree of nodes (FILE nodes carry bytes, FOLDER nodes children) with extension
columns per node, plus the collection fields and the writing options (formats, split size,
padding). `build_tree` materialises the sample files (small GeoTIFFs or plain bytes) in a
source directory laid out as `taco create` expects (a directory per FOLDER, a file per FILE,
the entry name being the sample id).

The extension columns come from tacotoolbox's own extension objects (ISTAC, STAC, Scaling,
Split, GeotiffStats) where the case says so: `toolbox_samples` computes them once, and the
values it computed become the explicit inputs of the other writers (a Parquet --metadata file
for `taco create`, typed fields for `taco_cpp.create`). So every writer stores the same values,
and what the readers return can be compared with one expected table per level.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import pathlib
import struct
from typing import Any, Callable

import pyarrow as pa
import pyarrow.parquet as pq

UTC = dt.timezone.utc


def micros(year: int, month: int = 1, day: int = 1, hour: int = 0) -> int:
    """Microseconds since the epoch of a UTC instant (negative before 1970)."""
    delta = dt.datetime(year, month, day, hour, tzinfo=UTC) - dt.datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000


def wkb_polygon(ring: list[tuple[float, float]]) -> bytes:
    """ISO WKB (little-endian) of a one-ring polygon; the ring is closed here."""
    pts = list(ring) + [ring[0]]
    out = struct.pack("<BII", 1, 3, 1) + struct.pack("<I", len(pts))
    for x, y in pts:
        out += struct.pack("<dd", x, y)
    return out


@dataclasses.dataclass
class Node:
    """One sample. `data` for a FILE (bytes written as-is), `tif` for a FILE that is a
    GeoTIFF made by build_tree (then `data` is filled in by it), `children` for a FOLDER.
    `ext`: extension columns given explicitly, name -> (Arrow type, value).
    `toolbox_ext`: callables node -> tacotoolbox SampleExtension (computed by the toolbox)."""

    id: str
    data: bytes | None = None
    tif: dict | None = None
    children: list["Node"] | None = None
    ext: dict[str, tuple[pa.DataType, Any]] = dataclasses.field(default_factory=dict)
    toolbox_ext: list[Callable[["Node", pathlib.Path], Any]] = dataclasses.field(default_factory=list)

    @property
    def is_folder(self) -> bool:
        return self.children is not None


@dataclasses.dataclass
class Case:
    name: str
    roots: list[Node]
    formats: tuple[str, ...] = ("zip", "folder")
    split_size: str | None = None      # ZIP parts (+ .tacocat/) when set
    pad_to: int | None = None          # taco-cpp writers only (tacotoolbox 0.26 has no padding)
    writers: tuple[str, ...] = ("tacotoolbox", "taco-cli", "taco_cpp")
    collection: dict = dataclasses.field(default_factory=dict)
    # bbox / datetime / SQL queries whose results are compared (level-0 ids)
    bboxes: tuple[tuple[float, float, float, float], ...] = ()
    datetimes: tuple[str, ...] = ()
    sqls: tuple[str, ...] = ()


def base_collection(case_id: str) -> dict:
    return {
        "id": case_id,
        "dataset_version": "1.0.0",
        "description": "interoperability matrix dataset (" + case_id + ")",
        "licenses": ["CC-BY-4.0"],
        "providers": [{"name": "taco-cpp tests", "roles": ["producer"], "url": "https://example.org"}],
        "tasks": ["classification"],
        "title": "Matrix " + case_id,
        "keywords": ["interop", "ünïcode"],
    }


# ---- GeoTIFFs ---------------------------------------------------------------------------

def write_geotiff(path: pathlib.Path, spec: dict) -> None:
    """A small tiled-free GeoTIFF: `bands` bands of `size`x`size` pixels of a deterministic
    pattern (type Byte or UInt16), origin/pixel from spec, EPSG from spec."""
    from osgeo import gdal, osr  # Debian's bindings, linked into the peers venv

    size, bands, seed = spec.get("size", 16), spec.get("bands", 2), spec["seed"]
    gtype = gdal.GDT_UInt16 if spec.get("uint16") else gdal.GDT_Byte
    ds = gdal.GetDriverByName("GTiff").Create(str(path), size, size, bands, gtype)
    x0, y0, px = spec["origin"][0], spec["origin"][1], spec.get("pixel", 10.0)
    ds.SetGeoTransform((x0, px, 0.0, y0, 0.0, -px))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(spec["epsg"])
    ds.SetProjection(srs.ExportToWkt())
    fmt = "H" if spec.get("uint16") else "B"
    top = 65535 if spec.get("uint16") else 255
    for b in range(bands):
        vals = [((i * (seed + 3) + b * 17 + seed * 31) % (top // 3 + 1)) + (b * 7) for i in range(size * size)]
        ds.GetRasterBand(b + 1).WriteRaster(0, 0, size, size, struct.pack(f"<{size * size}{fmt}", *vals))
        if spec.get("nodata") is not None:
            ds.GetRasterBand(b + 1).SetNoDataValue(spec["nodata"])
    ds.FlushCache()
    ds = None


# ---- the source tree ----------------------------------------------------------------------

def walk(nodes: list[Node], prefix: tuple[str, ...] = ()):
    """(path tuple, node, depth) in depth-first order."""
    for n in nodes:
        yield prefix + (n.id,), n, len(prefix)
        if n.is_folder:
            yield from walk(n.children, prefix + (n.id,))


def build_tree(case: Case, src: pathlib.Path) -> None:
    """Writes the sample files under src (FOLDER = directory) and fills FILE nodes' data."""
    for path, node, _ in walk(case.roots):
        p = src.joinpath(*path)
        if node.is_folder:
            p.mkdir(parents=True, exist_ok=True)
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        if node.tif is not None:
            write_geotiff(p, node.tif)
            node.data = p.read_bytes()
        else:
            p.write_bytes(node.data)


def order_file(case: Case, path: pathlib.Path) -> None:
    """The --order file of `taco create`: every path in the case's order."""
    path.write_text("".join("/".join(p) + "\n" for p, _, _ in walk(case.roots)), encoding="utf-8")


# ---- tacotoolbox ---------------------------------------------------------------------------

def toolbox_samples(case: Case, src: pathlib.Path):
    """The root tacotoolbox Tortilla of the case. Computed extension values are copied into
    each node's `ext` (so that the other writers get the very same values)."""
    from tacotoolbox.datamodel import Sample, Tortilla

    def make(nodes: list[Node], prefix: tuple[str, ...]):
        out = []
        for n in nodes:
            path = prefix + (n.id,)
            if n.is_folder:
                s = Sample(id=n.id, path=Tortilla(make(n.children, path)))
            else:
                s = Sample(id=n.id, path=src.joinpath(*path))
            if n.ext:
                s.extend_with(pa.table({k: pa.array([v], type=t) for k, (t, v) in n.ext.items()}))
            for make_ext in n.toolbox_ext:
                ext = make_ext(n, src.joinpath(*path))
                before = set(s.export_metadata().column_names)
                s.extend_with(ext)
                meta = s.export_metadata()
                for name in meta.column_names:
                    if name not in before:
                        n.ext[name] = (meta.schema.field(name).type, meta.column(name)[0].as_py())
            n.toolbox_ext = []  # computed once; the values now live in n.ext
            out.append(s)
        return out

    return Tortilla(make(case.roots, ()))


def toolbox_taco(case: Case, src: pathlib.Path):
    from tacotoolbox.datamodel import Taco

    return Taco(tortilla=toolbox_samples(case, src), **case.collection)


# ---- taco create inputs ------------------------------------------------------------------

def metadata_table(case: Case) -> pa.Table:
    """The --metadata Parquet of `taco create`: a `path` column and every extension column
    (null where a node has no value for it)."""
    names: dict[str, pa.DataType] = {}
    rows = []
    for path, node, _ in walk(case.roots):
        for k, (t, _) in node.ext.items():
            names.setdefault(k, t)
        rows.append(("/".join(path), node))
    cols = {"path": pa.array([p for p, _ in rows], pa.string())}
    for k, t in names.items():
        cols[k] = pa.array([n.ext[k][1] if k in n.ext else None for _, n in rows], type=t)
    return pa.table(cols)


def write_cli_inputs(case: Case, src: pathlib.Path, work: pathlib.Path) -> list[str]:
    """Collection JSON, metadata Parquet and order file; returns the `taco create` options."""
    coll = work / "collection.json"
    coll.write_text(json.dumps(case.collection, ensure_ascii=False), encoding="utf-8")
    order = work / "order.txt"
    order_file(case, order)
    args = ["--collection", str(coll), "--order", str(order)]
    if any(n.ext for _, n, _ in walk(case.roots)):
        meta = work / "metadata.parquet"
        pq.write_table(metadata_table(case), meta)
        args += ["--metadata", str(meta)]
    if case.pad_to:
        args += ["--pad-to", str(case.pad_to)]
    return args


# ---- taco_cpp ----------------------------------------------------------------------------

def taco_cpp_taco(case: Case, src: pathlib.Path, taco_cpp):
    """The taco_cpp Taco of the case, from the same files and the same typed values."""

    def make(nodes: list[Node], prefix: tuple[str, ...]):
        out = []
        for n in nodes:
            path = prefix + (n.id,)
            if n.is_folder:
                s = taco_cpp.Sample(n.id, taco_cpp.Tortilla(make(n.children, path), pad_to=case.pad_to))
            else:
                s = taco_cpp.Sample(n.id, str(src.joinpath(*path)))
            if n.ext:
                s.extend([taco_cpp.Field(k, _plain(v), str(t)) for k, (t, v) in n.ext.items()])
            out.append(s)
        return out

    # like `taco create --pad-to`: every folder, and the root only when it holds FILEs
    root_pad = case.pad_to if not any(n.is_folder for n in case.roots) else None
    return taco_cpp.Taco(taco_cpp.Tortilla(make(case.roots, ()), pad_to=root_pad), **case.collection)


def _plain(v):
    if isinstance(v, dt.datetime):
        return micros_of(v)
    return v


def micros_of(v: dt.datetime) -> int:
    if v.tzinfo is None:
        v = v.replace(tzinfo=UTC)
    delta = v - dt.datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


# ---- expectations ------------------------------------------------------------------------

def expected_levels(case: Case, padded: bool) -> list[list[dict]]:
    """Per level, the rows every reader must show (padding hidden): id, type and the
    extension columns, in level order (DFS by level)."""
    levels: list[list[dict]] = []
    frontier = [(n, ()) for n in case.roots]
    while frontier:
        rows, nxt = [], []
        for n, prefix in frontier:
            row = {"id": n.id, "type": "FOLDER" if n.is_folder else "FILE"}
            row.update({k: v for k, (_, v) in n.ext.items()})
            rows.append(row)
            if n.is_folder:
                nxt.extend((c, prefix + (n.id,)) for c in n.children)
        levels.append(rows)
        frontier = nxt
    return levels


def file_paths(case: Case) -> list[tuple[tuple[str, ...], bytes]]:
    """Every FILE sample: its id path and its bytes."""
    return [(p, n.data) for p, n, _ in walk(case.roots) if not n.is_folder]


# ---- the cases ----------------------------------------------------------------------------

def _istac(crs: str, ring, start: int, end: int | None = None, anti: bool = False):
    def make(node, path):
        from tacotoolbox.sample.extensions.istac import ISTAC

        return ISTAC(crs=crs, geometry=wkb_polygon(ring), time_start=start, time_end=end, check_antimeridian=anti)

    return make


def _stac(start: int, end: int | None = None):
    def make(node, path):
        from tacotoolbox.sample.extensions.stac import STAC

        t = node.tif
        size, px = t.get("size", 16), t.get("pixel", 10.0)
        return STAC(crs=f"EPSG:{t['epsg']}", tensor_shape=(t.get("bands", 2), size, size),
                    geotransform=(t["origin"][0], px, 0.0, t["origin"][1], 0.0, -px),
                    time_start=start, time_end=end)

    return make


def _scaling(factor: float, offset: float):
    def make(node, path):
        from tacotoolbox.sample.extensions.scaling import Scaling

        return Scaling(scale_factor=factor, scale_offset=offset, padding=[0, 1, 2, 3])

    return make


def _split(which: str):
    def make(node, path):
        from tacotoolbox.sample.extensions.split import Split

        return Split(split=which)

    return make


def _stats():
    def make(node, path):
        from tacotoolbox.sample.extensions.geotiff_stats import GeotiffStats

        return GeotiffStats()

    return make


def flat_case() -> Case:
    """Level-0 FILE samples (GeoTIFFs) with unsorted unicode ids, ISTAC footprints (one across
    the antimeridian), times before 1970 and after 2100, GeoTIFF statistics, scaling, split,
    and plain columns with empty strings and nulls."""
    rows = [
        # id, lon/lat box, start, split, note, count
        ("s_b", (-0.5, 39.3, -0.2, 39.6), micros(2023, 1, 1), "train", "valencia", 3),
        ("s_a", (2.2, 48.8, 2.5, 48.9), micros(1969, 7, 20, 20), "test", "", None),
        ("éclair", (179.0, -17.0, -179.0, -16.0), micros(2150, 12, 31, 23), "validation", None, 0),
        ("日本_1", (139.6, 35.6, 139.8, 35.8), micros(1901, 3, 1), "train", "東京", -5),
        ("z", (-77.1, -12.1, -76.9, -11.9), micros(2023, 5, 1), "train", "lima", 7),
        ("a-1", (-74.1, 40.6, -73.9, 40.8), micros(2100, 1, 1), "test", "nyc ✓", 1),
    ]
    roots = []
    for i, (sid, (w, s, e, n), start, split, note, count) in enumerate(rows):
        ring = [(w, s), (e, s), (e, n), (w, n)]  # e < w: across the antimeridian
        node = Node(
            id=sid,
            tif={"seed": i + 1, "epsg": 4326, "origin": (w, n), "pixel": 0.01, "bands": 2,
                 "uint16": i % 2 == 1},
            ext={"note": (pa.string(), note), "count": (pa.int64(), count),
                 "cloud": (pa.float64(), 12.5 * i if i != 3 else None), "flag": (pa.bool_(), i % 2 == 0)},
            toolbox_ext=[_istac("EPSG:4326", ring, start, start + 3_600_000_000, anti=e < w),
                         _scaling(0.0001 * (i + 1), -0.1), _split(split), _stats()],
        )
        roots.append(node)
    return Case(
        name="flat", roots=roots, collection=base_collection("flat"),
        bboxes=((-0.5, 39.3, -0.2, 39.6), (178.5, -17.5, 179.5, -15.5), (-80, -15, -70, 45), (50, 50, 51, 51)),
        datetimes=("1969-07-20", "1900-01-01/1970-01-01", "2100-01-01/2200-01-01", "2023-01-01/2023-06-01"),
        sqls=("SELECT * FROM data WHERE note = ''", "SELECT * FROM data WHERE note IS NULL",
              "SELECT * FROM data WHERE \"count\" > 0 AND split = 'train'",
              "SELECT * FROM data WHERE id LIKE '%\\_%' ESCAPE '\\'"),
    )


def nested_case() -> Case:
    """Three levels: tiles (FOLDER, ids not sorted) -> sensors (two FOLDERs and a FILE) ->
    bands (FILE GeoTIFFs in UTM with the STAC extension). Different plain columns per level."""
    tiles = [("tile_c", 500_000.0, 4_400_000.0, 2021), ("tile_a", 300_000.0, 4_500_000.0, 2022),
             ("tile_b", 700_000.0, 4_300_000.0, 1965)]
    roots = []
    seed = 0
    for t, (tid, x, y, year) in enumerate(tiles):
        sensors = []
        for k, sensor in enumerate(("s2", "l8")):
            bands = []
            for b in ("B04", "B03"):
                seed += 1
                bands.append(Node(
                    id=b, tif={"seed": seed, "epsg": 32630, "origin": (x + 160 * k, y), "pixel": 10.0, "bands": 1},
                    ext={"band_name": (pa.string(), b.lower())},
                    toolbox_ext=[_stac(micros(year, 1 + k, 1 + t), micros(year, 1 + k, 2 + t))]))
            sensors.append(Node(id=sensor, children=bands, ext={"sensor": (pa.string(), sensor),
                                                               "nbands": (pa.int32(), len(bands))}))
        sensors.append(Node(id="label", data=f"label of {tid}: {'é' * (t + 1)}".encode(),
                            ext={"sensor": (pa.string(), None), "nbands": (pa.int32(), None)}))
        roots.append(Node(id=tid, children=sensors,
                          ext={"region": (pa.string(), ["north", "", None][t]),
                               "year": (pa.int64(), year)}))
    return Case(name="nested", roots=roots, collection=base_collection("nested"),
                sqls=("SELECT * FROM data WHERE year < 2000", "SELECT * FROM data WHERE region = ''"))


def split_case() -> Case:
    """Twelve FILE samples of 3 KB in parts of at most 8 KB, with a .tacocat/ beside them."""
    roots = []
    for i in range(12):
        sid = f"p{(i * 7) % 12:02d}"  # not sorted
        data = bytes((i * 13 + j) % 251 for j in range(3000 + i))
        roots.append(Node(id=sid, data=data, ext={"idx": (pa.int64(), i),
                                                  "ts": (pa.timestamp("us"), dt.datetime(1950 + 20 * i, 6, 1))}))
    return Case(name="split", roots=roots, formats=("zip",), split_size="8KB", collection=base_collection("split"),
                sqls=("SELECT * FROM data WHERE idx % 3 = 0",))


def padding_case() -> Case:
    """Folders of 2 children padded to 3 (`__TACOPAD__0`); tacotoolbox 0.26 writes no padding
    (its pit schema has a virtual `shape` instead), so only taco-cpp writes this one."""
    roots = []
    for i, fid in enumerate(("f2", "f1")):
        kids = [Node(id=c, data=f"{fid}/{c}".encode(), ext={"v": (pa.float32(), 0.5 * i + j)})
                for j, c in enumerate(("x", "y"))]
        roots.append(Node(id=fid, children=kids, ext={"w": (pa.int64(), i)}))
    return Case(name="padding", roots=roots, pad_to=3, writers=("taco-cli", "taco_cpp"),
                collection=base_collection("padding"), sqls=("SELECT * FROM data WHERE w = 1",))


CASES: dict[str, Callable[[], Case]] = {
    "flat": flat_case,
    "nested": nested_case,
    "split": split_case,
    "padding": padding_case,
}


def env_path(name: str, default: str | None = None) -> str | None:
    v = os.environ.get(name, default)
    return v if v else None
