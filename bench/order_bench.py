"""CPU per call of the views that keep their source's row order (src/read/source_order.h,
python/taco_cpp/_flat.py) on 100,000 FOLDERs of 2 FILEs (written once to DIR/order.tacozip).

    .venv/bin/python bench/order_bench.py DIR [ITERATIONS] [LABEL]

CPU is getrusage of the process (every DuckDB thread included), median and minimum of
ITERATIONS calls after one warm-up. For an A/B, run it with two builds' interpreters in turn
(docs/benchmarks.md "Row order of filtered views")."""

import datetime as dt
import pathlib
import resource
import struct
import sys

import taco_cpp
from taco_cpp import Field, Sample, Taco, Tortilla

N = 100_000
COLLECTION = {"id": "order_bench", "dataset_version": "1.0.0", "description": "100,000 FOLDERs of 2 FILEs",
              "licenses": ["CC-BY-4.0"], "providers": [{"name": "bench", "roles": ["producer"]}],
              "tasks": ["classification"]}


def write(path: pathlib.Path) -> None:
    t0 = dt.datetime(2023, 1, 1)
    folders = []
    for i in range(N):
        kids = []
        for j, name in enumerate(("a.bin", "b.bin")):
            point = struct.pack("<BIdd", 1, 1, (i % 360) - 180.0 + j, (i % 120) - 60.0)
            kids.append(Sample(name, data=b"x").extend([Field("stac:centroid", point, "binary"),
                                                         Field("stac:time_start", t0 + dt.timedelta(hours=i + j),
                                                               "timestamp[us]")]))
        folders.append(Sample(f"f{i:06d}", Tortilla(kids)).extend({"k": i}))
    taco_cpp.create(Taco(Tortilla(folders), COLLECTION), path, progress=False)


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    path = pathlib.Path(sys.argv[1]) / "order.tacozip"
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    label = sys.argv[3] if len(sys.argv) > 3 else ""
    if not path.exists():
        write(path)
    ds = taco_cpp.load(path)
    box = (-180, -90, 0, 90)
    cases = {
        "cascade bbox level 1": lambda: ds.filter_bbox(*box, level=1).data,
        "cascade chained": lambda: ds.filter_datetime("2023-01-01/2030-01-01", level=1).filter_bbox(*box, level=1).data,
        "concat x2 + cascade": lambda: taco_cpp.concat([ds, ds]).filter_bbox(*box, level=1).data,
        "concat x2 level1 count": lambda: taco_cpp.concat([ds, ds]).query("SELECT count(*) FROM level1"),
        "flatten(1)": lambda: ds.flatten(1),
        "sql join (protected)": lambda: ds.sql("SELECT d.* FROM data_raw d JOIN (SELECT id FROM data) USING (id)").data,
    }
    for name, call in cases.items():
        call()
        samples = []
        for _ in range(iterations):
            c0 = cpu()
            call()
            samples.append(cpu() - c0)
        samples.sort()
        print(f"{name:24s} {label:6s} median {samples[len(samples) // 2] * 1000:7.1f} ms  "
              f"min {samples[0] * 1000:7.1f} ms", flush=True)


if __name__ == "__main__":
    main()
