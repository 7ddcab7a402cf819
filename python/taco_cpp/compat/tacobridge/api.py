"""export / zip2folder / folder2zip with tacobridge's signatures, written by the taco-cpp
core (atomic; every ZIP member's CRC-32 checked when read). ``workers``, ``progress`` and
``temp_dir`` are accepted; the core needs no temporary folder."""

from __future__ import annotations

import pathlib
from typing import Literal

import taco_cpp
from taco_cpp.errors import AlreadyExistsError, TacoError

from ._exceptions import TacoPlanError
from .plan import _core

TACOZIP_EXTENSIONS = (".zip", ".tacozip")


def _run(fn):
    try:
        return fn()
    except AlreadyExistsError as e:
        raise TacoPlanError(str(e)) from e
    except TacoError as e:
        raise TacoPlanError(str(e)) from e


def export(dataset, output, output_format: Literal["zip", "folder", "auto"] = "auto", workers: int = 1,
           progress: bool = True, temp_dir=None) -> pathlib.Path:
    """Write the samples of ``dataset`` (a tacoreader or taco_cpp dataset, after sql/filters)
    as a new ZIP or FOLDER; returns its path."""
    out = pathlib.Path(output)
    fmt = ("zip" if out.suffix.lower() in TACOZIP_EXTENSIONS else "folder") if output_format == "auto" else output_format
    if fmt == "folder" and out.suffix.lower() in TACOZIP_EXTENSIONS:
        out = out.with_suffix("")
    if out.exists():
        raise TacoPlanError(f"Output already exists: {out}")
    core = _core(dataset)
    _run(lambda: core.export(str(out), format=fmt, meta_with_ids=True))
    return out


def zip2folder(source, output, workers: int = 1, progress: bool = True) -> pathlib.Path:
    out = pathlib.Path(output)
    _run(lambda: taco_cpp.convert(str(source), str(out), "folder", meta_with_ids=True))
    return out


def folder2zip(source, output, progress: bool = True) -> pathlib.Path:
    out = pathlib.Path(output)
    _run(lambda: taco_cpp.convert(str(source), str(out), "zip", meta_with_ids=True))
    return out
