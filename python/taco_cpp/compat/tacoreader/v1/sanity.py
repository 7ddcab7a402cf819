"""sanity_check(): read every item of a frame (nested Tortillas recursively) with the user's
``read_function``; the ids whose read failed (a nested Tortilla's as one list of
"<parent id><child id>"). max_workers=None reads in order; else threads (upstream uses
processes, which need a picklable read_function; the ids are the same, their order is not)."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from ._frame import TortillaDataFrame

_log = logging.getLogger("tacoreader.v1")


def _entry(frame, idx, read_function, prefix):
    result = frame.read(idx)
    sid = prefix + frame.iloc[idx]["tortilla:id"]
    try:
        if isinstance(result, (str, bytes)):
            read_function(result)
        elif isinstance(result, pd.DataFrame):
            return sanity_check(result, read_function, max_workers=None, super_name=sid)
        else:
            raise ValueError(f"Unsupported return type for entry {sid}.")
    except Exception:
        return sid
    return None


def sanity_check(sample_metadata: pd.DataFrame, read_function, batch_size: int = 400, max_workers: int = 4,
                 **kwargs) -> list:
    prefix = kwargs.get("super_name", "")
    if prefix == "":
        _log.info(f"The sanity check is starting for {len(sample_metadata)} items.")
    failed = []
    for start in range(0, len(sample_metadata), batch_size):
        batch = TortillaDataFrame(sample_metadata.iloc[start:start + batch_size])
        if max_workers is None:
            results = [_entry(batch, i, read_function, prefix) for i in range(len(batch))]
        else:  # threads: the read function need not be picklable
            with ThreadPoolExecutor(max_workers=max_workers) as pool:
                n = len(batch)
                results = list(pool.map(_entry, [batch] * n, range(n), [read_function] * n, [prefix] * n))
        failed += [r for r in results if r]  # a nested Tortilla's failures stay one list, as upstream's
    if failed:
        _log.warning(f"Sanity check failed for {len(failed)} items.")
    elif prefix == "":
        _log.info("All items passed the sanity check.")
    return failed
