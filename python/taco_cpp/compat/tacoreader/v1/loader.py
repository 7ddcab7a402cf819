"""load / load_metadata of tacoreader.v1 on the core's legacy reader (see __init__)."""

from __future__ import annotations

import json
import os
import pathlib
from concurrent.futures import ThreadPoolExecutor, as_completed

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import _header
from ._frame import TortillaDataFrame


def _frame(footer: bytes, vfs_path: str, shift: int = 0) -> TortillaDataFrame:
    df = pq.read_table(pa.BufferReader(footer)).to_pandas()
    if shift:
        df["tortilla:offset"] = df["tortilla:offset"] + shift
    df["internal:subfile"] = [f"/vsisubfile/{o}_{n},{vfs_path}" for o, n in zip(df["tortilla:offset"],
                                                                                df["tortilla:length"])]
    return TortillaDataFrame(df)


def frame_at(path: str, offset: int) -> TortillaDataFrame:
    """The frame of the TORTILLA nested at ``offset`` of ``path`` (offsets made absolute)."""
    fo, fl = _header.nested_footer_range(path, offset)
    return _frame(_header.read_range(path, fo, fl), path, shift=offset)


def _load_file(path, **storage_options) -> TortillaDataFrame:
    text = _header.local_path(path)
    part = _header.part_of(text)
    footer = _header.read_range(text, part["footer_offset"], part["footer_length"])
    return _frame(footer, str(path))


def _load_files(files, **storage_options) -> TortillaDataFrame:
    results = []
    with ThreadPoolExecutor(max_workers=min(len(files), os.cpu_count() or 1)) as pool:
        futures = {pool.submit(_load_file, f, **storage_options): f for f in files}
        for fut in as_completed(futures):
            try:
                results.append(fut.result())
            except Exception as e:  # upstream reports a bad file and goes on with the others
                print(f"Error processing file {futures[fut]}: {e}")
    return TortillaDataFrame(pd.concat(results, ignore_index=True).sort_values(by=["tortilla:id"]))


def load(file, **storage_options) -> TortillaDataFrame:
    """The footer of a Tortilla / TACO v1 file (or of several parts, concatenated and sorted by
    ``tortilla:id``) as a TortillaDataFrame."""
    if isinstance(file, (str, pathlib.Path)):
        if str(file).startswith("tacofoundation:"):
            raise NotImplementedError("tacofoundation: names need the TACO Foundation catalogue on the network; "
                                      "load the files by path")
        return _load_file(file, **storage_options)
    if isinstance(file, list):
        return _load_files(file, **storage_options)
    raise ValueError("Invalid file type: must be a string or a list of strings.")


def load_metadata(file, **storage_options) -> dict:
    """The COLLECTION of a TACO v1 file (of the first file of a list)."""
    if isinstance(file, list):
        file = file[0]
    elif not isinstance(file, (str, pathlib.Path)):
        raise ValueError("Invalid file type: must be a string or a list of strings.")
    text = _header.local_path(file)
    with open(text, "rb") as f:
        magic = f.read(2)
    if magic not in (b"WX", b"W", b"X", b""):  # upstream tests `magic in b"WX"` (a substring test)
        raise ValueError(_header.TACO_ONLY)
    part = _header.part_of(text)
    raw = _header.read_range(text, part["collection_offset"], part["collection_length"])
    return json.loads(raw.decode())
