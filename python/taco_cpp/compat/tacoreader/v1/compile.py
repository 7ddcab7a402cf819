"""compile(): a subset of a Tortilla / TACO v1 frame written as a new Tortilla (P3 layout:
200-byte header, the items back to back from byte 200 in ``tortilla:offset`` order, the
footer Parquet as tacoreader.v1 writes it: zstd level 22, no dictionary). Written under a
temporary name and renamed into place."""

from __future__ import annotations

import os
import pathlib

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ._frame import _subfile_parts

_UNITS = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15}


def human2bytes(size: str) -> int:
    text = size.strip().upper()
    for unit, mult in _UNITS.items():
        if text.endswith(unit):
            try:
                return int(float(text[: -len(unit)].strip()) * mult)
            except ValueError:
                raise ValueError(f"Invalid size value in '{text}'.") from None
    raise ValueError(f"Unsupported unit in '{text}'. Supported units are: {', '.join(_UNITS)}.")


def compile(dataframe: pd.DataFrame, output, chunk_size_iter: str = "100MB", nworkers: int = 4,
            overwrite: bool = True, quiet: bool = False, **storage_options) -> pathlib.Path:
    chunk = human2bytes(chunk_size_iter)
    output = pathlib.Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    if output.exists() and overwrite:
        output.unlink()
    df = dataframe.copy()
    df.sort_values("tortilla:offset", inplace=True)
    df.reset_index(drop=True, inplace=True)
    df.loc[:, "tortilla:new_offset"] = df["tortilla:length"].shift(1, fill_value=0).cumsum() + 200
    new_offsets = df["tortilla:new_offset"]
    # a TortillaDataFrame's copy orders its columns by prefix again, so the new offset column
    # lands among the tortilla: columns (a plain DataFrame keeps it last), as upstream's footer
    footer_frame = df.copy()
    footer_frame.drop(columns=["geometry", "internal:subfile", "tortilla:offset"], errors="ignore", inplace=True)
    footer_frame.rename(columns={"tortilla:new_offset": "tortilla:offset"}, inplace=True)
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pandas(footer_frame), sink, compression="zstd", compression_level=22,
                   use_dictionary=False)
    footer = sink.getvalue().to_pybytes()
    data_end = int(new_offsets.iloc[-1] + df["tortilla:length"].iloc[-1])
    header = (b"#y" + data_end.to_bytes(8, "little") + len(footer).to_bytes(8, "little") +
              (1).to_bytes(8, "little") + b"\0" * 174)
    tmp = output.with_name(f".{output.name}.compile-{os.getpid()}")
    try:
        with open(tmp, "wb") as out:
            out.write(header)
            for subfile, new_offset in zip(df["internal:subfile"], new_offsets):
                offset, length, path = _subfile_parts(subfile)
                out.seek(int(new_offset))
                with open(path, "rb") as src:
                    src.seek(offset)
                    left = length
                    while left:
                        block = src.read(min(left, chunk))
                        if not block:
                            raise ValueError(f"{path}: ends before byte {offset + length}")
                        out.write(block)
                        left -= len(block)
            out.seek(data_end)
            out.write(footer)
        os.replace(tmp, output)
    finally:
        if tmp.exists():
            tmp.unlink()
    return output
