"""finalize(plan): complete the output of a plan. The taco-cpp core writes the whole
dataset (data, level tables, __meta__, COLLECTION.json) under a temporary name; files the
executed tasks already put in place are kept, the rest moved in, then the temporary tree is
removed. Returns the output path."""

from __future__ import annotations

import os
import pathlib
import shutil

from taco_cpp.errors import TacoError

from ._exceptions import TacoFinalizeError


def finalize(plan) -> pathlib.Path:
    out = pathlib.Path(plan.output)
    if plan._make is None:
        raise TacoFinalizeError("this plan was not made by plan_export/plan_zip2folder/plan_folder2zip")
    tmp = out.parent / f".{out.name}.tacobridge-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp) if tmp.is_dir() else tmp.unlink()
    try:
        plan._make(tmp)
    except TacoError as e:
        raise TacoFinalizeError(str(e)) from e
    if tmp.is_file():
        if out.exists():
            raise TacoFinalizeError(f"Output already exists: {out}")
        os.replace(tmp, out)
        return out
    try:
        for f in sorted(p for p in tmp.rglob("*") if p.is_file()):
            dest = out / f.relative_to(tmp)
            if dest.exists() and dest.stat().st_size == f.stat().st_size and "DATA" in dest.relative_to(out).parts[:1]:
                continue  # copied by execute()
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(f, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
