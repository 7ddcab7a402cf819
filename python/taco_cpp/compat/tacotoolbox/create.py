"""``tacotoolbox.create`` on taco-cpp: upstream's signature and defaults; the files are
written by the taco-cpp core (atomic: temporary name, then rename).

Upstream's rules kept: ".zip"/".tacozip" (any case) → ZIP, else FOLDER; a FOLDER named
``x.zip`` is written at ``x``; for a FOLDER, split_size/group_by/consolidate are ignored;
``split_size=None`` never splits; an existing output, a reserved folder name, a bad size, an
existing ``.tacocat`` → TacoValidationError; returns a list of ``pathlib.Path``."""

from __future__ import annotations

import logging
import pathlib
import re
import warnings
from typing import Any, Literal

from taco_cpp import _native
from taco_cpp.errors import AlreadyExistsError, TacoError

from ._exceptions import TacoCreationError, TacoValidationError
from ._native_model import native_taco
from ._validation import validate_format_value, validate_output_path, validate_split_size

logger = logging.getLogger("tacotoolbox.create")

RESERVED_FOLDER_NAMES = frozenset({".tacocat", "DATA", "METADATA"})


def create(taco, output, output_format: Literal["zip", "folder", "auto"] = "auto", split_size: str | None = "4GB",
           group_by: str | list[str] | None = None, consolidate: bool = True, temp_dir=None,
           **kwargs: Any) -> list[pathlib.Path]:
    """Write ``taco`` as a ZIP or FOLDER container (see the module doc). ``temp_dir`` is
    accepted and unused (no temporary files are made); Parquet ``**kwargs`` are accepted and
    ignored (the core writes the metadata with its own settings), with a warning."""
    out = pathlib.Path(output)
    out.parent.mkdir(parents=True, exist_ok=True)
    if output_format == "auto":
        fmt = "zip" if out.suffix.lower() in (".zip", ".tacozip") else "folder"
    else:
        fmt = output_format
    if fmt == "folder" and out.suffix.lower() in (".zip", ".tacozip"):
        out = out.with_suffix("")
    if fmt == "folder":
        split_size, group_by, consolidate = None, None, False
    validate_format_value(fmt)
    validate_output_path(out, fmt)
    if fmt == "folder" and out.name in RESERVED_FOLDER_NAMES:
        raise TacoValidationError(f"Output folder name '{out.name}' is reserved by TACO specification.\n"
                                  f"Reserved names: {', '.join(sorted(RESERVED_FOLDER_NAMES))}")
    max_size = validate_split_size(split_size) if split_size is not None else None
    if not taco.tortilla.samples:
        raise TacoValidationError("Cannot create container from empty tortilla")
    if consolidate and fmt == "zip" and (split_size or group_by):
        cat = out.parent / ".tacocat"
        if cat.exists():
            raise TacoValidationError(f".tacocat/ already exists in {out.parent}\n"
                                      f"This conflicts with automatic consolidation.")
    if kwargs:
        warnings.warn(f"tacotoolbox compat: Parquet options {sorted(kwargs)} are ignored (taco-cpp writes the "
                      f"metadata with its own settings)", UserWarning, stacklevel=2)
    groups = [group_by] if isinstance(group_by, str) else list(group_by or [])
    if groups:
        table = taco.tortilla.export_metadata(deep=0)
        for col in groups:
            if col not in table.schema.names:
                raise TacoCreationError(f"Failed to group samples: Group column '{col}' not found in metadata.\n"
                                        f"Available columns: {sorted(table.schema.names)}")
            first = table.column(col).to_pylist()[0]
            if isinstance(first, int) and not isinstance(first, bool):
                warnings.warn(f"Group column '{col}' contains integer values. Converting to strings for file naming.",
                              UserWarning, stacklevel=2)
    try:
        native = native_taco(taco)
        written = _native.create(native, str(out), fmt, max_size if max_size is not None else 0, groups,
                                 bool(consolidate))
    except AlreadyExistsError as e:
        raise TacoValidationError(str(e)) from e
    except TacoError as e:
        raise TacoCreationError(f"Failed to create TACO container: {e}") from e
    paths = [pathlib.Path(p) for p in written]
    logger.info(f"Successfully created {len(paths)} container(s)")
    return paths


def _sanitize_filename(name: str) -> str:
    """A group key as a file name part: / \\ : * ? " < > | ' → _, runs of _ and spaces → one _,
    no leading or trailing _."""
    return re.sub(r"[_\s]+", "_", re.sub(r"[/\\:*?\"<>|']", "_", name)).strip("_")
