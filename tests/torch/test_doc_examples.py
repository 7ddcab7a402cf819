"""The Python, PyTorch and Dask examples of README.md and docs/*.md, run as written (issue 24
item 5). A fenced ```python block preceded by a line ``<!-- example: NAME ... -->`` is one
example; this test extracts them by that marker, so docs and test cannot drift. The only
change made to an example's text is where its absolute paths point (/tmp/demo, /shared):
into this test's temporary directory, prepared with what the example expects there.
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
    assert {"readme-python", "training-dask"} <= set(examples())


def _run(code: str, paths: dict[str, Path], globals_: dict) -> dict:
    for prefix, target in paths.items():
        assert prefix in code, f"the example no longer uses {prefix}"
        code = code.replace(prefix, str(target))
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
