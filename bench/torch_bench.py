"""DataLoader throughput of taco_cpp.torch (issue 11), in one run, as ratios against a plain
GDAL dataset over the same files loose on disk.

Data (generated once, kept in OUT/torch_data): 2,000 samples, each a FOLDER with image.tif
(256x256, 4 bands uint16) and mask.tif (1 band uint8), DEFLATE, tiled; written as a TACO ZIP,
a FOLDER, and the same files loose. Every configuration yields the same samples: int32 image
and uint8 mask tensors (GDAL converts while decoding) plus the sample's id, batched by 16.

  (a) taco_cpp.torch.TacoIterableDataset over the ZIP (C++ read-ahead; map-style also shown)
  (b) the same over the FOLDER
  (c) the reference: a map-style torch Dataset opening the loose files with GDAL's Python
      bindings (python3-gdal; rasterio is not installed) and ReadAsArray, under a plain
      DataLoader (PyTorch's default_collate, which inside a worker stacks straight into
      shared memory): what a user writes
  (c') the same dataset collated by taco_cpp.torch.collate_samples (the reference of earlier
      runs; shown for comparison, ratios are against (c))
  (d) the ZIP served by nginx on loopback (remote; one request per sample)

Each configuration runs with 0 and 2 DataLoader workers: one warm-up pass over the first 300
samples, then RUNS full epochs; the median epoch gives samples/s. CPU per sample is the CPU
time of this process and its children (the DataLoader workers, counted when they exit at the
end of each epoch; getrusage RUSAGE_SELF + RUSAGE_CHILDREN, user + system) over those epochs,
divided by the samples they yielded; its system part is shown too. Results: stdout and OUT/torch.md.

usage: PYTHONPATH=build/python .venv/bin/python bench/torch_bench.py [--out build/bench]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES = 2000
SIZE = 256
BATCH = 16


def write_tif(path: Path, array: np.ndarray):
    from osgeo import gdal

    types = {np.dtype("uint16"): gdal.GDT_UInt16, np.dtype("uint8"): gdal.GDT_Byte}
    bands, rows, cols = array.shape
    ds = gdal.GetDriverByName("GTiff").Create(str(path), cols, rows, bands, types[array.dtype],
                                              options=["COMPRESS=DEFLATE", "TILED=YES"])
    ds.SetGeoTransform((10.0, 10.0, 0, 40.0, 0, -10.0))
    for b in range(bands):
        ds.GetRasterBand(b + 1).WriteArray(array[b])
    ds = None


def generate(root: Path, n: int) -> None:
    """Smooth fields plus noise (compressible like real imagery), deterministic."""
    import taco_cpp as tc

    stamp = root / f".done-{n}"
    if stamp.exists():
        return
    if root.exists():
        shutil.rmtree(root)
    loose = root / "loose"
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    samples = []
    t0 = time.perf_counter()
    for i in range(n):
        d = loose / f"s{i:05d}"
        d.mkdir(parents=True)
        phase = rng.uniform(0, 6.28, size=4)
        bands = [(2000 + 1500 * np.sin(6 * xx + phase[b]) * np.cos(4 * yy - phase[b])
                  + rng.normal(0, 40, (SIZE, SIZE))) for b in range(4)]
        write_tif(d / "image.tif", np.clip(np.stack(bands), 0, 65535).astype(np.uint16))
        mask = ((np.sin(9 * xx + phase[0]) + np.cos(7 * yy)) > 0).astype(np.uint8) + (bands[0] > 3000)
        write_tif(d / "mask.tif", mask[None].astype(np.uint8))
        samples.append(tc.Sample(f"s{i:05d}", tc.Tortilla([tc.Sample("image.tif", d / "image.tif"),
                                                           tc.Sample("mask.tif", d / "mask.tif")]),
                                 cloud=float(rng.uniform(0, 100))))
    collection = {"id": "torch_bench", "dataset_version": "1", "description": "bench/torch_bench.py",
                  "licenses": ["CC0-1.0"], "providers": [{"name": "bench"}], "tasks": ["segmentation"]}
    taco = tc.Taco(tc.Tortilla(samples), collection)
    tc.create(taco, root / "data.tacozip")
    tc.create(taco, root / "folder", format="folder")
    stamp.write_text("")
    print(f"generated {n} samples in {time.perf_counter() - t0:.1f} s", flush=True)


class LooseGdalDataset(Dataset):
    """The reference (c): what a user writes around GDAL's Python bindings."""

    def __init__(self, loose: Path, n: int):
        self.dirs = [loose / f"s{i:05d}" for i in range(n)]

    def __len__(self):
        return len(self.dirs)

    def __getitem__(self, i):
        from osgeo import gdal

        d = self.dirs[i]
        image = gdal.Open(str(d / "image.tif")).ReadAsArray(buf_type=gdal.GDT_Int32)
        mask = gdal.Open(str(d / "mask.tif")).ReadAsArray()[None]
        return {"image.tif": torch.from_numpy(image), "mask.tif": torch.from_numpy(mask),
                "metadata": {"id": d.name}}


