"""Untrusted datasets (issue 29): a NaN statistic is refused, not looped on; long native
calls stop on SIGINT; COLLECTION.json with many keys parses in linear time. Every call that
hung or crawled on the unfixed code runs in a subprocess with a timeout, so that the suite
fails instead of hanging."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import taco_cpp
from taco_cpp import Sample, Taco, Tortilla
from conftest import COLLECTION

GOOD = [[0.0, 10.0, 5.0, 2.0, 100.0, 2.5, 5.0, 7.5, 9.5]]


def _run_python(code, timeout):
    """Runs `code` in a fresh interpreter with this suite's taco_cpp; TimeoutExpired fails the test."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def nan_stats(tmp_path_factory):
    """A FOLDER dataset of 3 samples; s1's band-0 min is NaN (it made the pooled percentile
    search loop forever)."""
    bad = [[float("nan")] + GOOD[0][1:]]
    samples = [Sample(f"s{i}", data=b"x", **{"geotiff:stats": bad if i == 1 else GOOD}) for i in range(3)]
    out = tmp_path_factory.mktemp("nan") / "ds"
    taco_cpp.create(Taco(Tortilla(samples), COLLECTION), out)
    return out


def test_cli_stats_refuses_a_nan_statistic(nan_stats, taco_cli):
    exe = taco_cli("--version").args[0]
    r = subprocess.run([exe, "stats", str(nan_stats), "--band", "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stdout
    assert "sample 's1' band 0 value 0" in r.stderr and "NaN" in r.stderr
    # the same refusal from every method that reads stored statistics
    r = subprocess.run([exe, "stats", str(nan_stats), "--band", "0", "--method", "upstream"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "'s1'" in r.stderr


def test_python_stats_refuses_a_nan_statistic(nan_stats):
    r = _run_python(f"""
        import taco_cpp
        ds = taco_cpp.load({str(nan_stats)!r})
        for f in (ds.stats_mean, ds.stats_p50, ds.stats_max):
            try:
                f(band=0)
            except taco_cpp.InvalidArgumentError as e:
                print("refused:", e)
    """, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("refused:") == 3 and "sample 's1'" in r.stdout


def test_validate_flags_a_nan_statistic(nan_stats, taco_cli):
    r = taco_cli("validate", nan_stats)
    assert r.returncode == 1
    assert "stats-values" in r.stdout and "level0 row 1 (s1)" in r.stdout and "is NaN" in r.stdout
    report = taco_cpp.validate(nan_stats)
    assert [v["rule"] for v in report.violations] == ["stats-values"]


def test_sigint_stops_a_long_stats_call(tmp_path):
    """Exact statistics over 3 rasters of 8192x8192 pixels take seconds each; SIGINT half a
    second into the native call must raise KeyboardInterrupt promptly (unfixed: only after
    the whole call, about 13 s)."""
    from osgeo import gdal

    gdal.UseExceptions()
    tif = tmp_path / "big.tif"
    ds = gdal.GetDriverByName("GTiff").Create(str(tif), 8192, 8192, 1, gdal.GDT_Byte, ["COMPRESS=DEFLATE", "TILED=YES"])
    ds.GetRasterBand(1).Fill(7)
    ds = None
    out = tmp_path / "big"
    taco_cpp.create(Taco(Tortilla([Sample(f"s{i}", tif) for i in range(3)]), COLLECTION), out)
    r = _run_python(f"""
        import os, signal, sys, threading, time
        import numpy
        import taco_cpp
        ds = taco_cpp.load({str(out)!r})
        main = threading.main_thread().ident
        sent = []

        def interrupt_the_native_call():
            # SIGINT once the main thread is inside the native stats call (its Python frame
            # is `_stats`, the GIL released), so that it cannot land in Python code.
            while True:
                frame = sys._current_frames().get(main)
                if frame is not None and frame.f_code.co_name == "_stats":
                    time.sleep(0.5)
                    sent.append(time.monotonic())
                    os.kill(os.getpid(), signal.SIGINT)
                    return
                time.sleep(0.01)

        threading.Thread(target=interrupt_the_native_call, daemon=True).start()
        try:
            ds.stats_mean(band=0, method="exact")
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        print(time.monotonic() - sent[0])
        # the dataset stays usable after an interrupted call
        print(len(ds.data))
    """, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split()
    assert lines[0] == "interrupted"
    assert float(lines[1]) < 3.0, r.stdout  # seconds from SIGINT to KeyboardInterrupt
    assert lines[2] == "3"


@pytest.fixture(scope="module")
def many_keys(tmp_path_factory):
    """A FOLDER dataset whose COLLECTION.json has 400,000 extra keys (about 7 MB, under the
    64 MiB limit). Parsing it cost n²/2 key comparisons on the unfixed code (100,000 keys:
    14 s per command; this: minutes), and linear time now (well under a second)."""
    out = tmp_path_factory.mktemp("keys") / "ds"
    taco_cpp.create(Taco(Tortilla([Sample("a", data=b"1")]), COLLECTION), out)
    path = out / "COLLECTION.json"
    collection = json.loads(path.read_text())
    for i in range(400_000):
        collection["k%d" % i] = i
    collection["k7"] = "seven"  # an existing key assigned again keeps its place
    path.write_text(json.dumps(collection))
    return out


@pytest.mark.parametrize("command", [["info"], ["info", "--json"], ["validate"], ["ls"]])
def test_many_collection_keys_cli(many_keys, taco_cli, command):
    exe = taco_cli("--version").args[0]
    r = subprocess.run([exe, *command, str(many_keys)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    if command == ["info", "--json"]:
        keys = [k for k in json.loads(r.stdout)["collection"] if k[0] == "k" and k[1:].isdigit()]
        assert keys == ["k%d" % i for i in range(400_000)]  # in file order


def test_many_collection_keys_python(many_keys):
    r = _run_python(f"""
        import taco_cpp
        ds = taco_cpp.load({str(many_keys)!r})
        c = ds.collection
        print(len(c), c["k7"], list(c)[-1])
    """, timeout=60)
    assert r.returncode == 0, r.stderr
    n, seven, last = r.stdout.split()
    assert int(n) >= 400_000 and seven == "seven" and last == "k399999"


@pytest.fixture(scope="module")
def many_rows(tmp_path_factory):
    """A ZIP of 5,000 FILE samples (its CSV is about 1 MB: larger than any output buffer)."""
    out = tmp_path_factory.mktemp("rows") / "rows.tacozip"
    samples = [Sample("s%05d" % i, data=b"x", note="n" * 100) for i in range(5000)]
    taco_cpp.create(Taco(Tortilla(samples), COLLECTION), out)
    return out


@pytest.mark.parametrize("args", [
    ["files", "{ds}"], ["sql", "{ds}", "SELECT * FROM data", "--format", "csv"], ["sql", "{ds}", "SELECT id FROM data"],
    ["ls", "{ds}"], ["info", "{ds}"], ["info", "--json", "{ds}"], ["filter", "{ds}", "--json"], ["validate", "{ds}"],
    ["cat", "{ds}", "s00001"],
])
def test_write_errors_fail_the_command(many_rows, taco_cli, args):
    """stdout on a full disk (/dev/full): exit 2 and "taco: writing output: ..." — the unfixed
    commands (all but cat) exited 0."""
    exe = taco_cli("--version").args[0]
    with open("/dev/full", "w") as full:
        r = subprocess.run([exe, *(a.format(ds=many_rows) for a in args)], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "No space left on device" in r.stderr or "write failed" in r.stderr, r.stderr
    assert r.stderr.startswith("taco: ")


@pytest.mark.parametrize("member", ["DATA/s1", "COLLECTION.json", "METADATA/level0.parquet"])
def test_validate_refuses_links_out_of_a_folder(tmp_path, taco_cli, member):
    """A FOLDER whose file is a symbolic link to a copy outside the dataset: every reader
    refuses to follow it, so validate must not call it valid (unfixed: "valid")."""
    out = tmp_path / "ds"
    taco_cpp.create(Taco(Tortilla([Sample("s%d" % i, data=b"abc") for i in range(3)]), COLLECTION), out)
    outside = tmp_path / "outside"
    outside.write_bytes((out / member).read_bytes())
    (out / member).unlink()
    (out / member).symlink_to(outside)
    r = taco_cli("validate", out)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "outside-link" in r.stdout and "outside the dataset directory" in r.stdout, r.stdout
    if member != "DATA/s1":  # readers refuse metadata reached through such a link (unfixed: read it)
        r = taco_cli("info", out)
        assert r.returncode == 2 and "refused" in r.stderr and "symbolic link" in r.stderr, r.stderr
    # a link that stays inside the dataset is fine
    (out / member).unlink()
    (out / member).symlink_to(out / "METADATA" / ".." / "inside")
    (out / "inside").write_bytes(outside.read_bytes())
    assert "outside-link" not in taco_cli("validate", out).stdout


# ---- A SIGTERMed Python writer leaves no temporary output (issue 29 item 9) -----------------

def test_sigterm_during_a_python_write_leaves_no_temporary(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    block = b"\x5a" * (4 << 20)
    for i in range(48):  # 192 MiB: a write that lasts long enough to be interrupted
        (src / f"s{i:03d}.bin").write_bytes(block)
    out = tmp_path / "out" / "big.tacozip"
    code = textwrap.dedent(f"""
        import taco_cpp
        taco = taco_cpp.from_directory({str(src)!r}, {COLLECTION!r})
        taco_cpp.create(taco, {str(out)!r})
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    temporaries = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.parent.exists():
            temporaries = [p for p in out.parent.iterdir() if p.name.startswith(".big.tacozip.tmp-")]
            if temporaries and temporaries[0].stat().st_size > (8 << 20):
                break
        time.sleep(0.01)
    assert proc.poll() is None and temporaries, "the write ended before it could be interrupted"
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGTERM, proc.stderr.read().decode()
    assert not out.exists()
    left = list(out.parent.iterdir()) if out.parent.exists() else []
    assert left == [], left
