"""`taco serve` over HTTP (ctest cli_serve): a server started with --port 0 on datasets made
here (a ZIP from `taco demo`, a FOLDER and a split ZIP with its .tacocat from `taco create`),
asked with raw HTTP/1.1 requests: ranges byte-equal to the files, 416, HEAD, ETag/304,
If-Range, CORS headers and preflight, '..' and symlink escapes refused, no listing,
keep-alive, parallel clients, the access log (one line per request), the refusal of a
non-loopback --host and a clean stop on SIGTERM.

Environment: TACO_BIN, the taco executable.
"""

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

TACO = os.environ.get("TACO_BIN", "taco")


def run(*args):
    return subprocess.run([TACO, *args], check=True, capture_output=True)


class Server:
    """`taco serve PATHS ARGS --port 0`: the port from its first stdout line, then one URL line
    per dataset; stderr collected."""

    def __init__(self, paths, *args):
        self.proc = subprocess.Popen(
            [TACO, "serve", *paths, *args, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        first = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert m, f"no URL in {first!r}; stderr: {self.proc.stderr.read() if self.proc.poll() is not None else ''}"
        self.port = int(m.group(1))
        self.urls = []
        for _ in paths:
            self.urls.append(self.proc.stdout.readline().strip())
        self.log = []
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()

    def _read_log(self):
        for line in self.proc.stderr:
            self.log.append(line.rstrip("\n"))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=10)
        self._reader.join(timeout=5)
        return code


def request(port, method, path, headers=None, conn=None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    resp = conn.getresponse()
    body = resp.read()
    if own:
        conn.close()
    return resp, body


def raw(port, target):
    """One request with the target exactly as written (http.client would not normalise it either,
    but this also allows bytes it would refuse); returns (status, whole answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1]), data


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    run("demo", str(tmp / "demo_out"))
    zip_path = tmp / "demo_out" / "demo.tacozip"
    src = tmp / "src"
    for s in ("a", "b", "c"):
        (src / s).mkdir(parents=True)
        (src / s / "x.bin").write_bytes(bytes(range(256)) * (3 + ord(s)))
    collection = tmp / "collection.json"
    collection.write_text(
        '{"id": "served", "dataset_version": "1.0.0", "description": "served by the test", "licenses": ["CC0-1.0"],'
        ' "providers": [{"name": "t", "roles": ["producer"]}], "tasks": ["classification"]}'
    )
    folder = tmp / "folder_ds"
    run("create", str(src), str(folder), "--collection", str(collection))
    parts = tmp / "parts"
    parts.mkdir()
    run("create", str(src), str(parts / "split.tacozip"), "--collection", str(collection), "--split-size", "40KB")
    secret = tmp / "secret.txt"
    secret.write_bytes(b"SECRET-OUTSIDE-THE-ROOTS")
    # A symlink in the FOLDER dataset that leaves it, one that stays inside, and a file beside
    # the TACOCAT's ZIPs that is none of the dataset's.
    (folder / "DATA" / "escape.bin").symlink_to(secret)
    (folder / "DATA" / "inside.bin").symlink_to(folder / "COLLECTION.json")
    (parts / "notes.txt").write_text("not a dataset file")
    run("tacocat", *sorted(str(p) for p in parts.glob("*.tacozip")), "-o", str(parts), "--single-file")
    server = Server([str(zip_path), str(folder), str(parts / ".tacocat"), str(parts / "__TACOCAT__")])
    yield {"tmp": tmp, "zip": zip_path, "folder": folder, "parts": parts, "secret": secret, "server": server}
    if server.proc.poll() is None:
        server.stop()
    shutil.rmtree(tmp, ignore_errors=True)


def test_prints_the_explorer_url_of_each_dataset(world):
    port = world["server"].port
    assert world["server"].urls[0].endswith(f"http://127.0.0.1:{port}/?url=/data/demo.tacozip")
    assert world["server"].urls[1].endswith(f"http://127.0.0.1:{port}/?url=/data/folder_ds/")
    assert world["server"].urls[2].endswith(f"http://127.0.0.1:{port}/?url=/data/parts/.tacocat")
    # The second dataset named "parts" gets another name.
    assert world["server"].urls[3].endswith(f"http://127.0.0.1:{port}/?url=/data/parts-2/__TACOCAT__")


def test_ranges_are_the_file_bytes(world):
    port, data = world["server"].port, world["zip"].read_bytes()
    size = len(data)
    cases = {
        "bytes=0-65535": (0, 65535),
        "bytes=100-199": (100, 199),
        f"bytes={size - 10}-": (size - 10, size - 1),
        "bytes=-300": (size - 300, size - 1),
        f"bytes=1000-{size + 5000}": (1000, size - 1),  # the end clamped to the object
        f"bytes=-{size + 10}": (0, size - 1),
    }
    for spec, (first, last) in cases.items():
        resp, body = request(port, "GET", "/data/demo.tacozip", {"Range": spec})
        assert resp.status == 206, spec
        assert resp.getheader("Content-Range") == f"bytes {first}-{last}/{size}", spec
        assert int(resp.getheader("Content-Length")) == last - first + 1, spec
        assert body == data[first : last + 1], spec
        assert resp.getheader("Accept-Ranges") == "bytes"
    resp, body = request(port, "GET", "/data/demo.tacozip")
    assert resp.status == 200 and body == data
    # Several ranges, or a range that is not one: the whole object (RFC 9110 lets a server ignore them).
    for spec in ("bytes=0-1,5-6", "bytes=9-3", "items=0-4"):
        resp, body = request(port, "GET", "/data/demo.tacozip", {"Range": spec})
        assert resp.status == 200 and body == data, spec


def test_unsatisfiable_range_is_416(world):
    port, size = world["server"].port, world["zip"].stat().st_size
    for spec in (f"bytes={size}-", f"bytes={size + 7}-{size + 9}", "bytes=-0"):
        resp, _ = request(port, "GET", "/data/demo.tacozip", {"Range": spec})
        assert resp.status == 416, spec
        assert resp.getheader("Content-Range") == f"bytes */{size}", spec


def test_head(world):
    port, size = world["server"].port, world["zip"].stat().st_size
    resp, body = request(port, "HEAD", "/data/demo.tacozip")
    assert resp.status == 200 and body == b""
    assert int(resp.getheader("Content-Length")) == size
    assert resp.getheader("ETag") and resp.getheader("Accept-Ranges") == "bytes"
    resp, body = request(port, "HEAD", "/data/demo.tacozip", {"Range": "bytes=10-19"})
    assert resp.status == 206 and body == b"" and resp.getheader("Content-Range") == f"bytes 10-19/{size}"


def test_etag_304_and_if_range(world):
    port = world["server"].port
    path = world["folder"] / "COLLECTION.json"
    resp, body = request(port, "GET", "/data/folder_ds/COLLECTION.json")
    etag = resp.getheader("ETag")
    assert resp.status == 200 and re.fullmatch(r'"[0-9a-f]+-[0-9a-f]+"', etag)
    resp, body = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"If-None-Match": etag})
    assert resp.status == 304 and body == b"" and resp.getheader("ETag") == etag
    resp, _ = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"If-None-Match": f'"x", W/{etag}'})
    assert resp.status == 304
    resp, body = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"If-None-Match": '"other"'})
    assert resp.status == 200 and body == path.read_bytes()
    # If-Range: the range only while the ETag still holds.
    resp, body = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"Range": "bytes=0-9", "If-Range": etag})
    assert resp.status == 206 and body == path.read_bytes()[:10]
    resp, body = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"Range": "bytes=0-9", "If-Range": '"old"'})
    assert resp.status == 200 and body == path.read_bytes()
    # A changed file has another ETag.
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    resp, _ = request(port, "GET", "/data/folder_ds/COLLECTION.json", {"If-None-Match": etag})
    assert resp.status == 200 and resp.getheader("ETag") != etag


def test_cors_headers_and_preflight(world):
    port = world["server"].port
    resp, _ = request(port, "GET", "/data/demo.tacozip", {"Range": "bytes=0-3", "Origin": "http://elsewhere.test"})
    assert resp.getheader("Access-Control-Allow-Origin") == "*"
    exposed = {h.strip().lower() for h in resp.getheader("Access-Control-Expose-Headers", "").split(",")}
    assert {"content-range", "content-length", "etag", "accept-ranges"} <= exposed
    resp, body = request(
        port,
        "OPTIONS",
        "/data/demo.tacozip",
        {
            "Origin": "http://elsewhere.test",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "range,if-none-match",
        },
    )
    assert resp.status == 204 and body == b""
    assert resp.getheader("Access-Control-Allow-Origin") == "*"
    methods = {m.strip() for m in resp.getheader("Access-Control-Allow-Methods", "").split(",")}
    assert {"GET", "HEAD"} <= methods
    allowed = {h.strip().lower() for h in resp.getheader("Access-Control-Allow-Headers", "").split(",")}
    assert {"range", "if-none-match", "if-range"} <= allowed
    resp, _ = request(port, "POST", "/data/demo.tacozip")
    assert resp.status == 405 and "GET" in resp.getheader("Allow")


def test_escapes_and_listings_are_refused(world):
    port = world["server"].port
    secret = world["secret"].read_bytes()
    refused = [
        "/data/folder_ds/../../secret.txt",
        "/data/folder_ds/%2e%2e/%2E%2E/secret.txt",
        "/data/folder_ds/..%2f..%2fsecret.txt",
        "/data/demo.tacozip/../../secret.txt",
        "/../secret.txt",
        "/data/../secret.txt",
        "/data/folder_ds/DATA/escape.bin",  # a symlink out of the dataset
        "/data/folder_ds/",  # directories are never listed
        "/data/folder_ds/DATA",
        "/data/",
        "/data/parts/notes.txt",  # beside a TACOCAT but none of its files
        "/data/demo.tacozip/x",
        "/secret.txt",
        "/data/nothing",
        "relative",
    ]
    for target in refused:
        status, answer = raw(port, target)
        assert status in (400, 404), target
        assert secret not in answer, target
    # A symlink that stays inside the dataset is followed.
    resp, body = request(port, "GET", "/data/folder_ds/DATA/inside.bin")
    assert resp.status == 200 and body == (world["folder"] / "COLLECTION.json").read_bytes()


def test_folder_dataset(world):
    port, folder = world["server"].port, world["folder"]
    level0 = (folder / "METADATA" / "level0.parquet").read_bytes()
    resp, body = request(port, "GET", "/data/folder_ds/METADATA/level0.parquet", {"Range": "bytes=-8"})
    assert resp.status == 206 and body == level0[-8:] and body.endswith(b"PAR1")
    member = next((folder / "DATA").glob("*/x.bin"))
    rel = member.relative_to(folder).as_posix()
    resp, body = request(port, "GET", f"/data/folder_ds/{rel}")
    assert resp.status == 200 and body == member.read_bytes()


def test_tacocat_dataset(world):
    port, parts = world["server"].port, world["parts"]
    zips = sorted(p.name for p in parts.glob("*.tacozip"))
    assert len(zips) >= 2, zips
    for name in zips:
        resp, body = request(port, "GET", f"/data/parts/{name}", {"Range": "bytes=0-99"})
        assert resp.status == 206 and body == (parts / name).read_bytes()[:100]
    resp, body = request(port, "GET", "/data/parts/.tacocat/COLLECTION.json")
    assert resp.status == 200 and body == (parts / ".tacocat" / "COLLECTION.json").read_bytes()
    resp, body = request(port, "GET", "/data/parts-2/__TACOCAT__", {"Range": "bytes=0-7"})
    assert resp.status == 206 and body == b"TACOCAT\0"
    resp, body = request(port, "GET", f"/data/parts-2/{zips[0]}", {"Range": "bytes=0-99"})
    assert resp.status == 206 and body == (parts / zips[0]).read_bytes()[:100]
    # The single-file mount does not serve the folder form's files, nor anything else beside it.
    for target in ("/data/parts-2/.tacocat/COLLECTION.json", "/data/parts-2/notes.txt"):
        assert raw(port, target)[0] == 404, target


def test_keep_alive_and_parallel_clients(world):
    server = world["server"]
    data = world["zip"].read_bytes()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for i in range(5):
        resp, body = request(server.port, "GET", "/data/demo.tacozip", {"Range": f"bytes={i * 1000}-{i * 1000 + 99}"}, conn)
        assert resp.status == 206 and body == data[i * 1000 : i * 1000 + 100]
    local_port = conn.sock.getsockname()[1]
    conn.close()
    mine = [line for line in list(server.log) if line.startswith(f"127.0.0.1:{local_port} ")]
    assert len(mine) == 5, mine  # the five requests on one connection

    def fetch(i):
        first = (i * 37_000) % (len(data) - 5000)
        resp, body = request(server.port, "GET", "/data/demo.tacozip", {"Range": f"bytes={first}-{first + 4999}"})
        return resp.status == 206 and body == data[first : first + 5000]

    with ThreadPoolExecutor(16) as pool:
        assert all(pool.map(fetch, range(64)))


def test_access_log_has_one_line_per_request(world):
    server = world["server"]
    before = len(server.log)
    for i in range(3):
        request(server.port, "GET", "/data/demo.tacozip", {"Range": f"bytes={i}-{i}", "X-Probe": "1"})
    request(server.port, "GET", "/data/folder_ds/nothing-here")
    raw(server.port, '/x\x1b[2J"\rfake')  # no terminal escape, quote or line break reaches the log
    deadline = 50
    while len(server.log) < before + 5 and deadline:
        threading.Event().wait(0.05)
        deadline -= 1
    new = server.log[before:]
    assert len(new) == 5, new
    # A line is written after its response is sent, by the thread that served it: the client
    # may send its next request before, so lines of consecutive requests can come in either
    # order. Each request must have exactly its one line.
    demo = [x for x in new if re.match(r'127\.0\.0\.1:\d+ "GET /data/demo\.tacozip HTTP/1\.1" 206 1 \d+\.\dms$', x)]
    missing = [x for x in new if re.match(r'127\.0\.0\.1:\d+ "GET /data/folder_ds/nothing-here HTTP/1\.1" 404 ', x)]
    escaped = [x for x in new if x.split(" ", 1)[1].startswith('"GET /x?[2J??fake HTTP/1.1" 404 ')]
    assert (len(demo), len(missing), len(escaped)) == (3, 1, 1), new


def test_builtin_index_lists_the_datasets(world):
    parts = world["parts"]
    paths = [str(world["zip"]), str(world["folder"]), str(parts / ".tacocat"), str(parts / "__TACOCAT__")]
    server = Server(paths, "--no-explorer", "--no-log")  # the explorer may be built beside taco
    try:
        resp, body = request(server.port, "GET", "/")
    finally:
        server.stop()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/html")
    for url in ("/data/demo.tacozip", "/data/folder_ds/", "/data/parts/.tacocat", "/data/parts-2/__TACOCAT__"):
        assert f'href="{url}"'.encode() in body


def test_explorer_directory_is_served(world, tmp_path):
    explorer = tmp_path / "explorer"
    explorer.mkdir()
    (explorer / "index.html").write_text("<p>explorer</p>")
    (explorer / "app.js").write_text("export const x = 1;")
    # A link the explorer's build made (followed, with what is below it) ...
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mod.js").write_text("export const y = 2;")
    (explorer / "lib").symlink_to(lib)
    server = Server([str(world["zip"])], "--explorer", str(explorer), "--no-log")
    # ... and one made after the start, leaving the tree: not followed.
    (explorer / "leak.txt").symlink_to(world["secret"])
    try:
        resp, body = request(server.port, "GET", "/?url=/data/demo.tacozip")
        assert resp.status == 200 and body == b"<p>explorer</p>"
        resp, body = request(server.port, "GET", "/app.js")
        assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/javascript")
        resp, body = request(server.port, "GET", "/lib/mod.js")
        assert resp.status == 200 and body == b"export const y = 2;"
        assert raw(server.port, "/leak.txt")[0] == 404
        assert raw(server.port, "/../secret.txt")[0] == 404
        # The build's JavaScript package at /taco/ (when this build has one), its npm links followed.
        package = Path(TACO).resolve().parent / "js" / "taco"
        if (package / "taco.browser.js").exists():
            resp, body = request(server.port, "GET", "/taco/taco.browser.js")
            assert resp.status == 200 and body == (package / "taco.browser.js").read_bytes()
            resp, body = request(server.port, "HEAD", "/taco/duckdb/duckdb-eh.wasm")
            assert resp.status == 200 and resp.getheader("Content-Type") == "application/wasm"
            assert raw(server.port, "/taco/")[0] == 404
    finally:
        assert server.stop() == 0
    assert server.log == []  # --no-log


def test_refusals_at_start(world, tmp_path):
    r = subprocess.run([TACO, "serve", str(world["zip"]), "--host", "0.0.0.0"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "--allow-remote-clients" in r.stderr
    r = subprocess.run([TACO, "serve", str(tmp_path / "missing.tacozip")], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "missing.tacozip" in r.stderr
    r = subprocess.run([TACO, "serve", "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "--port" in r.stdout and "--allow-remote-clients" in r.stdout


def test_connections_beyond_the_cap_get_503(world):
    server = Server([str(world["zip"])], "--max-connections", "1")
    try:
        held = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        resp, _ = request(server.port, "GET", "/data/demo.tacozip", {"Range": "bytes=0-0"}, held)
        assert resp.status == 206
        resp, _ = request(server.port, "GET", "/data/demo.tacozip", {"Range": "bytes=0-0"})
        assert resp.status == 503 and resp.getheader("Retry-After") == "1"
        held.close()
        for _ in range(100):  # the held connection's thread ends when it sees the close
            resp, _ = request(server.port, "GET", "/data/demo.tacozip", {"Range": "bytes=0-0"})
            if resp.status == 206:
                break
            threading.Event().wait(0.02)
        assert resp.status == 206
    finally:
        assert server.stop() == 0


def test_stops_cleanly_on_sigterm_and_sigint(world):
    for sig in (signal.SIGTERM, signal.SIGINT):
        server = Server([str(world["zip"])])
        # A kept-alive connection open at the time of the signal does not hold the stop back.
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        request(server.port, "GET", "/data/demo.tacozip", {"Range": "bytes=0-0"}, conn)
        server.proc.send_signal(sig)
        assert server.proc.wait(timeout=10) == 0
        server._reader.join(timeout=5)
        assert server.log[-1] == "taco serve: stopped after 1 requests", server.log
        conn.close()
