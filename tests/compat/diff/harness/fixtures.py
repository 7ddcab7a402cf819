"""The inputs of the differential scripts, written by the REAL tacotoolbox (and GDAL).

A script names what it needs in its header (`# inputs: flat_zip, nested_folder`); the runner
builds each named input once per session (`python fixtures.py OUT NAME...`, run with the peers
venv's python and WITHOUT taco_cpp, so the upstream writer makes them) and copies it into the
script's WORKDIR under the path given in INPUTS:

  flat_zip       flat.tacozip        6 FILE samples s0..s5 (2-band 8x8 uint16 GeoTIFFs): STAC
                                     (EPSG:32630, time_start 2023-01-01 + k*40 days), GeotiffStats,
                                     cloud_cover (float64), split (train/val/test)
  flat_folder    flat_folder/        the same as a FOLDER dataset
  nested_zip     nested.tacozip      4 FOLDER samples t0..t3 (STAC on the folder), each with
                                     image.tif (2 bands) and label.tif (1 band), both with STAC and
                                     GeotiffStats
  nested_folder  nested_folder/      the same as a FOLDER dataset
  deep_zip       deep.tacozip        2 FOLDERs r0, r1 > 2 FOLDERs a, b > 2 FILEs b1.tif, b2.tif
  deep_folder    deep_folder/        the same as a FOLDER dataset
  tacocat        cat/                part0.tacozip, part1.tacozip (4 tiles each: tileK > sensors
                                     s1, s2 > bands b1.tif, b2.tif) and cat/.tacocat/ made by
                                     create_tacocat: 8 tiles x 2 sensors x 2 bands
  tifs           tifs/               img0.tif..img3.tif (2 bands) and mask0.tif..mask3.tif (1 band)
  legacy         legacy/             Tortilla 0.5 / TACO v1 BLOB files (spec layout P3), written here
                                     byte by byte (no upstream writer of them is installable):
                                     flat.tortilla (a0, a1 GTiff, notes BYTES) and nested.taco
                                     (t0, t1 TORTILLA > img GTiff, msk GTiff; readme BYTES; COLLECTION)

Everything is deterministic (pixel values, ids, times), so two builds give the same datasets.
Adding an input: a builder function below and a line in INPUTS (small, mergeable edits).
"""

from __future__ import annotations

import datetime as dt
import os
import pathlib
import shutil
import sys

UTC = dt.timezone.utc
CRS = "EPSG:32630"


def write_tif(path: pathlib.Path, bands: int, seed: int, size: int = 8) -> None:
    """A small deterministic uint16 GeoTIFF (UTM 30N, 10 m pixels). No numpy: Debian's GDAL
    bindings are built against another numpy than the venv's."""
    from array import array

    from osgeo import gdal

    gdal.UseExceptions()
    path.parent.mkdir(parents=True, exist_ok=True)
    drv = gdal.GetDriverByName("GTiff")
    ds = drv.Create(str(path), size, size, bands, gdal.GDT_UInt16)
    ds.SetGeoTransform(geotransform(seed))
    ds.SetProjection(_wkt())
    for b in range(bands):
        values = array("H", [(i * (b + 1) + seed * 7) % 1000 for i in range(size * size)])
        ds.GetRasterBand(b + 1).WriteRaster(0, 0, size, size, values.tobytes(), buf_type=gdal.GDT_UInt16)
    ds.FlushCache()
    ds = None
    aux = pathlib.Path(str(path) + ".aux.xml")
    if aux.exists():
        aux.unlink()


def _wkt() -> str:
    from osgeo import osr

    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32630)
    return srs.ExportToWkt()


def geotransform(seed: int) -> tuple:
    return (500000.0 + seed * 80.0, 10.0, 0.0, 4500000.0 - seed * 80.0, 0.0, -10.0)


def when(k: int) -> int:
    """Microseconds since the epoch: 2023-01-01T12:00Z + 40 k days."""
    t = dt.datetime(2023, 1, 1, 12, tzinfo=UTC) + dt.timedelta(days=40 * k)
    return int(t.timestamp()) * 1_000_000


def stac(seed: int, bands: int, k: int):
    from tacotoolbox.sample.extensions.stac import STAC

    return STAC(crs=CRS, tensor_shape=(bands, 8, 8), geotransform=geotransform(seed), time_start=when(k))


