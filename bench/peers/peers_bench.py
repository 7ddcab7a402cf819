"""taco-cpp side by side with the upstream TACO tools, in one run (`make bench-peers`).

Datasets (generated under OUT/peers-data, same inputs for every writer):
  small  1,000 FOLDER samples x 2 GeoTIFFs (64x64 Byte), level-0 ISTAC footprint + time
  large  100,000 metadata-only FILE samples (16 bytes each) with footprint, time, cloud cover,
         geotiff:stats (one band) and stac:tensor_shape
Operations are timed whole, several runs each (median reported; the number of runs is in the
table): create, open + count(*), bbox + datetime filter, navigation to 1,000 random FILE
samples' GDAL paths, reading those samples' bytes, band stats, export of a 10% subset, and
remote open + first sample through nginx on a loopback port. `cat` of the same sample files
(loose, from the source tree) is the physical reference for reading bytes, DuckDB counting the
extracted level0.parquet the reference for open + count.

Tools: taco-cpp as the `taco` CLI (one process per operation, process start included) and as
the taco_cpp Python package when the build has it (in-process, like the Python peers);
tacotoolbox / tacoreader / tacobridge in this interpreter (imports done before timing); taco-eo
in its own venv (.venv-peers/taco-eo), timed inside that process, on the same samples written in
its own format (it cannot read TACO 2.0; see tests/interop).

Output: OUT/peers.md (table of times and ratios ours/theirs) and OUT/peers.png (bar chart).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import pathlib
import random
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
os.environ.setdefault("GDAL_PAM_ENABLED", "NO")

# ---- data ------------------------------------------------------------------------------------


def wkb_box(w, s, e, n) -> bytes:
    pts = [(w, s), (e, s), (e, n), (w, n), (w, s)]
    return struct.pack("<BIII", 1, 3, 1, 5) + b"".join(struct.pack("<dd", x, y) for x, y in pts)


def sample_meta(i: int, rng: random.Random) -> dict:
    lon, lat = rng.uniform(-170, 170), rng.uniform(-60, 70)
    t = dt.datetime(2015, 1, 1) + dt.timedelta(hours=rng.randrange(0, 24 * 365 * 8))
    return {"istac:geometry": wkb_box(lon, lat, lon + 0.1, lat + 0.1), "istac:time_start": t,
            "cloud": round(rng.random() * 100, 2)}


def make_small(src: pathlib.Path, n: int, rng: random.Random) -> list[dict]:
    from osgeo import gdal

    drv = gdal.GetDriverByName("GTiff")
    metas = []
    for i in range(n):
        d = src / f"s{i:05d}"
        d.mkdir(parents=True)
        for j, name in enumerate(("before.tif", "after.tif")):
            ds = drv.Create(str(d / name), 64, 64, 1, gdal.GDT_Byte)
            ds.SetGeoTransform((500000 + i * 640, 10, 0, 4400000, 0, -10))
            ds.GetRasterBand(1).WriteRaster(0, 0, 64, 64, bytes((k * (i + j + 1)) % 251 for k in range(4096)))
            ds = None
        m = sample_meta(i, rng)
        m["id"] = d.name
        metas.append(m)
    return metas


def make_large(src: pathlib.Path, n: int, rng: random.Random) -> list[dict]:
    src.mkdir(parents=True)
    metas = []
    for i in range(n):
        sid = f"m{i:06d}"
        (src / sid).write_bytes(struct.pack("<QQ", i, i * 7))
        m = sample_meta(i, rng)
        mean = rng.uniform(0, 255)
        m["geotiff:stats"] = [[0.0, 255.0, mean, 20.0, 100.0, mean - 10, mean, mean + 10, mean + 30]]
        m["stac:tensor_shape"] = [1, 64, 64]
        m["id"] = sid
        metas.append(m)
    return metas


def metadata_parquet(metas: list[dict], path: pathlib.Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = {"path": pa.array([m["id"] for m in metas])}
    for k in metas[0]:
        if k == "id":
            continue
        t = {"istac:geometry": pa.binary(), "istac:time_start": pa.timestamp("us"), "cloud": pa.float64(),
             "geotiff:stats": pa.list_(pa.list_(pa.float32())), "stac:tensor_shape": pa.list_(pa.int64())}[k]
        cols[k] = pa.array([m[k] for m in metas], type=t)
    pq.write_table(pa.table(cols), path)


COLLECTION = {"dataset_version": "1.0.0", "description": "peer benchmark dataset", "licenses": ["CC-BY-4.0"],
              "providers": [{"name": "taco-cpp bench"}], "tasks": ["classification"]}


# ---- timing ----------------------------------------------------------------------------------

class Bench:
    def __init__(self, runs: int):
        self.runs = runs
        self.rows: list[dict] = []

    def time(self, op: str, data: str, tool: str, fn, runs: int | None = None, setup=None, note: str = ""):
        times = []
        for _ in range(runs or self.runs):
            if setup:
                setup()
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        self.add(op, data, tool, statistics.median(times), len(times), note)

    def add(self, op, data, tool, seconds, runs, note=""):
        self.rows.append({"op": op, "data": data, "tool": tool, "s": seconds, "runs": runs, "note": note})
        print(f"  {op:<28} {data:<6} {tool:<22} {seconds * 1000:10.1f} ms  ({runs} runs) {note}", flush=True)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, **kw)
    if p.returncode != 0:
        raise RuntimeError(f"{[c[:80] for c in cmd[:4]]}: exit {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    return p.stdout


# ---- nginx -----------------------------------------------------------------------------------

class Nginx:
    """nginx serving ROOT on a free loopback port; requests counted from its access log."""

    def __init__(self, root: pathlib.Path, work: pathlib.Path):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        work.mkdir(parents=True, exist_ok=True)
        self.log = work / "access.log"
        conf = work / "nginx.conf"
        conf.write_text(f"""daemon off; worker_processes 1; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{ access_log {self.log}; client_body_temp_path {work}; proxy_temp_path {work};
  fastcgi_temp_path {work}; uwsgi_temp_path {work}; scgi_temp_path {work};
  server {{ listen 127.0.0.1:{self.port}; root {root}; location / {{ }} }} }}
