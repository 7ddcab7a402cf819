"""``load(path | [paths], base_path=None, backend=None, cache=True)`` of tacoreader 2.4."""

from __future__ import annotations

import os

from ... import reader as _reader
from ._exceptions import TacoFormatError, TacoQueryError
from ._translate import translated
from .dataset import TacoDataset

_LEGACY_SUFFIXES = (".taco", ".tortilla")


def load(path, base_path=None, backend: str | None = None, cache: bool = True) -> TacoDataset:
    """Open a dataset (ZIP, FOLDER, TACOCAT, local or remote) or a list of them
    (concatenated). ``backend``: "pyarrow", "pandas" or "polars" (default: ``use()``)."""
    from . import get_backend
    from .dataframe import frame_class

    backend = backend or get_backend()
    frame_class(backend)  # an unknown or missing backend fails now
    if isinstance(path, (list, tuple)):
        paths = [os.fspath(p) for p in path]
        if not paths:
            raise TacoQueryError("Cannot load empty list of paths")
        if len(paths) == 1:
            return load(paths[0], base_path, backend, cache)
        from .concat import concat

        return concat([load(p, base_path, backend, cache) for p in paths])
    text = os.fspath(path)
    if text.lower().endswith(_LEGACY_SUFFIXES) or text.startswith("tacofoundation:"):
        # tacoreader 2.4 refuses the old formats; taco_cpp.load reads them where supported.
        raise TacoFormatError(f"Legacy TACO format: {text}. tacoreader 2.x reads TACO 2.0 datasets only; "
                              f"use taco_cpp.load() or tacoreader.v1 for Tortilla 0.5 / TACO v1 files")
    if "://" not in text and not text.startswith("/vsi") and not os.path.exists(text) \
            and not text.lower().endswith((".tacozip", ".zip", ".tacocat")):
        # upstream decides the format before opening: a missing directory is no known format
        raise TacoFormatError(f"Cannot detect TACO format for: {text}")
    with translated("load"):
        core = _reader.load(text, base_path, cache=cache)
    return TacoDataset(core, backend)


__all__ = ["load"]
