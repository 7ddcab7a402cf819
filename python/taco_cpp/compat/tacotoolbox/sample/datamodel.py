"""``tacotoolbox.sample.datamodel`` on taco-cpp: :class:`Sample` and :class:`SampleExtension`.

A compat Sample keeps what tacotoolbox's keeps (id, path, type, extension values with their
Arrow types and descriptions) so that ``export_metadata``, ``pop``, attribute access and
``extend_with`` behave as upstream's; the native sample is made from it only when a dataset
is written (``create``). Bytes given as ``path`` are kept in memory (tacotoolbox writes them
to a temporary file); ``path`` then reads as a ``pathlib.Path`` under ``temp_dir`` that is
never created, and the bytes are what ``create`` writes."""

from __future__ import annotations

import os
import pathlib
import tempfile
import uuid
from abc import ABC, abstractmethod
from typing import Any

import pyarrow as pa

from .._constants import SHARED_CORE_FIELDS, VALID_KEY_PATTERN
from .._exceptions import ValidationError
from .._model import Model
from taco_cpp._convert import path_text


class SampleExtension(Model, ABC):
    """Base of sample extensions: ``get_schema()``, ``get_field_descriptions()``,
    ``_compute(sample) -> pa.Table`` (one row). ``schema_only=True`` (alias
    ``return_none``) gives the schema with null values. Subclass it as with tacotoolbox."""

    _fields = (("schema_only", False),)

    def __init__(self, **kwargs: Any):
        # pydantic validates this field by its alias only: return_none=True sets it,
        # schema_only=... is ignored (as with tacotoolbox)
        kwargs.pop("schema_only", None)
        if "return_none" in kwargs:
            kwargs["schema_only"] = kwargs.pop("return_none")
        super().__init__(**kwargs)

    @abstractmethod
    def get_schema(self) -> pa.Schema: ...

    @abstractmethod
    def get_field_descriptions(self) -> dict[str, str]: ...

    @abstractmethod
    def _compute(self, sample: "Sample") -> pa.Table: ...

    def __call__(self, sample: "Sample") -> pa.Table:
        if self.schema_only:
            schema = self.get_schema()
            return pa.Table.from_pydict({n: [None] for n in schema.names}, schema=schema)
        return self._compute(sample)


_ID, _TYPE, _PATH = pa.field("id", pa.string()), pa.field("type", pa.string()), pa.field("path", pa.string())


def _check_id(v) -> str:
    if not isinstance(v, str):
        raise ValidationError(f"1 validation error for Sample: id: Input should be a valid string, got {type(v).__name__}")
    if "/" in v or "\\" in v:
        raise ValidationError(f"Sample ID cannot contain slashes: '{v}'")
    if ":" in v:
        raise ValidationError(f"Sample ID cannot contain colons: '{v}'")
    if v.startswith("__"):
        raise ValidationError(f"Sample ID cannot start with '__': '{v}'")
    return v


