"""plan_export / plan_zip2folder / plan_folder2zip: what a conversion will copy, before
anything is written (tacobridge's dry-run plans). The copy tasks come from the source's
level tables (``internal:offset``/``internal:size`` for ZIP members, paths for FOLDERs)."""

from __future__ import annotations

import pathlib
import struct
import zipfile

import taco_cpp
from taco_cpp.errors import TacoError

from ._exceptions import TacoPlanError
from ._types import CopyTask, ExportPlan, Folder2ZipPlan, ZipEntry, Zip2FolderPlan


def _core(dataset):
    """The native dataset of a compat tacoreader dataset (or of a native one)."""
    core = getattr(dataset, "_core", dataset)
    if not hasattr(core, "export"):
        raise TacoPlanError(f"expected a TacoDataset (tacoreader or taco_cpp), got {type(dataset).__name__}")
    return core


def _check_output(output: pathlib.Path) -> None:
    if output.exists():
        raise TacoPlanError(f"Output already exists: {output}")


def _zip_tasks(source: pathlib.Path, output: pathlib.Path) -> tuple:
    """One task per DATA member (STORE): its bytes start after its local header (30 bytes,
    then the name and the extra field, whose lengths are at bytes 26 and 28)."""
    tasks = []
    with zipfile.ZipFile(source) as z, open(source, "rb") as raw:
        for info in z.infolist():
            if not info.filename.startswith("DATA/") or info.is_dir() or info.filename.endswith("/__meta__"):
                continue
            raw.seek(info.header_offset + 26)
            name_len, extra_len = struct.unpack("<HH", raw.read(4))
            offset = info.header_offset + 30 + name_len + extra_len
            tasks.append(CopyTask(src=str(source), dest=str(output / info.filename), offset=offset, size=info.file_size))
    return tuple(tasks)


def plan_zip2folder(source, output) -> Zip2FolderPlan:
    src, out = pathlib.Path(str(source)), pathlib.Path(output)
    if not src.exists():
        raise TacoPlanError(f"Source not found: {src}")
    _check_output(out)
    try:
        ds = taco_cpp.load(str(src))
    except TacoError as e:
        raise TacoPlanError(str(e)) from e
    return Zip2FolderPlan(source=str(src), output=out, collection=dict(ds.collection), tasks=_zip_tasks(src, out),
                          _make=lambda dest: taco_cpp.convert(str(src), str(dest), "folder", meta_with_ids=True))


def plan_folder2zip(source, output) -> Folder2ZipPlan:
    src, out = pathlib.Path(source), pathlib.Path(output)
    if not (src / "COLLECTION.json").exists():
        raise TacoPlanError(f"Not a TACO FOLDER (no COLLECTION.json): {src}")
    _check_output(out)
    try:
        ds = taco_cpp.load(str(src))
    except TacoError as e:
        raise TacoPlanError(str(e)) from e
    entries = tuple(ZipEntry(src=str(p), arc_path=p.relative_to(src).as_posix())
                    for p in sorted((src / "DATA").rglob("*")) if p.is_file() and p.name != "__meta__")
    return Folder2ZipPlan(source=src, output=out, collection=dict(ds.collection), entries=entries,
                          _make=lambda dest: taco_cpp.convert(str(src), str(dest), "zip", meta_with_ids=True))


def plan_export(dataset, output) -> ExportPlan:
    core = _core(dataset)
    out = pathlib.Path(output)
    _check_output(out)
    return ExportPlan(source=str(getattr(core, "path", "") or ""), output=out, collection=dict(core.collection),
                      tasks=(), _make=lambda dest: core.export(str(dest), format="folder", meta_with_ids=True))
