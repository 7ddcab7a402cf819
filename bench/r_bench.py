"""R against Python on the same 100,000-row level (`make bench`), measured in one run:

  R:      as.data.frame(taco_load(zip))      (libtaco's Arrow stream converted in C, r/src)
  Python: taco_cpp.load(zip).to_pandas()     (the same stream through pyarrow)

on a TACO ZIP written with the taco_cpp writer (bench/python_bench.py's write_zip: id, type,
a WKB centroid, a timestamp and internal:gdal_vsi per row). Each figure is the median of
--repeat runs after one warm-up, each in its own process's steady state (R: one Rscript
session timing the calls; Python: this interpreter). The goal of issue 26 is R <= 2x Python.
libtaco is staged with `cmake --install --component capi` and the R package installed into
BUILD/bench/r-lib. TACO_BENCH_SAMPLES overrides the row count.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from python_bench import write_zip  # noqa: E402

R_TIMER = r"""
a <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(taco))
n <- as.integer(a[[2]]); repeat_n <- as.integer(a[[3]])
one <- function() {
  t <- proc.time()[["elapsed"]]
  df <- as.data.frame(taco_load(a[[1]]))
  stopifnot(nrow(df) == n)
  proc.time()[["elapsed"]] - t
}
invisible(one())
cat(median(vapply(seq_len(repeat_n), function(i) one(), 0)), "\n")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="the CMake build tree (libtaco is installed from it)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = int(os.environ.get("TACO_BENCH_SAMPLES", "100000"))
    source = Path(__file__).resolve().parent.parent
    work = Path(args.build).resolve() / "bench" / "r-bench"
    prefix, lib = work / "prefix", work / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cmake", "--install", args.build, "--component", "capi", "--prefix", str(prefix)],
                   check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"), R_LIBS=str(lib))
    pkg = work / "pkg"
    subprocess.run(["rm", "-rf", str(pkg)], check=True)
    subprocess.run(["cp", "-r", str(source / "r"), str(pkg)], check=True)
    subprocess.run(["R", "CMD", "INSTALL", "--no-test-load", "-l", str(lib), str(pkg)], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    import taco_cpp

    with tempfile.TemporaryDirectory(prefix="taco-r-bench-") as tmp:
        zip_path = Path(tmp) / "big.tacozip"
        write_zip(zip_path, n)

        def py_once():
            t = time.perf_counter()
            df = taco_cpp.load(zip_path).to_pandas()
            assert len(df) == n
            return time.perf_counter() - t

        py_once()
        py = statistics.median(py_once() for _ in range(args.repeat))
        timer = Path(tmp) / "timer.R"
        timer.write_text(R_TIMER)
        out = subprocess.run(["Rscript", str(timer), str(zip_path), str(n), str(args.repeat)], check=True,
                             env=env, capture_output=True, text=True)
        r = float(out.stdout.split()[-1])

    print(f"r_bench: {n} rows (id, type, WKB centroid, timestamp, gdal_vsi), median of {args.repeat}")
    print(f"{'operation':<44} {'R':>10} {'Python':>10} {'R/Python':>9}")
    print(f"{'load + as.data.frame() / load + .to_pandas()':<44} {r * 1e3:>8.1f}ms {py * 1e3:>8.1f}ms {r / py:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
