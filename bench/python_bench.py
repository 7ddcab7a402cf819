"""Python benchmark of taco_cpp (`make bench`), as ratios measured in one run:

  1. on a 100,000-sample TACO ZIP (written here with the taco_cpp writer, like
     bench/reader_bench.cc: a WKB centroid and a timestamp per sample):
       taco_cpp.load(zip) + sql("SELECT count(*) ... FROM data") + .data
     against DuckDB's Python module reading the extracted level0.parquet into Arrow
     (connect + SELECT count(*) FROM read_parquet(...) + .fetch_arrow_table()), a fresh engine each time;
     and the same for all rows (load + .data vs SELECT * ... .fetch_arrow_table());
  2. `import taco_cpp` against `import duckdb`, each in a fresh interpreter.

Each figure is the median of several repetitions. TACO_BENCH_SAMPLES overrides the sample count.
"""

import argparse
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wkb_point(lon: float, lat: float) -> bytes:
    return struct.pack("<BIdd", 1, 1, lon, lat)


def write_zip(path: Path, n: int) -> None:
    import datetime as dt

    import taco_cpp
    from taco_cpp import Field, Sample, Taco, Tortilla

    rng = random.Random(7)
    t0 = dt.datetime(2023, 1, 1)
    samples = []
    for i in range(n):
        s = Sample(f"s{i}", data=f"sample-bytes-{i}".encode())
        s.extend([Field("stac:centroid", wkb_point(rng.uniform(-180, 180), rng.uniform(-60, 70)), "binary"),
                  Field("stac:time_start", t0 + dt.timedelta(days=i % 365), "timestamp[us]")])
        samples.append(s)
    collection = {"id": "bench", "dataset_version": "1", "description": "bench", "licenses": ["CC0-1.0"],
                  "providers": [{"name": "bench"}], "tasks": ["classification"]}
    taco_cpp.create(Taco(Tortilla(samples), collection), path)


def extract_level0(zip_path: Path, out: Path) -> None:
    import taco_cpp

    offset, length = taco_cpp.info(zip_path)["header"][0].values()
    with open(zip_path, "rb") as f:
        f.seek(offset)
        out.write_bytes(f.read(length))


def median_seconds(fn, repeat: int) -> float:
    fn()  # warm-up (page cache, lazy imports)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def import_seconds(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=dict(os.environ))
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taco", help="the taco CLI (unused; accepted for the Makefile)")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = int(os.environ.get("TACO_BENCH_SAMPLES", "100000"))

    import duckdb

    import taco_cpp

    with tempfile.TemporaryDirectory(prefix="taco-python-bench-") as tmp:
        tmp = Path(tmp)
        zip_path, level0 = tmp / "big.tacozip", tmp / "level0.parquet"
        t = time.perf_counter()
        write_zip(zip_path, n)
        write_s = time.perf_counter() - t
        extract_level0(zip_path, level0)

        def taco_count():
            t = taco_cpp.load(zip_path).sql("SELECT count(*) AS n FROM data").data
            assert t.column("n")[0].as_py() == n

        def duck_count():
            con = duckdb.connect()
            t = con.execute(f"SELECT count(*) AS n FROM read_parquet('{level0}')").fetch_arrow_table()
            assert t.column("n")[0].as_py() == n
            con.close()

        def taco_all():
            assert taco_cpp.load(zip_path).data.num_rows == n

        def duck_all():
            con = duckdb.connect()
            assert con.execute(f"SELECT * FROM read_parquet('{level0}')").fetch_arrow_table().num_rows == n
            con.close()

        rows = []
        for name, mine, ref in (("load + sql(count) + .data", taco_count, duck_count),
                                ("load + .data (all rows)", taco_all, duck_all)):
            a = median_seconds(mine, args.repeat)
            b = median_seconds(ref, args.repeat)
            rows.append((name, a, b))

    imp_taco = import_seconds("taco_cpp", args.repeat)
    imp_duck = import_seconds("duckdb", args.repeat)

    print(f"python_bench: {n} samples (ZIP written from Python in {write_s:.2f} s), "
          f"median of {args.repeat}; DuckDB Python {duckdb.__version__}")
    print(f"{'operation':<28} {'taco_cpp':>10} {'duckdb py':>10} {'ratio':>7}")
    for name, a, b in rows:
        print(f"{name:<28} {a * 1e3:>8.2f}ms {b * 1e3:>8.2f}ms {a / b:>7.2f}")
    print(f"{'import':<28} {imp_taco * 1e3:>8.2f}ms {imp_duck * 1e3:>8.2f}ms {imp_taco / imp_duck:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
