"""taco_cpp.torch across a world of 2 ranks: two processes with the gloo backend."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from conftest import N_TILES


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_two_gloo_ranks_see_every_sample_once_per_epoch(data, tmp_path):
    out = tmp_path / "ranks.json"
    script = Path(__file__).with_name("ddp_rank.py")
    port = free_port()
    procs = [subprocess.Popen([sys.executable, str(script), str(r), "2", str(port), str(data.nested_zip), str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ))
             for r in range(2)]
    logs = []
    for p in procs:
        try:
            logs.append(p.communicate(timeout=180)[0].decode(errors="replace"))
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise
    assert [p.returncode for p in procs] == [0, 0], "\n".join(logs)
    r = json.loads(out.read_text())
    ids = [f"tile_{i:02d}" for i in range(N_TILES)]

    for epoch in ("0", "1"):
        a, b = r[f"even/{epoch}"]
        assert len(a) == len(b) == 12 and not set(a) & set(b) and sorted(a + b) == ids
        a, b = r[f"odd/{epoch}"]  # exactly once: 12 + 11
        assert sorted((len(a), len(b))) == [11, 12] and not set(a) & set(b) and sorted(a + b) == ids[:23]
        a, b = r[f"odd_pad/{epoch}"]  # even by repeating one sample (2 workers per rank)
        assert len(a) == len(b) == 12 and set(a + b) == set(ids[:23])
        a, b = r[f"odd_drop/{epoch}"]  # even by dropping one
        assert len(a) == len(b) == 11 and not set(a) & set(b) and len(set(a + b)) == 22
    assert r["even/0"] != r["even/1"]  # another epoch, another order
