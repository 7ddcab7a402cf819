"""The Python, PyTorch and Dask examples of README.md and docs/*.md, run as written (issue 24
item 5). A fenced ```python block preceded by a line ``<!-- example: NAME ... -->`` is one
example; this test extracts them by that marker, so docs and test cannot drift. The only
change made to an example's text is where its absolute paths point (/tmp/demo, /shared,
/data, https://data.example.org): into this test's temporary directory (or the nginx serving
it), prepared with what the example expects there; examples with relative paths run with a
prepared temporary directory as the working directory. Names an example leaves to the reader
(tile_names, collection) are given as globals. Every ```python block of those pages must be
an example (test_every_python_block_of_the_docs_is_an_example).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import COLLECTION, write_tif

REPO = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!-- example: ([\w-]+)[^>]*-->\s*\n```python\n(.*?)\n```", re.S)
DOCS = ["README.md", "docs/python.md", "docs/training.md"]


def examples() -> dict[str, str]:
    found = {}
    for doc in DOCS:
        for name, code in MARKER.findall((REPO / doc).read_text()):
            assert name not in found, f"example {name} twice"
            found[name] = code
    return found


def test_the_docs_have_the_examples_this_test_runs():
    assert set(examples()) == {"readme-python", "python-walk", "python-writing", "python-tacotoolbox",
                               "training-dataset", "training-loop", "training-ddp", "training-dask"}


def test_every_python_block_of_the_docs_is_an_example():
    for doc in DOCS:
        text = (REPO / doc).read_text()
        assert len(MARKER.findall(text)) == text.count("```python\n"), f"{doc}: a ```python block without a marker"


def _run(code: str, paths: dict[str, Path | str], globals_: dict) -> dict:
    for prefix, target in paths.items():
        assert prefix in code, f"the example no longer uses {prefix}"
        code = code.replace(prefix, str(target))
    globals_.setdefault("__name__", "__doc_example__")
    exec(compile(code, "<doc example>", "exec"), globals_)
    return globals_


def _cli() -> str:
    import taco_cpp

    env = os.environ.get("TACO_CLI")
    return env or str(Path(taco_cpp.__file__).parent.parent.parent / "taco")  # <build>/python/taco_cpp


def test_readme_python(tmp_path):
    demo = tmp_path / "demo"
    subprocess.run([_cli(), "demo", demo], check=True, capture_output=True)
    g = _run(examples()["readme-python"], {"/tmp/demo": demo}, {})
    assert g["pixels"].ndim == 3 and len(g["train"]) == len(g["view"]) > 0
    assert g["train"][0]["before.tif"].shape[0] == g["pixels"].shape[0]


def test_training_dask(tmp_path):
    shared = tmp_path / "shared"
    rng = np.random.default_rng(3)
    names = [f"{region}_{i}" for region in ("alps", "andes") for i in range(3)]
    for k, name in enumerate(names):
        (shared / "tiles" / name).mkdir(parents=True)
        write_tif(shared / "tiles" / name / "image.tif", rng.integers(0, 900, (3, 16, 16), dtype=np.uint16), k, 40)
        write_tif(shared / "tiles" / name / "mask.tif", rng.integers(0, 2, (1, 16, 16), dtype=np.uint8), k, 40)
    g = _run(examples()["training-dask"], {"/shared": shared}, {"tile_names": names, "collection": COLLECTION})
    assert len(g["ds"]) == len(names)
    assert len(g["means"]) == 3 and all(m.shape == (3,) for m in g["means"])


def test_python_walk(tmp_path):
    demo = tmp_path / "demo"
    subprocess.run([_cli(), "demo", demo], check=True, capture_output=True)
    g = _run(examples()["python-walk"], {"/tmp/demo": demo}, {})
    assert len(g["view"]) > 0 and g["img"].ndim == 3 and g["blob"][:2] in (b"II", b"MM")
    assert g["df"]["split"].eq("train").all()
    import taco_cpp

    assert len(taco_cpp.load(demo / "subset.tacozip")) == len(g["view"])


def test_python_writing(tmp_path, monkeypatch):
    import json

    rng = np.random.default_rng(5)
    for k, name in enumerate(["tile_0", "tile_1"]):
        (tmp_path / "tiles" / name).mkdir(parents=True)
        write_tif(tmp_path / "tiles" / name / "image.tif", rng.integers(0, 900, (3, 16, 16), dtype=np.uint16), k, 40)
        write_tif(tmp_path / "tiles" / name / "mask.tif", rng.integers(0, 2, (1, 16, 16), dtype=np.uint8), k, 40)
    (tmp_path / "collection.json").write_text(json.dumps(COLLECTION))
    (tmp_path / "meta.csv").write_text("path,date\ntile_0,2023-01-05\ntile_1,2023-02-07\n")
    monkeypatch.chdir(tmp_path)
    g = _run(examples()["python-writing"], {}, {})
    import taco_cpp

    assert taco_cpp.load(tmp_path / "demo.tacozip").data.column("id").to_pylist() == ["tile_0", "tile_1"]
    assert g["taco"] is not None


def test_python_tacotoolbox(tmp_path):
    import sys

    import taco_cpp

    taco_cpp.demo_tree(tmp_path / "tiles", tiles=3, size=16)
    code = examples()["python-tacotoolbox"]
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(taco_cpp.__file__)))  # the build's, unresolved
    env = {**os.environ, "PYTHONPATH": package_root}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True, timeout=120)
    out = taco_cpp.load(tmp_path / "demo.tacozip")
    assert out.data.column("id").to_pylist() == ["tile_00", "tile_01", "tile_02"]
    assert out.read(0).data.column("id").to_pylist() == ["before.tif", "after.tif"]


@pytest.fixture(scope="module")
def s2(data):
    """/data/s2.tacozip of the training examples: 8 tiles of image.tif (4 bands uint16,
    128x128) and mask.tif (classes 0-3), 6 in split 'train'; below the nginx root."""
    import taco_cpp

    root = data.root / "s2"
    rng = np.random.default_rng(11)
    samples = []
    for i in range(8):
        folder = root / "tiles" / f"t{i}"
        folder.mkdir(parents=True)
        write_tif(folder / "image.tif", rng.integers(0, 3000, (4, 128, 128), dtype=np.uint16), i, 40)
        write_tif(folder / "mask.tif", rng.integers(0, 4, (1, 128, 128), dtype=np.uint8), i, 40)
        samples.append(taco_cpp.Sample(f"t{i}", taco_cpp.Tortilla([taco_cpp.Sample("image.tif", folder / "image.tif"),
                                                                  taco_cpp.Sample("mask.tif", folder / "mask.tif")]),
                                       split="train" if i < 6 else "validation"))
    taco_cpp.create(taco_cpp.Taco(taco_cpp.Tortilla(samples), COLLECTION), root / "s2.tacozip")
    return root / "s2.tacozip"


def test_training_dataset_and_loop(s2, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    g = _run(examples()["training-dataset"], {"/data/s2.tacozip": s2}, {})
    assert tuple(g["ds"][0]["image.tif"].shape) == (3, 128, 128) and len(g["ds"]) == 6
    g = _run(examples()["training-loop"], {}, g)
    assert g["step"] == 100  # 6 samples: one batch per epoch
    assert g["start_epoch"] == 0 and g["ckpt"]["data"]["samples_seen"] == 6
    assert (tmp_path / "ckpt.pt").exists()


def test_training_ddp(data, s2, nginx, monkeypatch):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    for key, value in {"RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)}.items():
        monkeypatch.setenv(key, value)
    url = nginx.url + "/" + s2.parent.relative_to(data.root).as_posix()  # nginx serves data.root
    before = len(nginx.settled_lines())
    g = _run(examples()["training-ddp"], {"https://data.example.org": url}, {})
    assert len(g["ds"]) == 8 and g["epoch"] == 99
    assert len(nginx.settled_lines()) > before  # read over HTTP