def file_sample(sid: str, path: pathlib.Path, bands: int, seed: int, k: int, stats: bool = True, extra=None):
    import pyarrow as pa
    from tacotoolbox.datamodel import Sample

    write_tif(path, bands, seed)
    s = Sample(id=sid, path=path)
    s.extend_with(stac(seed, bands, k))
    if stats:
        from tacotoolbox.sample.extensions.geotiff_stats import GeotiffStats

        s.extend_with(GeotiffStats())
        aux = pathlib.Path(str(path) + ".aux.xml")
        if aux.exists():
            aux.unlink()
    if extra:
        s.extend_with(pa.table({k2: pa.array([v]) for k2, v in extra.items()}))
    return s


def taco(tortilla, name: str):
    from tacotoolbox.datamodel import Taco

    return Taco(tortilla=tortilla, id=name, dataset_version="1.0.0",
                description=f"differential suite dataset ({name})", licenses=["CC-BY-4.0"],
                providers=[{"name": "taco-cpp tests", "roles": ["producer"], "url": "https://example.org"}],
                tasks=["classification"], title=f"Diff {name}", keywords=["diff", "ünïcode"])


def write(t, out: pathlib.Path, fmt: str) -> None:
    import tacotoolbox

    tacotoolbox.create(t, str(out), output_format=fmt)


# ---- builders: (src scratch dir, destination path) -------------------------------------------

def _flat(src: pathlib.Path):
    from tacotoolbox.datamodel import Tortilla

    splits = ["train", "train", "val", "train", "test", "val"]
    samples = [file_sample(f"s{k}", src / f"s{k}.tif", 2, k, k,
                           extra={"cloud_cover": float(k) * 12.5, "split": splits[k]}) for k in range(6)]
    return taco(Tortilla(samples), "flat")


def _nested(src: pathlib.Path):
    from tacotoolbox.datamodel import Sample, Tortilla

    roots = []
    for k in range(4):
        kids = [file_sample("image.tif", src / f"t{k}" / "image.tif", 2, 10 + k, k),
                file_sample("label.tif", src / f"t{k}" / "label.tif", 1, 20 + k, k)]
        s = Sample(id=f"t{k}", path=Tortilla(kids))
        s.extend_with(stac(10 + k, 2, k))
        roots.append(s)
    return taco(Tortilla(roots), "nested")


def _deep(src: pathlib.Path):
    from tacotoolbox.datamodel import Sample, Tortilla

    roots = []
    for r in range(2):
        mids = []
        for j, m in enumerate(("a", "b")):
            leaves = [file_sample(f"b{b}.tif", src / f"r{r}" / m / f"b{b}.tif", 1, 30 + r * 4 + j * 2 + b, r, stats=False)
                      for b in (1, 2)]
            mids.append(Sample(id=m, path=Tortilla(leaves)))
        s = Sample(id=f"r{r}", path=Tortilla(mids))
        s.extend_with(stac(30 + r, 1, r))
        roots.append(s)
    return taco(Tortilla(roots), "deep")


def _cat_part(src: pathlib.Path, part: int):
    from tacotoolbox.datamodel import Sample, Tortilla

    tiles = []
    for t in range(part * 4, part * 4 + 4):
        sensors = []
        for sname in ("s1", "s2"):
            bands = [file_sample(f"b{b}.tif", src / f"tile{t}" / sname / f"b{b}.tif", 1, 40 + t * 4 + b, t, stats=False)
                     for b in (1, 2)]
            sensors.append(Sample(id=sname, path=Tortilla(bands)))
        s = Sample(id=f"tile{t}", path=Tortilla(sensors))
        s.extend_with(stac(40 + t, 1, t))
        tiles.append(s)
    return taco(Tortilla(tiles), "cat")


def _blob(items: list, taco_collection: dict | None = None) -> bytes:
    """A P3 Tortilla (magic #y) or, with a collection, a TACO v1 (magic WX; COLLECTION JSON
    appended, CO/CL at bytes 26/34). items: (id, file_format, data bytes, extra columns); the
    footer is written as pytortilla wrote it (pandas -> pyarrow, zstd 22, no dictionary)."""
    import io

    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows, offset = [], 200
    for sid, fmt, data, extra in items:
        rows.append({"tortilla:id": sid, "tortilla:file_format": fmt, "tortilla:offset": offset,
                     "tortilla:length": len(data), **extra})
        offset += len(data)
    sink = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(pd.DataFrame(rows)), sink, compression="zstd", compression_level=22,
                   use_dictionary=False)
    footer = sink.getvalue()
    body = b"".join(d for _, _, d, _ in items)
    head = bytearray(200)
    head[0:2] = b"WX" if taco_collection is not None else b"#y"
    head[2:10] = offset.to_bytes(8, "little")
    head[10:18] = len(footer).to_bytes(8, "little")
    head[18:26] = (1).to_bytes(8, "little")
    out = bytes(head) + body + footer
    if taco_collection is not None:
        import json

        coll = json.dumps(taco_collection).encode()
        out = out[:26] + len(out).to_bytes(8, "little") + len(coll).to_bytes(8, "little") + out[42:] + coll
    return out


