"""Schema alignment of metadata tables, as tacotoolbox does it (union of columns; the core
columns first, then the others by name; a column missing from a table is null there; a
name seen with two types keeps the first)."""

from __future__ import annotations

import pyarrow as pa


def align(tables: list[pa.Table], core: list[str]) -> list[pa.Table]:
    if len(tables) < 2:
        return tables
    types: dict[str, pa.DataType] = {}
    for t in tables:
        for f in t.schema:
            types.setdefault(f.name, f.type)
    order = [c for c in core if c in types] + sorted(c for c in types if c not in core)
    schema = pa.schema([pa.field(n, types[n]) for n in order])
    out = []
    for t in tables:
        cols = []
        for f in schema:
            if f.name in t.schema.names:
                col = t.column(f.name)
                cols.append(col if col.type == f.type else col.cast(f.type))
            else:
                cols.append(pa.nulls(t.num_rows, type=f.type))
        out.append(pa.Table.from_arrays(cols, schema=schema))
    return out