""")
        self.proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work)], stderr=subprocess.DEVNULL)
        for _ in range(100):
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


# ---- the run ---------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=100_000)
    ap.add_argument("--taco-cpp", default="", help="directory holding the taco_cpp package (default: BUILD/python)")
    args = ap.parse_args()

    build = pathlib.Path(args.build).resolve()
    out = pathlib.Path(args.out).resolve()
    taco = str(build / "taco")
    venv = pathlib.Path(sys.prefix)
    os.environ.setdefault("HOME", str(venv / "home"))
    if (venv / "home").is_dir():
        os.environ["HOME"] = str(venv / "home")  # DuckDB's spatial extension for tacoreader
    pkg = pathlib.Path(args.taco_cpp) if args.taco_cpp else build / "python"
    if (pkg / "taco_cpp").is_dir():
        sys.path.insert(0, str(pkg))
    try:
        import taco_cpp
    except ImportError:
        taco_cpp = None
    import duckdb
    import tacobridge
    import tacoreader
    import tacotoolbox
    from osgeo import gdal
    from tacotoolbox.datamodel import Sample, Taco, Tortilla

    t_start = time.time()
    data = out / "peers-data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    B = Bench(args.runs)
    rng = random.Random(15)
    sizes = {"small": args.small, "large": args.large}
    sets = {}
    for name, n in sizes.items():
        src = data / name / "src"
        metas = make_small(src, n, rng) if name == "small" else make_large(src, n, rng)
        meta_pq = data / name / "meta.parquet"
        metadata_parquet(metas, meta_pq)
        coll = data / name / "collection.json"
        coll.write_text(json.dumps({"id": f"bench_{name}", **COLLECTION}))
        sets[name] = (src, metas, meta_pq, coll)
        print(f"{name}: {n} samples generated in {data / name}", flush=True)

    def fresh(p: pathlib.Path):
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()

    zips = {}
    for name, (src, metas, meta_pq, coll) in sets.items():
        cruns = 3 if name == "small" else 1
        # tacotoolbox: Sample objects + create, timed together (that is what a user runs)
        tb_out = data / name / "toolbox.tacozip"

        def tb_create():
            fresh(tb_out)
            samples = []
            for m in metas:
                if name == "small":
                    d = src / m["id"]
                    path = Tortilla([Sample(id=f, path=d / f) for f in ("before.tif", "after.tif")])
                else:
                    path = src / m["id"]
                s = Sample(id=m["id"], path=path)
                s.extend_with({k: v for k, v in m.items() if k != "id"})
                samples.append(s)
            t = Taco(tortilla=Tortilla(samples), id=f"bench_{name}", **COLLECTION)
            tacotoolbox.create(t, tb_out)

        B.time("create", name, "tacotoolbox", tb_create, runs=cruns)
        cli_out = data / name / "cli.tacozip"
        B.time("create", name, "taco create (CLI)",
               lambda: (fresh(cli_out), run([taco, "create", str(src), str(cli_out), "--collection", str(coll),
                                              "--metadata", str(meta_pq)])), runs=cruns)
        if taco_cpp is not None:
            py_out = data / name / "py.tacozip"

            def py_create():
                fresh(py_out)
                samples = []
                for m in metas:
                    if name == "small":
                        d = src / m["id"]
                        path = taco_cpp.Tortilla([taco_cpp.Sample(f, str(d / f)) for f in ("before.tif", "after.tif")])
                    else:
                        path = str(src / m["id"])
                    samples.append(taco_cpp.Sample(m["id"], path, **{k: v for k, v in m.items() if k != "id"}))
                taco_cpp.create(taco_cpp.Taco(taco_cpp.Tortilla(samples), id=f"bench_{name}", **COLLECTION), str(py_out))

            B.time("create", name, "taco_cpp.create", py_create, runs=cruns)
        if name == "small" and taco_cpp is not None:
            toolbox_script_rows(B, src, metas, data / name, pkg, cruns)
        B.time("create", name, "cp -r (reference)",
               lambda: (fresh(data / name / "cp"), run(["cp", "-r", str(src), str(data / name / "cp")])), runs=cruns)
        zips[name] = cli_out

    # taco-eo: the same samples in its own format, written and read inside its venv
    eo = venv / "taco-eo" / "bin" / "python"
    eo_results = {}
    if eo.exists():
        for name, (src, metas, meta_pq, coll) in sets.items():
            p = subprocess.run([str(eo), str(HERE / "taco_eo_side.py"), name, str(src), str(meta_pq),
                                str(data / name / "eo.zip"), str(args.runs)], capture_output=True, text=True)
            if p.returncode != 0:
                print(f"taco-eo side failed on {name}: {p.stderr[-600:]}", flush=True)
                continue
            eo_results[name] = json.loads(p.stdout.strip().splitlines()[-1])
            for op, (sec, runs) in eo_results[name].items():
                B.add(op, name, "taco-eo (own format)", sec, runs)

    for name, z in zips.items():
        src, metas, meta_pq, coll = sets[name]
        n = len(metas)
        # reference: DuckDB counting the extracted level0.parquet (in process)
        lv0 = data / name / "level0.parquet"
        info = json.loads(run([taco, "info", "--json", str(z)]))
        off, length = info["header"][0]["offset"], info["header"][0]["length"]
        with open(z, "rb") as f:
            f.seek(off)
            lv0.write_bytes(f.read(length))
        B.time("open + count(*)", name, "DuckDB on level0.parquet",
               lambda: duckdb.connect().execute(f"SELECT count(*) FROM '{lv0}'").fetchone())
        B.time("open + count(*)", name, "taco sql (CLI)",
               lambda: run([taco, "sql", str(z), "SELECT count(*) FROM data", "--format", "csv"]))
        B.time("open + count(*)", name, "duckdb CLI process",
               lambda: run([sys.executable, "-c", f"import duckdb; duckdb.connect().execute(\"SELECT count(*) FROM '{lv0}'\").fetchone()"]),
               runs=3, note="python -c import duckdb: process reference")
        B.time("open + count(*)", name, "tacoreader", lambda: len(tacoreader.load(str(z)).data))
        if taco_cpp is not None:
            B.time("open + count(*)", name, "taco_cpp", lambda: len(taco_cpp.load(str(z))))
        B.time("open", name, "tacoreader", lambda: tacoreader.load(str(z)))
        if taco_cpp is not None:
            B.time("open", name, "taco_cpp", lambda: taco_cpp.load(str(z)))
            import taco_cpp.compat.tacoreader as compat_reader

            # the same tacoreader calls on the drop-in (issue 23): load, then sql() over the
            # flat view l0 (a table at once since 2.4.21), materialised as the backend's frame
            B.time("open", name, "taco_cpp.compat.tacoreader", lambda: compat_reader.load(str(z)))
            B.time("open + count(*)", name, "taco_cpp.compat.tacoreader", lambda: len(compat_reader.load(str(z)).data))
        sql_q = "SELECT \"l0:id\", \"l0:cloud\" FROM l0 WHERE \"l0:cloud\" < 50"
        if "cloud" in metas[0]:
            B.time("load + sql(l0 filter)", name, "tacoreader", lambda: len(tacoreader.load(str(z)).sql(sql_q)))
            if taco_cpp is not None:
                B.time("load + sql(l0 filter)", name, "taco_cpp.compat.tacoreader",
                       lambda: len(compat_reader.load(str(z)).sql(sql_q)))

        # bbox + datetime
        box, rng_t = (-60.0, -40.0, 60.0, 40.0), "2016-01-01/2019-12-31"
        B.time("bbox + datetime filter", name, "taco filter (CLI)",
               lambda: run([taco, "filter", str(z), "--bbox", ",".join(map(str, box)), "--datetime", rng_t,
                            "--format", "csv"]))
        B.time("bbox + datetime filter", name, "tacoreader",
               lambda: len(tacoreader.load(str(z)).filter_bbox(*box).filter_datetime(rng_t).data))
        if taco_cpp is not None:
            B.time("bbox + datetime filter", name, "taco_cpp",
                   lambda: len(taco_cpp.load(str(z)).filter_bbox(*box).filter_datetime(rng_t).data))

        # navigation to 1,000 random FILE samples
        r = random.Random(7)
        if name == "small":
            keys = [(f"s{r.randrange(n):05d}", r.choice(("before.tif", "after.tif"))) for _ in range(1000)]
            loose = [src / a / b for a, b in keys]
        else:
            keys = [(f"m{r.randrange(n):06d}",) for _ in range(1000)]
            loose = [src / k[0] for k in keys]

        def tr_nav():
            ds = tacoreader.load(str(z))
            paths = []
            for k in keys:
                node = ds
                for part in k:
                    node = node.read(part)
                paths.append(node)
            return paths

        tr_paths = tr_nav()
        B.time("navigate 1,000 samples", name, "tacoreader", tr_nav, runs=max(1, args.runs // 2))
        if taco_cpp is not None:
            def py_nav():
                ds = taco_cpp.load(str(z))
                return [ds.read(*k) for k in keys]

            B.time("navigate 1,000 samples", name, "taco_cpp", py_nav)
        if name == "small":
            # the per-sample path of a tacoreader-style training Dataset: load once (its
            # __init__), then __getitem__(i) = ds.read(i).read(file), or df.read(i) on ds.data
            idx = [r.randrange(n) for _ in range(1000)]

            def loop_ds(mod):
                ds = mod.load(str(z))
                return lambda: [ds.read(i).read("before.tif") for i in idx]

            def loop_df(mod):
                df = mod.load(str(z)).data
                return lambda: [df.read(i).read("after.tif") for i in idx]

            for op, make in (("Dataset: ds.read(i).read(file) x1,000", loop_ds),
                             ("Dataset: ds.data.read(i).read(file) x1,000", loop_df)):
                B.time(op, name, "tacoreader", make(tacoreader))
                if taco_cpp is not None:
                    import taco_cpp.compat.tacoreader as compat_reader

                    B.time(op, name, "taco_cpp.compat.tacoreader", make(compat_reader),
                           note="the same script on the drop-in (issue 23 goal: <= 0.5x tacoreader)")
        listq = ("SELECT l1.\"internal:gdal_vsi\" FROM level1 l1 JOIN level0 l0 ON l1.\"internal:parent_id\" = "
                 "l0.\"internal:current_id\" WHERE l0.id || '/' || l1.id IN ('" + "','".join("/".join(k) for k in keys) + "')"
                 if name == "small" else
                 "SELECT \"internal:gdal_vsi\" FROM data WHERE id IN ('" + "','".join(k[0] for k in keys) + "')")
        B.time("navigate 1,000 samples", name, "taco sql (CLI, 1 query)",
               lambda: run([taco, "sql", str(z), listq, "--format", "csv"]))

        # reading those samples' bytes
        B.time("read 1,000 samples' bytes", name, "cat (loose files)",
               lambda: subprocess.run(["cat", *map(str, loose)], stdout=subprocess.DEVNULL, check=True))

        def read_gdal(paths):
            total = 0
            for p in paths:
                f = gdal.VSIFOpenL(p, "rb")
                gdal.VSIFSeekL(f, 0, 2)
                size = gdal.VSIFTellL(f)
                gdal.VSIFSeekL(f, 0, 0)
                total += len(gdal.VSIFReadL(1, size, f))
                gdal.VSIFCloseL(f)
            return total

        B.time("read 1,000 samples' bytes", name, "tacoreader paths + GDAL", lambda: read_gdal(tr_paths))
        if taco_cpp is not None:
            def py_bytes():
                ds = taco_cpp.load(str(z))
                return sum(len(ds.read_bytes(*k)) for k in keys)

            B.time("read 1,000 samples' bytes", name, "taco_cpp read_bytes", py_bytes,
                   note="open + navigation included (the peers read paths resolved before)")
            py_paths = py_nav()
            B.time("read 1,000 samples' bytes", name, "taco_cpp paths + GDAL", lambda: read_gdal(py_paths))

        # band stats (large only: the FILE rows carry geotiff:stats)
        if name == "large":
            B.time("band stats (mean, p50)", name, "taco stats (CLI)",
                   lambda: run([taco, "stats", str(z), "--band", "0", "--json"]))
            B.time("band stats (mean, p50)", name, "tacoreader",
                   lambda: (lambda ds: (ds.stats_mean(0), ds.stats_p50(0)))(tacoreader.load(str(z))))

        # export of a 10% subset (the first ~10% of the 8-year time range)
        sub_t = "2015-01-01/2015-10-19"
        ex_cli, ex_tb = data / name / "export_cli.tacozip", data / name / "export_tb.tacozip"
        B.time("export 10% subset", name, "taco export (CLI)",
               lambda: run([taco, "export", str(z), str(ex_cli), "--datetime", sub_t]), setup=lambda: fresh(ex_cli),
               runs=3)
        try:
            B.time("export 10% subset", name, "tacobridge",
                   lambda: tacobridge.export(tacoreader.load(str(z)).filter_datetime(sub_t), ex_tb, progress=False),
                   setup=lambda: fresh(ex_tb), runs=3)
        except Exception as e:  # tacobridge 0.3.0 + tacoreader 2.4.21: see tests/interop
            B.add("export 10% subset", name, "tacobridge", float("nan"), 0, f"fails: {type(e).__name__}: {e}"[:120])

    # remote: open + first sample via nginx
    ng = Nginx(data, data / "nginx")
    try:
        for name, z in zips.items():
            url = f"{ng.url}/{name}/{z.name}"
            first = ("s00000", "before.tif") if name == "small" else ("m000000",)

            def cli_remote():
                run([taco, "cat", url, *first], env={**os.environ, "TACO_NO_CACHE": "1"})

            before = ng.requests()
            B.time("remote open + 1st sample", name, "taco cat (CLI)", cli_remote, runs=3)
            per = (ng.requests() - before) / 3

            def tr_remote():
                ds = tacoreader.load(url, cache=False)
                node = ds
                for k in first:
                    node = node.read(k)
                return read_gdal([node])

            B.rows[-1]["note"] = f"{per:.0f} requests"
            before = ng.requests()
            try:
                B.time("remote open + 1st sample", name, "tacoreader + GDAL", tr_remote, runs=3)
                B.rows[-1]["note"] = f"{(ng.requests() - before) / 3:.0f} requests"
            except Exception as e:  # obstore refuses plain http:// unless allow_http is set
                B.add("remote open + 1st sample", name, "tacoreader + GDAL", float("nan"), 0,
                      f"fails: {type(e).__name__}: " + str(e).splitlines()[0][:110])
    finally:
        ng.stop()

    md = report(B.rows, args, time.time() - t_start, taco_cpp is not None)
    (out / "peers.md").write_text(md)
    chart(B.rows, out / "peers.png")
    print(md)
    return 0


def toolbox_script_rows(B, src, metas, work, pkg, runs):
    """bench/peers/toolbox_script.py (the migration guide's tacotoolbox script) run unchanged
    with the real tacotoolbox and under taco_cpp.compat.install(); the script times its body."""
    import pickle

    metas_file = work / "metas.pickle"
    metas_file.write_bytes(pickle.dumps(metas))
    script = str(HERE / "toolbox_script.py")
    shim = ("import runpy, sys, taco_cpp.compat as c; c.install(); sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    env_compat = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pkg), os.environ.get("PYTHONPATH", "")]))
    for tool, cmd, env in (("tacotoolbox script", [sys.executable, script], None),
                           ("taco_cpp.compat: same script", [sys.executable, "-c", shim, script], env_compat)):
        times = []
        for k in range(runs):
            out = work / f"script_{len(times)}_{tool[:4]}.tacozip"
            if out.exists():
                out.unlink()
            times.append(float(run(cmd + [str(src), str(metas_file), str(out)], env=env).decode().split()[-1]))
            out.unlink()
        B.add("create (tacotoolbox script)", "small", tool, statistics.median(times), len(times),
              "docs/python.md migration script, unchanged")


def is_ours(tool: str) -> bool:
    """taco-cpp's rows: the CLI ("taco create (CLI)", ...) and the Python package ("taco_cpp...").
    Not a prefix test on "taco": tacotoolbox, tacoreader, tacobridge and taco-eo start so too."""
    return tool.startswith("taco ") or tool.startswith("taco_cpp")


def report(rows, args, seconds, have_py) -> str:
    groups = {}
    for r in rows:
        groups.setdefault((r["op"], r["data"]), []).append(r)
    lines = ["# taco-cpp and the upstream TACO tools, side by side", "",
             f"One run of `make bench-peers` ({seconds / 60:.1f} min): median of the runs shown; "
             f"small = {args.small} FOLDER samples x 2 GeoTIFFs, large = {args.large} FILE samples "
             "(metadata only). Ratio = ours / theirs (< 1: we are faster) for each peer doing the same "
             "job; references (cat, cp, DuckDB) are physical bounds." + ("" if have_py else
             " taco_cpp (the Python package) was not built in this tree: its rows are missing."), "",
             "| operation | data | tool | time (ms) | runs | ratio ours/this | note |",
             "|---|---|---|---:|---:|---|---|"]
    for (op, data), rs in groups.items():
        ours = [r for r in rs if is_ours(r["tool"])]
        best = min(ours, key=lambda r: r["s"]) if ours else None
        for r in rs:
            ratio = ""
            if best and not is_ours(r["tool"]):
                ratio = f"{best['s'] / r['s']:.2f} ({best['tool']})"
            t = "–" if r["s"] != r["s"] else f"{r['s'] * 1000:.1f}"
            if r["s"] != r["s"]:
                ratio = ""
            lines.append(f"| {op} | {data} | {r['tool']} | {t} | {r['runs']} | {ratio} | {r['note']} |")
    return "\n".join(lines) + "\n"


def chart(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = {}
    for r in rows:
        groups.setdefault(f"{r['op']} [{r['data']}]", []).append(r)
    fig, ax = plt.subplots(figsize=(11, 0.32 * len(rows) + 2))
    y, ticks, labels = 0, [], []
    colors = {"ours": "#2b7bba", "peer": "#d95f02", "ref": "#999999"}
    for g, rs in groups.items():
        for r in rs:
            if r["s"] != r["s"]:
                continue
            kind = "ours" if is_ours(r["tool"]) else "ref" if any(
                w in r["tool"] for w in ("cat", "cp -r", "DuckDB", "duckdb")) else "peer"
            ax.barh(y, r["s"] * 1000, color=colors[kind])
            ticks.append(y)
            labels.append(f"{g}  {r['tool']}")
            y += 1
        y += 0.8
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds (log scale, median)")
    ax.set_title("taco-cpp (blue) vs upstream TACO tools (orange); references grey")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
