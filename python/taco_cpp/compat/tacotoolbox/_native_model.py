"""Compat objects (Sample/Tortilla/Taco kept as tacotoolbox keeps them) → the taco-cpp core's
model, which writes the files. Extension values come from each tortilla's metadata table (so
tortilla-extension columns and ``strict_schema=False`` alignment are what upstream writes),
with their Arrow types and descriptions."""

from __future__ import annotations

import datetime as _dt
import json

import pyarrow as pa

from taco_cpp import _native
from taco_cpp._convert import to_micros
from ._constants import SHARED_CORE_FIELDS
from ._model import Model


def _type_text(t: pa.DataType) -> str:
    if pa.types.is_timestamp(t):
        return "timestamp[us]"
    if pa.types.is_large_string(t):
        return "string"
    return str(t)


def _value(v, t: pa.DataType):
    if v is None:
        return None
    if pa.types.is_timestamp(t):
        if isinstance(v, _dt.datetime):
            if v.tzinfo is not None:
                v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
            return to_micros(v)
        return int(v)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return [_value(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {f.name: _value(v.get(f.name), f.type) for f in t}
    return v


def native_tortilla(tortilla, descriptions: dict):
    table = tortilla._metadata_table
    cols = [f for f in table.schema if f.name not in SHARED_CORE_FIELDS]
    columns = {f.name: table.column(f.name).to_pylist() for f in cols}
    descriptions.update(tortilla._field_descriptions)
    natives = []
    for i, s in enumerate(tortilla.samples):
        natives.append(native_sample(s, [(f.name, _type_text(f.type), _value(columns[f.name][i], f.type),
                                          descriptions.get(f.name, "")) for f in cols], descriptions))
    try:
        return _native.TortillaModel.make(natives, None, True)
    except ValueError:
        return _native.TortillaModel.make(natives, None, False)


def native_sample(s, fields, descriptions: dict):
    if s.type == "FOLDER":
        n = _native.Sample.from_tortilla(s.id, native_tortilla(s.path, descriptions))
    elif s._bytes is not None:
        n = _native.Sample.from_bytes(s.id, s._bytes)
    else:
        n = _native.Sample.from_file(s.id, str(s.path))
    if fields:
        try:
            n.extend(fields)
        except Exception as e:  # name the columns whose Arrow type the core does not store
            bad = [f[0] for f in fields if f'"{f[1]}"' in str(e)]
            if not bad:
                raise
            raise type(e)(f"sample '{s.id}': column {', '.join(repr(b) for b in bad)}: {e} (taco-cpp stores bool, "
                          "int32, int64, float, double, string, binary, timestamp[us], and lists and structs of "
                          "them)") from e
    return n


def _plain(v):
    if isinstance(v, Model):
        return v.model_dump()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.isoformat()
    return v


def collection_of(taco) -> dict:
    """The collection fields of a compat Taco as tacotoolbox writes them (model order; None
    kept; extension attributes after the core ones)."""
    out = {}
    for k, v in taco.__dict__.items():
        if k.startswith("_") or k == "tortilla":
            continue
        out[k] = _plain(v)
    # The files are TACO 2.0.0 whatever the object says: tacotoolbox writes its model default
    # "0.5.0" (the Tortilla-era number) into 2.0.0 containers; readers that check the version
    # would be misled (a deliberate difference).
    out["taco_version"] = _native.TACO_SPEC_VERSION
    return out


def native_taco(taco):
    descriptions: dict = {}
    root = native_tortilla(taco.tortilla, descriptions)
    return _native.TacoModel.make(root, json.dumps(collection_of(taco)))
