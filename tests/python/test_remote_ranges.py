"""The byte ranges of a remote dataset's level views are the members' (FORMAT §1.5 step 5).

tacotoolbox attaches the level-1 ranges of a ZIP by position, so that in the upstream nested
fixture (level-0 FOLDERs europe, americas, asia) every level-1 row stores another region's
range; a TACOCAT of tacotoolbox parts copies them (shifted/cat: its first part lists FOLDERs
b, a). Loaded by URL, ``query()`` over ``level1`` and the ``internal:gdal_vsi`` the views hand
to GDAL must be the local answers, and the bytes at those ranges the sample's own.
"""

import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import taco_cpp
from conftest import FIXTURES, REPO

QUERY = ('SELECT "internal:relative_path" AS p, "internal:offset" AS o, "internal:size" AS s, '
         '"internal:gdal_vsi" AS v FROM level1 ORDER BY 1')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """tests/remote/fault_server.py over a copy of the upstream fixtures (mode ok: Range)."""
    if not (FIXTURES / "shifted" / "cat" / ".tacocat").is_dir():
        pytest.skip(f"the upstream fixtures (shifted/) are not in {FIXTURES}")
    root = tmp_path_factory.mktemp("www")
    shutil.copytree(FIXTURES, root / "bucket")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen([sys.executable, str(REPO / "tests" / "remote" / "fault_server.py"), str(port),
                             str(root), str(root / "requests.log")])
    base = f"http://127.0.0.1:{port}/ok/bucket"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/zip/flat/flat.tacozip", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield root, base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _rows(ds):
    return ds.query(QUERY).to_pylist()


def _bytes(url, offset, size):
    request = urllib.request.Request(url, headers={"Range": f"bytes={offset}-{offset + size - 1}"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.read()


@pytest.mark.parametrize("rel", ["zip/nested/nested.tacozip", "shifted/cat/.tacocat"])
def test_remote_level_ranges_are_the_members(server, rel):
    root, base = server
    local = _rows(taco_cpp.load(root / "bucket" / rel))
    remote = _rows(taco_cpp.load(f"{base}/{rel}", cache=False))
    assert [(r["p"], r["o"], r["s"]) for r in remote] == [(r["p"], r["o"], r["s"]) for r in local]
    for r in remote:
        assert r["v"].startswith(f"/vsisubfile/{r['o']}_{r['s']},/vsicurl/{base}/")
        part = r["v"].split(",", 1)[1][len("/vsicurl/"):]
        data = _bytes(part, r["o"], r["s"])
        if rel.startswith("zip/"):  # "data_<region>_<j>"
            region, item = r["p"].split("/")
            assert data == f"data_{region}_{item[-1]}".encode(), r
        else:  # the archive path repeated (scripts/upstream_fixtures.py payload())
            assert data.startswith(f"DATA/{r['p']}".encode()), r


def test_remote_concat_ranges_are_the_members(server):
    """load([url1, url2]): each ZIP source's level-1 ranges are its members' (cat_part0001 is
    shifted, cat_part0002 right), as each ZIP loaded alone locally gives them."""
    root, base = server
    rels = ["shifted/cat/cat_part0001.tacozip", "shifted/cat/cat_part0002.tacozip"]
    want = [(r["p"], r["o"], r["s"]) for rel in rels for r in _rows(taco_cpp.load(root / "bucket" / rel))]
    remote = _rows(taco_cpp.load([f"{base}/{rel}" for rel in rels], cache=False))
    assert [(r["p"], r["o"], r["s"]) for r in remote] == want
    for r in remote:
        part = r["v"].split(",", 1)[1][len("/vsicurl/"):]
        assert _bytes(part, r["o"], r["s"]).startswith(f"DATA/{r['p']}".encode()), r
