"""A typed notebook session with taco_cpp, checked by mypy against the package's annotations and
python/taco_cpp/_native.pyi (ctest python_typing; never run). Every line must type-check."""

from __future__ import annotations

import logging

import taco_cpp
from taco_cpp import _native


def walk(path: str, out: str) -> list[str]:
    tiles: list[dict] = taco_cpp.demo_tree("/tmp/tiles", tiles=4, size=16)
    samples = [taco_cpp.Sample(t["id"], f"/tmp/tiles/{t['id']}/label.tif") for t in tiles]
    taco = taco_cpp.Taco(taco_cpp.Tortilla(samples), id="typed", dataset_version="1",
                         description="typed", licenses=["CC0-1.0"], providers=[{"name": "me"}], tasks=["other"])
    written: list[str] = taco_cpp.create(taco, path, progress=lambda done, total: None)
    ds: taco_cpp.TacoDataset = taco_cpp.load(path)
    view: taco_cpp.TacoDataset = ds.sql("SELECT * FROM data").filter_bbox(-5, 35, 5, 45).filter_datetime("2023")
    origin, steps = view.view_steps()
    rows: int = len(view)
    name: str = ds.id + origin + "".join(steps) + str(rows)
    levels: int = ds.num_levels + ds.pit_schema.max_depth()
    frame = ds.read(0)
    taco_cpp.set_log_level(logging.INFO)
    level: str = taco_cpp.get_log_level()
    taco_cpp.flush_log()
    pages: list[str] = taco_cpp.publish(path, out, only=["stac"], publication={"doi": "10.1/x"})
    exported: list[str] = view.export(out + "/subset.tacozip", progress=False)
    count: int = _native.get_log_level()
    version: str = _native.__version__ + name + level
    return written + pages + exported + [str(levels), str(frame), str(count), version]
