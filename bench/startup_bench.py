"""Start-up benchmark of taco_cpp and the taco CLI (`make bench`, issue 28), ratios from one run:

  1. taco_cpp.load() of the 48-row demo ZIP (`taco demo`), in-process, against
     pyarrow.parquet.read_metadata of the same level0.parquet (opening a Parquet file: the
     least a reader of the dataset must do); goal: load() <= 0.5 ms;
  2. load() + .data against pyarrow.parquet.read_table of that level0.parquet; goal <= 1.5x;
  3. `taco --version` against `gdalinfo --version` (process start-up with GDAL linked);
     goal <= 1.0x. The `taco` executable is a launcher that answers --version and --help
     without loading libtaco_cli.so (docs/architecture.md);
  4. for information, `taco --help` and `taco info` of the demo ZIP (which loads the library,
     DuckDB and GDAL) against the same `gdalinfo --version`.
Also how many SQL engines loading and len() started (0 when the engine is lazy).

Each figure is the median of --repeat runs (in-process rows: --repeat x 20 calls). The process
rows also give the median CPU time (user + system of the child): on a loaded machine wall
times are mostly waiting for a core.
"""

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from python_bench import median_seconds  # bench/ is the script's directory


def process_seconds(argv, repeat: int) -> float:
    return median_seconds(lambda: subprocess.run(argv, capture_output=True, check=True), repeat)


def process_cpu_seconds(argv, repeat: int) -> float:
    """Median user + system CPU time of one run of argv."""
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taco", required=True, help="the taco CLI")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()

    import pyarrow.parquet as pq

    import taco_cpp
    from taco_cpp import _native

    with tempfile.TemporaryDirectory(prefix="taco-startup-bench-") as tmp:
        tmp = Path(tmp)
        subprocess.run([args.taco, "demo", str(tmp / "demo")], capture_output=True, check=True)
        zip_path = next((tmp / "demo").rglob("*.tacozip"))
        offset, length = taco_cpp.info(zip_path)["header"][0].values()
        level0 = tmp / "level0.parquet"
        with open(zip_path, "rb") as f:
            f.seek(offset)
            level0.write_bytes(f.read(length))
        rows = len(taco_cpp.load(zip_path))

        lazy_engines = "not counted by this build"
        if hasattr(_native, "_engines_started"):
            engines = _native._engines_started()
            assert len(taco_cpp.load(zip_path)) == rows
            lazy_engines = _native._engines_started() - engines

        calls = args.repeat * 20
        table = []
        table.append(("load() (demo ZIP)", median_seconds(lambda: taco_cpp.load(zip_path), calls),
                      "pq.read_metadata", median_seconds(lambda: pq.read_metadata(level0), calls)))
        table.append(("load() + .data", median_seconds(lambda: taco_cpp.load(zip_path).data, calls),
                      "pq.read_table", median_seconds(lambda: pq.read_table(level0), calls)))
        gdalinfo = shutil.which("gdalinfo")
        cpu = {}  # operation -> (taco CPU seconds, gdalinfo CPU seconds)
        if gdalinfo:
            reference = [gdalinfo, "--version"]
            for name, argv in (("taco --version", [args.taco, "--version"]), ("taco --help", [args.taco, "--help"]),
                               ("taco info (demo ZIP)", [args.taco, "info", str(zip_path)])):
                table.append((name, process_seconds(argv, args.repeat), "gdalinfo --version",
                              process_seconds(reference, args.repeat)))
                cpu[name] = (process_cpu_seconds(argv, args.repeat), process_cpu_seconds(reference, args.repeat))

    print(f"startup_bench: demo ZIP of {rows} rows, median of {calls} calls in-process / {args.repeat} processes; "
          f"SQL engines started by load() + len(): {lazy_engines}")
    print(f"{'operation':<20} {'taco':>10} {'reference':<20} {'ref':>10} {'ratio':>7}")
    for name, a, ref_name, b in table:
        print(f"{name:<20} {a * 1e3:>8.3f}ms {ref_name:<20} {b * 1e3:>8.3f}ms {a / b:>7.2f}")
    for name, (a, b) in cpu.items():
        print(f"{name + ' CPU':<24} {a * 1e3:>8.1f}ms {'gdalinfo --version CPU':<24} {b * 1e3:>8.1f}ms "
              f"{a / b if b else float('nan'):>7.2f}")
    # Issue 28's table (bench/speed_table.py collects these lines).
    keys = {"load() (demo ZIP)": ("load", "<= 0.5 ms"), "load() + .data": ("load-data", "<= 1.5x"),
            "taco --version": ("version", "<= 1.0x")}
    for name, a, ref_name, b in table:
        if name not in keys:
            continue
        key, goal = keys[name]
        note = f"median; demo ZIP of {rows} rows"
        if name in cpu:
            note = f"median wall; CPU {cpu[name][0] * 1e3:.1f} ms vs {cpu[name][1] * 1e3:.1f} ms"
        ratio = f"{a / b:.3f}" if a / b < 0.1 else f"{a / b:.2f}"
        print(f"speed-row: {key}|{a * 1e3:.3f} ms|{ref_name}|{b * 1e3:.3f} ms|{ratio}|{goal}|{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
