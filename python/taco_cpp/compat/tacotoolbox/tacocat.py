"""``tacotoolbox.create_tacocat`` on taco-cpp: ``.tacocat/`` (level*.parquet and
COLLECTION.json) of several TACO ZIPs, written by the core."""

from __future__ import annotations

import pathlib
from typing import Any, Sequence

from taco_cpp import _native
from taco_cpp.errors import AlreadyExistsError, NotFoundError, TacoError

from ._exceptions import TacoConsolidationError, TacoSchemaError, TacoValidationError

TACOCAT_FOLDER_NAME = ".tacocat"


def _common_directory(inputs) -> pathlib.Path:
    if not inputs:
        raise TacoValidationError("No input files provided")
    dirs = {pathlib.Path(p).resolve().parent for p in inputs}
    if len(dirs) > 1:
        raise TacoValidationError(f"All input files must be in the same directory when output is not given. "
                                  f"Found: {sorted(str(d) for d in dirs)}")
    return dirs.pop()


def create_tacocat(inputs: Sequence, output=None, parquet_kwargs: dict[str, Any] | None = None,
                   validate_schema: bool = True) -> None:
    """Consolidate ``inputs`` (.tacozip files) into ``output/.tacocat/`` (default: the
    inputs' common directory). ``validate_schema=False`` aligns differing level schemas.
    ``parquet_kwargs`` are accepted and ignored."""
    inputs = [pathlib.Path(p) for p in inputs]
    out_dir = _common_directory(inputs) if output is None else pathlib.Path(output)
    if out_dir.exists() and out_dir.is_file():
        raise TacoConsolidationError(f"output must be a directory, not a file: {output}")
    out_dir.mkdir(parents=True, exist_ok=True)
    if (out_dir / TACOCAT_FOLDER_NAME).exists():
        raise TacoConsolidationError(f"{TACOCAT_FOLDER_NAME} already exists in {out_dir}")
    if not inputs:
        raise TacoConsolidationError("No datasets added. Use add_dataset() first.")
    for p in inputs:
        if not p.exists():
            raise FileNotFoundError(f"Dataset not found: {p}")
        if not p.is_file():
            raise TacoConsolidationError(f"Path is not a file: {p}")
        if p.stat().st_size == 0:
            raise TacoConsolidationError(f"Dataset file is empty: {p}")
    try:
        _native.tacocat([str(p) for p in inputs], str(out_dir), False, not validate_schema)
    except AlreadyExistsError as e:
        raise TacoConsolidationError(str(e)) from e
    except NotFoundError:
        raise
    except TacoError as e:
        if "schema" in str(e).lower():
            raise TacoSchemaError(str(e)) from e
        raise TacoConsolidationError(str(e)) from e
    return None
