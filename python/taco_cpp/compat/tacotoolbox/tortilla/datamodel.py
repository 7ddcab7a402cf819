"""``tacotoolbox.tortilla.datamodel`` on taco-cpp: :class:`Tortilla` and
:class:`TortillaExtension` (metadata kept as a pyarrow table, as upstream; ``extend_with``
changes the tortilla and returns it)."""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections import Counter
from typing import Any

import pyarrow as pa

from .._columns import align
from .._constants import METADATA_CURRENT_ID, METADATA_PARENT_ID, SHARED_CORE_FIELDS, SHARED_MAX_DEPTH
from .._model import Model


class TortillaExtension(Model, ABC):
    """Base of tortilla extensions: ``_compute(tortilla) -> pa.Table`` with one row per
    sample. Subclass it as with tacotoolbox."""

    _fields = (("schema_only", False),)

    def __init__(self, **kwargs: Any):
        kwargs.pop("schema_only", None)  # validated by its alias only, as with tacotoolbox
        if "return_none" in kwargs:
            kwargs["schema_only"] = kwargs.pop("return_none")
        super().__init__(**kwargs)

    @abstractmethod
    def get_schema(self) -> pa.Schema: ...

    @abstractmethod
    def get_field_descriptions(self) -> dict[str, str]: ...

    @abstractmethod
    def _compute(self, tortilla: "Tortilla") -> pa.Table: ...

    def __call__(self, tortilla: "Tortilla") -> pa.Table:
        if self.schema_only:
            schema = self.get_schema()
            n = len(tortilla.samples)
            return pa.Table.from_pydict({c: [None] * n for c in schema.names}, schema=schema)
        return self._compute(tortilla)


def _same_schema(samples) -> bool:
    first = samples[0]._extension_schemas
    keys = list(first)
    for s in samples[1:]:
        other = s._extension_schemas
        if list(other) != keys or any(other[k] != first[k] for k in keys):
            return False
    return True


def _check_depth(depth: int, context: str) -> None:
    if depth < 0:
        raise ValueError(f"{context}: depth must be non-negative, got {depth}")
    if depth > SHARED_MAX_DEPTH:
        raise ValueError(f"{context}: depth {depth} exceeds maximum of {SHARED_MAX_DEPTH} "
                         f"(levels 0-{SHARED_MAX_DEPTH})")