def _legacy(dest: pathlib.Path, src: pathlib.Path) -> None:
    def tif(name: str, bands: int, seed: int) -> bytes:
        write_tif(src / name, bands, seed)
        return (src / name).read_bytes()

    def meta(k: int, split: str) -> dict:
        return {"tortilla:data_split": split, "stac:crs": CRS,
                "stac:geotransform": [500000.0 + k * 80.0, 10.0, 0.0, 4500000.0, 0.0, -10.0],
                "stac:raster_shape": [8, 8], "stac:time_start": 1672531200 + k * 86400,
                "stac:centroid": f"POINT (-2.99{k} 40.6{k})", "cloud": k * 12.5}

    flat = [("a0", "GTiff", tif("a0.tif", 2, 70), meta(0, "train")),
            ("a1", "GTiff", tif("a1.tif", 1, 71), meta(1, "test")),
            ("notes", "BYTES", b"legacy notes\n", meta(2, "train"))]
    (dest / "flat.tortilla").write_bytes(_blob(flat))
    tops = []
    for t in range(2):
        kids = [("img", "GTiff", tif(f"t{t}img.tif", 2, 80 + t), meta(t, "train")),
                ("msk", "GTiff", tif(f"t{t}msk.tif", 1, 90 + t), meta(t, "train"))]
        tops.append((f"t{t}", "TORTILLA", _blob(kids), meta(t, "validation")))
    tops.append(("readme", "BYTES", b"nested legacy dataset\n", meta(3, "test")))
    collection = {"id": "nested-v1", "dataset_version": "0.1.0", "description": "a TACO v1 test file",
                  "licenses": ["CC-BY-4.0"], "providers": [{"name": "lab", "roles": ["producer"]}],
                  "task": "segmentation"}
    (dest / "nested.taco").write_bytes(_blob(tops, collection))


def build(name: str, out_root: pathlib.Path) -> None:
    src = out_root / ("_src_" + name)
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    dest = out_root / name
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir()
    rel = INPUTS[name]
    if name in ("flat_zip", "flat_folder"):
        write(_flat(src), dest / rel.rstrip("/"), "zip" if name.endswith("zip") else "folder")
    elif name in ("nested_zip", "nested_folder"):
        write(_nested(src), dest / rel.rstrip("/"), "zip" if name.endswith("zip") else "folder")
    elif name in ("deep_zip", "deep_folder"):
        write(_deep(src), dest / rel.rstrip("/"), "zip" if name.endswith("zip") else "folder")
    elif name == "tacocat":
        from tacotoolbox import create_tacocat

        cat = dest / "cat"
        cat.mkdir()
        for p in (0, 1):
            write(_cat_part(src / f"p{p}", p), cat / f"part{p}.tacozip", "zip")
        create_tacocat([str(cat / "part0.tacozip"), str(cat / "part1.tacozip")], str(cat))
    elif name == "legacy":
        (dest / "legacy").mkdir()
        _legacy(dest / "legacy", src)
    elif name == "tifs":
        for k in range(4):
            write_tif(dest / "tifs" / f"img{k}.tif", 2, 50 + k)
            write_tif(dest / "tifs" / f"mask{k}.tif", 1, 60 + k)
    else:
        raise KeyError(name)
    shutil.rmtree(src)


# input name -> what lands in WORKDIR (a file, or a directory when it ends with "/")
INPUTS = {
    "flat_zip": "flat.tacozip",
    "flat_folder": "flat_folder/",
    "nested_zip": "nested.tacozip",
    "nested_folder": "nested_folder/",
    "deep_zip": "deep.tacozip",
    "deep_folder": "deep_folder/",
    "tacocat": "cat/",
    "tifs": "tifs/",
    "legacy": "legacy/",
}


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1])
    root.mkdir(parents=True, exist_ok=True)
    os.chdir(root)
    for n in sys.argv[2:]:
        build(n, root)
