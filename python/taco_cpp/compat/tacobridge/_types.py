"""The frozen plan objects of tacobridge (field names kept): CopyTask, ZipEntry,
ExportPlan, Zip2FolderPlan, Folder2ZipPlan. A plan also remembers how the taco-cpp core
makes its output (``_make``), which ``finalize`` runs."""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Any, Callable


@dataclasses.dataclass(frozen=True)
class CopyTask:
    """Copy ``size`` bytes at ``offset`` of ``src`` (the whole file when None) to ``dest``."""

    src: str
    dest: str
    offset: int | None = None
    size: int | None = None

    def model_copy(self, update: dict | None = None) -> "CopyTask":
        return dataclasses.replace(self, **(update or {}))

    def model_dump(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class ZipEntry:
    src: str
    arc_path: str

    def model_dump(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class _Plan:
    source: Any
    output: pathlib.Path
    levels: tuple = ()
    local_metadata: dict = dataclasses.field(default_factory=dict)
    collection: dict = dataclasses.field(default_factory=dict)
    _make: Callable[[pathlib.Path], Any] | None = dataclasses.field(default=None, repr=False, compare=False)


@dataclasses.dataclass(frozen=True)
class ExportPlan(_Plan):
    tasks: tuple = ()


@dataclasses.dataclass(frozen=True)
class Zip2FolderPlan(_Plan):
    tasks: tuple = ()


@dataclasses.dataclass(frozen=True)
class Folder2ZipPlan(_Plan):
    entries: tuple = ()