class Sample:
    """One FILE (a path or bytes) or FOLDER (a Tortilla): keywords only, as tacotoolbox's
    ``Sample(id=, path=, type="auto", temp_dir=None, **metadata)``."""

    def __init__(self, temp_dir=None, **data: Any):
        from ..tortilla.datamodel import Tortilla

        if "id" not in data or "path" not in data:
            missing = [k for k in ("id", "path") if k not in data]
            raise ValidationError(f"{len(missing)} validation error(s) for Sample: "
                                  + ", ".join(f"{m}: Field required" for m in missing))
        object.__setattr__(self, "_extension_schemas", {})
        object.__setattr__(self, "_field_descriptions", {})
        object.__setattr__(self, "_bytes", None)
        object.__setattr__(self, "_temp_files", [])
        object.__setattr__(self, "_file_size", 0)
        sid = _check_id(data.pop("id"))
        path = data.pop("path")
        kind = data.pop("type", "auto")
        if isinstance(path, (bytes, bytearray)):
            base = pathlib.Path(tempfile.gettempdir()) if temp_dir is None else pathlib.Path(temp_dir)
            object.__setattr__(self, "_bytes", bytes(path))
            path = (base / uuid.uuid4().hex).absolute()
        elif isinstance(path, Tortilla):
            pass
        elif isinstance(path, (str, pathlib.PurePath)):
            p = pathlib.Path(path_text(path))
            try:
                size = os.stat(p).st_size
            except OSError:
                raise ValidationError(f"1 validation error for Sample: path: Value error, Path {p} does not exist.") from None
            object.__setattr__(self, "_file_size", size)
            path = p.absolute()
        else:
            raise ValidationError("1 validation error for Sample: path: Path must be pathlib.Path or Tortilla "
                                  "(bytes handled in __init__)")
        inferred = "FOLDER" if isinstance(path, Tortilla) else "FILE"
        if kind not in ("auto", "FILE", "FOLDER"):
            raise ValidationError(f"1 validation error for Sample: type: Input should be 'FILE', 'FOLDER' or 'auto'")
        if kind != "auto" and kind != inferred:
            what = "Tortilla" if inferred == "FOLDER" else "Path/bytes"
            raise ValidationError(f"Type mismatch: specified type='{kind}' but path type ({what}) "
                                  f"implies type='{inferred}'")
        object.__setattr__(self, "id", sid)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "type", inferred)
        object.__setattr__(self, "_fields_order", [])
        if data:
            self.extend_with(data)

    # -- attributes: extension values are attributes, as on the pydantic model ----------
    def __setattr__(self, key: str, value: Any) -> None:
        object.__setattr__(self, key, value)
        if not key.startswith("_") and key not in SHARED_CORE_FIELDS and key not in self._fields_order:
            self._fields_order.append(key)

    def __delattr__(self, key: str) -> None:
        object.__delattr__(self, key)
        if key in self._fields_order:
            self._fields_order.remove(key)

    @property
    def _size_bytes(self) -> int:
        if self.type == "FOLDER":
            return self.path._size_bytes
        if self._bytes is not None:
            return len(self._bytes)
        return self._file_size

    def model_dump(self) -> dict:
        out = {"id": self.id, "path": self.path, "type": self.type}
        for k in self._fields_order:
            out[k] = getattr(self, k)
        return out

    @property
    def model_extra(self) -> dict:
        return {k: getattr(self, k) for k in self._fields_order}

    # -- extensions ------------------------------------------------------------------
    def validate_with(self, validator) -> None:
        validator.validate(self)

    def extend_with(self, extension, name: str | None = None) -> None:
        """Add fields: a one-row ``pa.Table``, a :class:`SampleExtension` (also a user's
        subclass), a dict (types inferred by pyarrow) or a model (fields ``name:key``).
        Changes this sample, returns None (as tacotoolbox)."""
        if isinstance(extension, pa.Table):
            if extension.num_rows != 1:
                raise ValueError("Arrow Table extension must have exactly one row")
            for f in extension.schema:
                self._extension_schemas[f.name] = f.type
            self._add({k: v[0] for k, v in extension.to_pydict().items()})
        elif callable(extension) and hasattr(extension, "model_dump"):
            table = extension(self)
            if not isinstance(table, pa.Table):
                raise TypeError(f"SampleExtension must return pa.Table, got {type(table)}")
            if table.num_rows != 1:
                raise ValueError("SampleExtension must return single-row Table")
            for f in table.schema:
                self._extension_schemas[f.name] = f.type
            if hasattr(extension, "get_field_descriptions"):
                self._field_descriptions.update(extension.get_field_descriptions())
            self._add({k: v[0] for k, v in table.to_pydict().items()})
        elif isinstance(extension, dict):
            inferred = pa.Table.from_pydict({k: [v] for k, v in extension.items()})
            for f in inferred.schema:
                self._extension_schemas[f.name] = f.type
            self._add(extension)
        elif hasattr(extension, "model_dump"):
            ns = name if name else type(extension).__name__.lower()
            self._add({f"{ns}:{k}": v for k, v in extension.model_dump().items()})
        else:
            raise ValueError(f"Invalid extension type: {type(extension)}")
        return None

    def _add(self, values: dict) -> None:
        for key, value in values.items():
            if not VALID_KEY_PATTERN.match(key):
                raise ValueError(f"Invalid key format '{key}'. Use alphanumeric + underscore, "
                                 f"optionally with colon (e.g., 'key', 'my_key', 'stac:title')")
            if key in SHARED_CORE_FIELDS:
                raise ValueError(f"Cannot override core field: {key}")
            setattr(self, key, value)

    def pop(self, field: str) -> pa.Table:
        if field in SHARED_CORE_FIELDS:
            raise ValueError(f"Cannot pop core field: '{field}'. Core fields are: {', '.join(sorted(SHARED_CORE_FIELDS))}")
        if field not in self._fields_order:
            raise KeyError(f"Field '{field}' does not exist in sample. "
                           f"Available extension fields: {list(self._extension_schemas.keys())}")
        value = getattr(self, field)
        if field in self._extension_schemas:
            schema = pa.schema([pa.field(field, self._extension_schemas[field])])
            table = pa.Table.from_pydict({field: [value]}, schema=schema)
        else:
            table = pa.Table.from_pydict({field: [value]})
        delattr(self, field)
        self._extension_schemas.pop(field, None)
        self._field_descriptions.pop(field, None)
        return table

    def _arrow_fields(self) -> list:
        return [_ID, _TYPE, _PATH] + [pa.field(n, t) for n, t in self._extension_schemas.items()]

    def _row_values(self) -> list:
        vals = [self.id, self.type, None if self.type == "FOLDER" else self.path.as_posix()]
        return vals + [getattr(self, n, None) for n in self._extension_schemas]

    def export_metadata(self) -> pa.Table:
        """One row: id, type, path (strings; null path for a FOLDER) and the extension
        fields with their Arrow types."""
        fields = [pa.field("id", pa.string()), pa.field("type", pa.string()), pa.field("path", pa.string())]
        fields += [pa.field(n, t) for n, t in self._extension_schemas.items()]
        row = {"id": [self.id], "type": [self.type],
               "path": [None if self.type == "FOLDER" else self.path.as_posix()]}
        for n in self._extension_schemas:
            row[n] = [getattr(self, n, None)]
        # fields added from a model (extend_with(model, name)) have no tracked type: they are
        # attributes only, not columns (as with tacotoolbox)
        return pa.Table.from_pydict(row, schema=pa.schema(fields))

    def cleanup(self) -> None:
        """Nothing to remove: bytes stay in memory."""

    def __repr__(self) -> str:
        extra = "".join(f" {k}={getattr(self, k)!r}" for k in self._fields_order)
        return f"Sample(id={self.id!r} path={self.path!r} type={self.type!r}{extra})"

    def __getstate__(self):
        return dict(self.__dict__)

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)


__all__ = ["Sample", "SampleExtension"]
