"""Fault-injecting HTTP server for tests/remote (run with /usr/bin/python3).

usage: fault_server.py PORT ROOT LOG
URL /<mode>/<file under ROOT>. One line per request is appended to LOG.
modes: ok (honours Range), 404, 403, 503 (always), flaky (503 on the first request for a
path, then ok), slow (sleeps 5 s, then ok), truncated (announces the full range, sends
half and closes), short (206 with a shorter Content-Range than asked), norange (200 with
the whole body, Range ignored), delay (sleeps 0.3 s, then ok; appends to LOG.inflight one
line per delay request: how many delay requests were in flight when it started, itself
included, so that a client's parallelism shows without timing anything), auth (403 unless
the request has the header "X-Taco-Token: secret", then ok).
"""
import http.server
import os
import sys
import threading
import time

PORT, ROOT, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3]
seen = set()
lock = threading.Lock()
in_flight = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, code, body, extra=None, length=None):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.send_header("ETag", '"fixed-etag"')
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_GET(self):
        global in_flight
        with lock:
            with open(LOG, "a") as f:
                f.write(self.command + " " + self.path + " " + str(self.headers.get("Range")) + "\n")
        parts = self.path.lstrip("/").split("/", 1)
        mode, rel = parts[0], (parts[1] if len(parts) > 1 else "")
        if mode == "auth" and self.headers.get("X-Taco-Token") != "secret":
            self.send_body(403, b"no token\n")
            return
        if mode in ("404", "403", "503"):
            self.send_body(int(mode), b"fault\n")
            return
        if mode == "flaky":
            with lock:
                first = self.path not in seen
                seen.add(self.path)
            if first:
                self.send_body(503, b"try again\n")
                return
        if mode == "slow":
            time.sleep(5)
        if mode == "delay":
            with lock:
                in_flight += 1
                with open(LOG + ".inflight", "a") as f:
                    f.write("%d\n" % in_flight)
            try:
                time.sleep(0.3)
                self.serve_file(mode, rel)
            finally:
                with lock:
                    in_flight -= 1
            return
        self.serve_file(mode, rel)

    def serve_file(self, mode, rel):
        path = os.path.join(ROOT, rel)
        if not os.path.isfile(path):
            self.send_body(404, b"no such file\n")
            return
        data = open(path, "rb").read()
        rng = self.headers.get("Range")
        if rng is None or mode == "norange":
            self.send_body(200, data)
            return
        first, last = rng.split("=", 1)[1].split("-")
        first = int(first)
        last = min(int(last), len(data) - 1) if last else len(data) - 1
        chunk = data[first:last + 1]
        if mode == "short":
            chunk = chunk[: max(1, len(chunk) // 2)]
            last = first + len(chunk) - 1
        cr = {"Content-Range": "bytes %d-%d/%d" % (first, last, len(data))}
        if mode == "truncated":
            self.send_body(206, chunk[: len(chunk) // 2], cr, length=len(chunk))
            self.close_connection = True
            return
        self.send_body(206, chunk, cr)


http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