class Nginx:
    def __init__(self, root: Path, work: Path):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        work.mkdir(parents=True, exist_ok=True)
        self.log = work / "access.log"
        user = "user root;" if os.geteuid() == 0 else ""
        (work / "nginx.conf").write_text(f"""{user} daemon off; worker_processes 2; pid {work}/nginx.pid;
error_log {work}/error.log; events {{ worker_connections 256; }}
http {{ access_log {self.log}; client_body_temp_path {work}; proxy_temp_path {work};
  fastcgi_temp_path {work}; uwsgi_temp_path {work}; scgi_temp_path {work};
  server {{ listen 127.0.0.1:{self.port}; root {root}; location / {{ }} }} }}
""")
        self.proc = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(work / "nginx.conf"),
                                      "-p", str(work)], stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def requests(self) -> int:
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)


def cpu_seconds() -> tuple[float, float]:
    """(user + system CPU, system CPU) of this process and of its exited, waited-for children."""
    total = system = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
        system += usage.ru_stime
    return total, system


def epoch(loader, limit=None) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = 0
    for batch in loader:
        n += len(batch["metadata"]["id"])
        if limit is not None and n >= limit:
            break
    return n, time.perf_counter() - t0


def measure(make_loader, runs: int) -> tuple[float, float, float]:
    """(samples/s: median of `runs` full epochs after a warm-up over 300 samples, CPU ms per
    sample over those epochs, of which system CPU)."""
    loader = make_loader()
    epoch(loader, limit=300)
    del loader
    gc.collect()  # the warm-up's workers exit (and are counted) before the CPU clock starts
    rates = []
    samples = 0
    cpu0 = cpu_seconds()
    for _ in range(runs):
        loader = make_loader()
        n, s = epoch(loader)
        del loader
        gc.collect()
        rates.append(n / s)
        samples += n
    cpu1 = cpu_seconds()
    return (statistics.median(rates), 1000.0 * (cpu1[0] - cpu0[0]) / samples,
            1000.0 * (cpu1[1] - cpu0[1]) / samples)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    out = Path(args.out).resolve()
    root = out / "torch_data"
    generate(root, args.samples)

    import taco_cpp as tc
    from taco_cpp.torch import TacoDataLoader, TacoDataset, TacoIterableDataset, collate_samples

    nginx = Nginx(root, out / "torch_nginx")
    results = []
    try:
        def taco_iterable(path):
            def make(workers):
                ds = TacoIterableDataset(tc.load(path, cache=False), files=["image.tif", "mask.tif"], seed=0,
                                         batch_size=BATCH)
                return lambda: TacoDataLoader(ds, batch_size=BATCH, num_workers=workers)
            return make

        def taco_map(path):
            def make(workers):
                ds = TacoDataset(tc.load(path, cache=False), files=["image.tif", "mask.tif"])
                return lambda: DataLoader(ds, batch_size=BATCH, num_workers=workers, collate_fn=collate_samples)
            return make

        def reference(workers):
            ds = LooseGdalDataset(root / "loose", args.samples)
            return lambda: DataLoader(ds, batch_size=BATCH, num_workers=workers)

        def reference_collate_samples(workers):
            ds = LooseGdalDataset(root / "loose", args.samples)
            return lambda: DataLoader(ds, batch_size=BATCH, num_workers=workers, collate_fn=collate_samples)

        configs = [
            ("(c) GDAL Python, loose files (reference)", reference),
            ("(c') the same, collate_samples", reference_collate_samples),
            ("(a) taco_cpp.torch iterable, ZIP", taco_iterable(root / "data.tacozip")),
            ("(a') taco_cpp.torch map-style, ZIP", taco_map(root / "data.tacozip")),
            ("(b) taco_cpp.torch iterable, FOLDER", taco_iterable(root / "folder")),
            ("(d) taco_cpp.torch iterable, remote ZIP (nginx)", taco_iterable(f"{nginx.url}/data.tacozip")),
        ]
        for workers in (0, 2):
            for name, make in configs:
                before = nginx.requests()
                rate, cpu, system = measure(make(workers), args.runs)
                reqs = nginx.requests() - before
                results.append((workers, name, rate, cpu, system))
                print(f"  workers={workers} {name:<50} {rate:8.1f} samples/s  {cpu:6.2f} ms CPU/sample "
                      f"({system:.2f} system)"
                      + (f"  ({reqs} requests)" if reqs else ""), flush=True)
    finally:
        nginx.stop()

    lines = ["# taco_cpp.torch DataLoader throughput", "",
             f"{args.samples} samples x (image.tif 256x256x4 uint16 + mask.tif uint8), DEFLATE; batch {BATCH}; "
             f"median of {args.runs} epochs after a warm-up; {os.cpu_count()} cores; torch {torch.__version__}.", "",
             "CPU/sample: user + system CPU of the process and its DataLoader workers per sample "
             "(system: the kernel's part, e.g. page faults on fresh memory).", "",
             "| workers | configuration | samples/s | vs (c) | CPU ms/sample | CPU vs (c) | system ms/sample |",
             "|---|---|---|---|---|---|---|"]
    for workers in (0, 2):
        ref, ref_cpu = next((r, c) for w, n, r, c, _ in results if w == workers and n.startswith("(c)"))
        for w, name, rate, cpu, system in results:
            if w == workers:
                lines.append(f"| {w} | {name} | {rate:.1f} | {rate / ref:.2f} | {cpu:.2f} | {cpu / ref_cpu:.2f} "
                             f"| {system:.2f} |")
    text = "\n".join(lines) + "\n"
    (out / "torch.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
