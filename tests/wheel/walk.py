"""The notebook walk of docs/python.md, run by tests/wheel/wheel_install_test.py inside a fresh
venv where only the installed wheel provides taco_cpp: demo tree → create → load → filters and
SQL → read → bytes → stats → export → validate. It also checks that the package, libduckdb,
libgdal and PROJ's database all come from the wheel, and that no compiler is on PATH.
Exits non-zero (an AssertionError or a taco_cpp error) on the first thing that is wrong."""

import os
import shutil
import sys
import tempfile

# Nothing of the project tree may be importable: only the venv's site-packages holds taco_cpp.
for entry in sys.path:
    if entry and os.path.isdir(os.path.join(entry, "taco_cpp")):
        assert os.path.realpath(entry).startswith(os.path.realpath(sys.prefix)), f"taco_cpp importable from {entry}"
for tool in ("cc", "gcc", "c++", "g++", "clang", "cmake", "ninja"):
    assert shutil.which(tool) is None, f"{tool} is on PATH"

import taco_cpp  # noqa: E402

package_dir = os.path.dirname(os.path.realpath(taco_cpp.__file__))
assert package_dir.startswith(os.path.realpath(sys.prefix)), taco_cpp.__file__
assert os.environ["PROJ_DATA"] == os.path.join(package_dir, "_data", "proj"), os.environ.get("PROJ_DATA")

work = tempfile.mkdtemp(prefix="taco-wheel-walk-")
tiles = taco_cpp.demo_tree(os.path.join(work, "tiles"), tiles=6, size=32)
assert [t["id"] for t in tiles] == [f"tile_{i:02d}" for i in range(6)], tiles

samples = []
for t in tiles:
    files = [taco_cpp.Sample(name, os.path.join(work, "tiles", t["id"], name)).extend(taco_cpp.Stac())
             for name in ("before.tif", "after.tif", "label.tif")]
    folder = taco_cpp.Sample(t["id"], taco_cpp.Tortilla(files), country=t["country"],
                             cloud_cover=float(len(samples) * 10))
    samples.append(folder.extend(taco_cpp.Stac()))  # its footprint and times from the children
taco = taco_cpp.Taco(taco_cpp.Tortilla(samples), id="wheel-walk", dataset_version="1.0.0",
                     description="demo tiles", licenses=["CC-BY-4.0"], providers=[{"name": "taco-cpp tests"}],
                     tasks=["semantic-segmentation"])
out = os.path.join(work, "demo.tacozip")
taco_cpp.create(taco, out)

ds = taco_cpp.load(out)
assert len(ds) == 6 and ds.id == "wheel-walk" and ds.format == "zip", (len(ds), ds.id, ds.format)
assert "wheel-walk" in repr(ds) and "<" in ds._repr_html_()
view = ds.sql("SELECT * FROM data WHERE cloud_cover < 30")
assert len(view) == 3 and view.data.column("id").to_pylist() == ["tile_00", "tile_01", "tile_02"]
assert list(view.to_pandas()["country"]) == [t["country"] for t in tiles[:3]]

children = view.read(1)
assert len(children) == 3 and children.data.column("id").to_pylist() == ["before.tif", "after.tif", "label.tif"]
path = view.read(1, "label.tif")
assert path.startswith("/vsisubfile/"), path
blob = view.read_bytes(1, "label.tif")
assert blob[:4] in (b"II*\x00", b"MM\x00*"), blob[:8]
with open(os.path.join(work, "tiles", "tile_01", "label.tif"), "rb") as f:
    assert f.read() == blob

mean = view.stats_mean(0, level=1, file="before.tif", method="exact")
assert 0 < float(mean) < 10000, mean  # reflectance x 10000 of the three rows' before.tif, band 1
lon, lat = tiles[4]["lon"], tiles[4]["lat"]
box = ds.filter_bbox(lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01)
assert "tile_04" in box.data.column("id").to_pylist(), box.data.column("id")

subset = os.path.join(work, "subset.tacozip")
view.export(subset)
assert len(taco_cpp.load(subset)) == 3
report = taco_cpp.validate(out)
assert report.ok, report
assert taco_cpp.info(out)["id"] == "wheel-walk"

# libduckdb, libgdal and libproj were loaded from the wheel's taco_cpp.libs/, not the host.
with open("/proc/self/maps") as f:
    mapped = {line.split()[-1] for line in f if "/" in line}
libs_dir = os.path.realpath(os.path.join(package_dir, "..", "taco_cpp.libs"))
for name in ("libduckdb", "libgdal", "libproj"):
    paths = sorted(p for p in mapped if os.path.basename(p).startswith(name))
    assert paths and all(p.startswith(libs_dir + os.sep) for p in paths), f"{name}: {paths}"
print(f"wheel walk ok: taco_cpp {taco_cpp.__version__} from {package_dir}")
