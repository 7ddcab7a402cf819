"""``concat(datasets, column_mode="intersection")`` of tacoreader 2.4."""

from __future__ import annotations

from ... import reader as _reader
from ._exceptions import TacoBackendError, TacoQueryError, TacoSchemaError
from ._translate import translated
from .dataset import TacoDataset

_MODES = ("intersection", "fill_missing", "strict")


def concat(datasets: list, column_mode: str = "intersection") -> TacoDataset:
    """One dataset of several with the same structure, format and backend.
    ``column_mode``: "intersection" (common columns), "fill_missing" (union, nulls) or
    "strict" (identical columns)."""
    if len(datasets) < 2:
        raise TacoQueryError(f"Need at least 2 datasets to concat, got {len(datasets)}")
    if column_mode not in _MODES:
        raise TacoQueryError(f"Invalid column_mode: '{column_mode}'\n"
                             f"Valid options: 'intersection' (default), 'fill_missing', 'strict'")
    for d in datasets:
        if not isinstance(d, TacoDataset):
            raise TacoQueryError(f"concat takes TacoDataset objects, got {type(d).__name__}")
    backends = {d._dataframe_backend for d in datasets}
    if len(backends) > 1:
        raise TacoBackendError(f"Cannot concat datasets with different backends: {sorted(backends)}")
    formats = {d._format for d in datasets}
    if len(formats) > 1:
        per = "\n".join(f"  Dataset {i}: {d._format} (from {d._core.path})" for i, d in enumerate(datasets))
        raise TacoSchemaError(f"Cannot concatenate datasets with different formats.\n\n"
                              f"Found {len(formats)} different formats: {sorted(formats)}\n\n"
                              f"Format per dataset:\n{per}\n\n"
                              f"All datasets must use the same format (zip/folder/tacocat).\n"
                              f"Mixing formats breaks GDAL VSI path construction and navigation.")
    first = datasets[0].pit_schema
    for i, d in enumerate(datasets[1:], start=1):
        if not first.is_compatible(d.pit_schema):
            raise TacoSchemaError(f"Cannot concat: dataset {i} has an incompatible schema (PIT structure differs "
                                  f"from dataset 0)")
    with translated("concat"):
        core = _reader.concat([d._core for d in datasets], column_mode)
    out = TacoDataset(core, datasets[0]._dataframe_backend)
    out._sorted_columns = True
    return out


__all__ = ["concat"]