class Tortilla:
    """Sibling samples: ``Tortilla(samples, strict_schema=True)``."""

    def __init__(self, samples: list, strict_schema: bool = True, _metadata_table: pa.Table | None = None):
        if not samples:
            raise ValueError("Cannot create Tortilla with empty samples list")
        self.samples = samples
        self._field_descriptions: dict[str, str] = {}
        counts = Counter(s.id for s in samples)
        dups = {k: n for k, n in counts.items() if n > 1}
        if dups:
            shown = ", ".join(f"'{k}' ({n}x)" for k, n in list(dups.items())[:10])
            raise ValueError(f"Duplicate sample IDs found in Tortilla: {shown}\n"
                             f"Total unique IDs with duplicates: {len(dups)}\n"
                             f"Total samples: {len(samples)}\n"
                             f"Each sample at the same level must have a unique ID.\n")
        kinds = [s.type for s in samples]
        if "FOLDER" in kinds and "FILE" in kinds:
            first_folder, first_file = kinds.index("FOLDER"), kinds.index("FILE")
            if first_file < first_folder:
                warnings.warn(f"Consider placing FOLDERs before FILEs for better organization. "
                              f"Found FILE at position {first_file} before FOLDER at position {first_folder}.",
                              UserWarning, stacklevel=2)
        for s in samples:
            self._field_descriptions.update(getattr(s, "_field_descriptions", {}))
        if _metadata_table is not None:
            if _metadata_table.num_rows != len(samples):
                raise ValueError(f"Metadata table has {_metadata_table.num_rows} rows but "
                                 f"{len(samples)} samples provided")
            self._metadata_table = _metadata_table
        elif _same_schema(samples):
            # one table for all rows (what concatenating the per-sample tables gives, faster)
            fields = samples[0]._arrow_fields()
            rows = [s._row_values() for s in samples]
            self._metadata_table = pa.Table.from_arrays(
                [pa.array([r[i] for r in rows], type=f.type) for i, f in enumerate(fields)], schema=pa.schema(fields))
        else:
            tables = [s.export_metadata() for s in samples]
            if strict_schema:
                ref = tables[0].schema
                for i, t in enumerate(tables[1:], start=1):
                    if not t.schema.equals(ref):
                        self._schema_mismatch(i, samples[i], ref, t.schema)
            else:
                tables = align(tables, list(SHARED_CORE_FIELDS))
            self._metadata_table = pa.concat_tables(tables)
        self._current_depth = max((1 + s.path._current_depth for s in samples if s.type == "FOLDER"), default=0)
        self._size_bytes = sum(s._size_bytes for s in samples)

    @staticmethod
    def _schema_mismatch(i, sample, ref, cur) -> None:
        a, b = set(ref.names), set(cur.names)
        msg = (f"Schema inconsistency detected at sample {i} (id: '{sample.id}'):\n\n"
               f"  Reference sample columns: {sorted(a)}\n  Current sample columns: {sorted(b)}\n\n")
        if a - b:
            msg += f"  Missing columns: {sorted(a - b)}\n"
        if b - a:
            msg += f"  Extra columns: {sorted(b - a)}\n"
        msg += ("\n  Hint: If you want to combine samples with different schemas, use:\n"
                "      Tortilla(samples=[...], strict_schema=False)\n")
        raise ValueError(msg)

    @property
    def metadata_table(self) -> pa.Table:
        return self._metadata_table

    def __len__(self) -> int:
        return len(self.samples)

    def extend_with(self, extension: TortillaExtension) -> "Tortilla":
        """Add the extension's columns (one row per sample) to this tortilla; returns self."""
        result = extension(self)
        if result.num_rows != self._metadata_table.num_rows:
            raise ValueError(f"Extension returned {result.num_rows} rows, "
                             f"expected {self._metadata_table.num_rows} (one per sample).")
        clash = set(result.schema.names) & set(self._metadata_table.schema.names)
        if clash:
            raise ValueError(f"Column conflicts: {sorted(clash)}")
        if hasattr(extension, "get_field_descriptions"):
            self._field_descriptions.update(extension.get_field_descriptions())
        schema = pa.schema(list(self._metadata_table.schema) + list(result.schema))
        cols = list(self._metadata_table.columns) + list(result.columns)
        self._metadata_table = pa.Table.from_arrays(cols, schema=schema)
        return self

    def _tortilla_columns(self) -> list[str]:
        """Columns added by tortilla extensions (not on the samples)."""
        own = set(SHARED_CORE_FIELDS)
        for s in self.samples:
            own.update(s._fields_order)
            own.update(s._extension_schemas)
        return [n for n in self._metadata_table.schema.names if n not in own]

    def pop(self, field: str) -> pa.Table:
        if field in SHARED_CORE_FIELDS:
            raise ValueError(f"Cannot pop core field: '{field}'. Core fields are: {', '.join(sorted(SHARED_CORE_FIELDS))}")
        names = self._metadata_table.schema.names
        if field not in names:
            avail = [n for n in names if n not in SHARED_CORE_FIELDS]
            raise KeyError(f"Field '{field}' does not exist in Tortilla metadata. Available extension fields: {avail}")
        if self.samples and hasattr(self.samples[0], field):
            raise ValueError(f"Cannot pop '{field}': this field comes from Sample extensions. "
                             f"Use sample.pop('{field}') on individual samples instead.")
        i = names.index(field)
        out = pa.Table.from_arrays([self._metadata_table.column(i)], schema=pa.schema([self._metadata_table.schema.field(i)]))
        self._metadata_table = self._metadata_table.remove_column(i)
        self._field_descriptions.pop(field, None)
        return out

    def export_metadata(self, deep: int = 0) -> pa.Table:
        """Level 0 (with tortilla-extension columns) or, for ``deep`` > 0, the samples
        ``deep`` levels down with ``internal:parent_id`` and ``internal:current_id``."""
        _check_depth(deep, "export_metadata")
        if deep == 0:
            return pa.Table.from_arrays(list(self._metadata_table.columns), schema=self._metadata_table.schema)
        if deep > self._current_depth:
            raise ValueError(f"Cannot expand to depth {deep}: structure only has "
                             f"{self._current_depth} levels (0-{self._current_depth}).")
        samples = self.samples
        tables: list[pa.Table] = []
        for _ in range(deep):
            nxt_tables, nxt_samples = [], []
            for parent, s in enumerate(samples):
                if s.type != "FOLDER":
                    continue
                for child in s.path.samples:
                    t = child.export_metadata()
                    t = t.append_column(pa.field(METADATA_PARENT_ID, pa.int64()), pa.array([parent], pa.int64()))
                    nxt_tables.append(t)
                    nxt_samples.append(child)
            tables = [t.append_column(pa.field(METADATA_CURRENT_ID, pa.int64()), pa.array([i], pa.int64()))
                      for i, t in enumerate(nxt_tables)]
            samples = nxt_samples
        if len(tables) > 1:
            tables = align(tables, ["id", "type", "path", METADATA_CURRENT_ID, METADATA_PARENT_ID])
        return pa.concat_tables(tables)

    def __repr__(self) -> str:
        return f"Tortilla({len(self.samples)} samples, depth {self._current_depth})"


__all__ = ["Tortilla", "TortillaExtension"]
