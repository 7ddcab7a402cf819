"""``tacotoolbox.taco.datamodel`` on taco-cpp: :class:`Taco`, :class:`TacoExtension`,
:class:`Provider`, :class:`Curator`, :class:`Extent` (keyword classes with upstream's fields,
defaults and checks; ``extend_with`` changes the Taco, as upstream)."""

from __future__ import annotations

import datetime as _dt
from abc import ABC, abstractmethod
from typing import Any, Literal

import pyarrow as pa

from .._exceptions import ValidationError
from .._geo import wkb_point
from .._model import REQUIRED, Model
from ..tortilla.datamodel import Tortilla

TaskType = Literal[
    "regression", "classification", "scene-classification", "detection", "object-detection", "segmentation",
    "semantic-segmentation", "instance-segmentation", "panoptic-segmentation", "similarity-search", "generative",
    "image-captioning", "super-resolution", "denoising", "inpainting", "colorization", "style-transfer",
    "deblurring", "dehazing", "foundation-model", "other",
]
TASK_TYPES = TaskType.__args__


class TacoExtension(Model, ABC):
    """Base of dataset-level extensions: ``_compute(taco) -> pa.Table`` (one row)."""

    @abstractmethod
    def get_schema(self) -> pa.Schema: ...

    @abstractmethod
    def get_field_descriptions(self) -> dict[str, str]: ...

    @abstractmethod
    def _compute(self, taco: "Taco") -> pa.Table: ...

    def __call__(self, taco: "Taco") -> pa.Table:
        return self._compute(taco)


class Provider(Model):
    """A data provider (STAC form): name, roles, url, links."""

    _fields = (("name", REQUIRED), ("roles", None), ("url", None), ("links", None))

    def _validate(self):
        if not isinstance(self.name, str):
            raise ValueError("name: Input should be a valid string")
        if self.url and not (self.url.startswith("http://") or self.url.startswith("https://")):
            raise ValueError("URL must start with http:// or https://")


class Curator(Model):
    """A curator: name or organization, email (with '@'), role."""

    _fields = (("name", None), ("organization", None), ("email", None), ("role", None))

    def _validate(self):
        if self.email and "@" not in self.email:
            raise ValueError("Invalid email format - must contain '@' symbol")
        if not self.name and not self.organization:
            raise ValueError("Either 'name' or 'organization' must be provided")


def _parse_iso(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


class Extent(Model):
    """spatial [west, south, east, north] (west > east crosses the antimeridian) and
    temporal [start, end] ISO-8601 strings or None."""

    _fields = (("spatial", REQUIRED), ("temporal", None))

    def _validate(self):
        v = [float(x) for x in self.spatial]
        if len(v) != 4:
            raise ValueError("Spatial extent must have exactly 4 values: [west, south, east, north]")
        w, s, e, n = v
        if not (-180 <= w <= 180) or not (-180 <= e <= 180):
            raise ValueError("Longitude values must be between -180 and 180 degrees")
        if not (-90 <= s <= 90) or not (-90 <= n <= 90):
            raise ValueError("Latitude values must be between -90 and 90 degrees")
        if s > n:
            raise ValueError("south cannot be greater than north")
        object.__setattr__(self, "spatial", v)
        if self.temporal is not None:
            if len(self.temporal) != 2:
                raise ValueError("Temporal extent must have exactly 2 values: [start_datetime, end_datetime]")
            try:
                a, b = (_parse_iso(t) for t in self.temporal)
            except ValueError as e:
                raise ValueError(f"Invalid datetime format. Use ISO 8601 format (e.g., '2023-01-01T00:00:00Z'): {e}") from e
            if a > b:
                raise ValueError("Start datetime must be before end datetime")
            object.__setattr__(self, "temporal", list(self.temporal))


def _model_list(values, cls, what):
    if values is None:
        return None
    out = []
    for v in values:
        if isinstance(v, cls):
            out.append(v)
        elif isinstance(v, dict):
            out.append(cls(**v))
        else:
            raise ValidationError(f"1 validation error for Taco: {what}: Input should be a valid dictionary "
                                  f"or instance of {cls.__name__}")
    return out


_CORE = ("tortilla", "id", "dataset_version", "description", "licenses", "providers", "tasks",
         "taco_version", "title", "curators", "keywords", "extent")


class Taco:
    """A dataset: ``Taco(tortilla=, id=, dataset_version=, description=, licenses=,
    providers=, tasks=, taco_version="0.5.0", title=None, curators=None, keywords=None,
    extent=None, **extra)``. The PIT is checked and the extent computed from the first
    level with STAC/ISTAC centroids, as tacotoolbox does."""

    def __init__(self, **data: Any):
        required = ("tortilla", "id", "dataset_version", "description", "licenses", "providers", "tasks")
        missing = [k for k in required if k not in data]
        if missing:
            raise ValidationError(f"{len(missing)} validation error(s) for Taco: "
                                  + ", ".join(f"{m}: Field required" for m in missing))
        if not isinstance(data["tortilla"], Tortilla):
            raise ValidationError("1 validation error for Taco: tortilla: Input should be an instance of Tortilla")
        tid = data["id"]
        if not isinstance(tid, str) or not tid.islower():
            raise ValidationError("1 validation error for Taco: id: Value error, Dataset ID must be lowercase")
        if not tid.replace("_", "").replace("-", "").isalnum():
            raise ValidationError("1 validation error for Taco: id: Value error, Dataset ID must be alphanumeric "
                                  "(underscores and hyphens allowed)")
        title = data.get("title")
        if title and len(title) > 250:
            raise ValidationError("1 validation error for Taco: title: Value error, Title must be less than 250 characters")
        for t in data["tasks"]:
            if t not in TASK_TYPES:
                raise ValidationError(f"1 validation error for Taco: tasks: Input should be one of {TASK_TYPES}, got {t!r}")
        values = {
            "tortilla": data.pop("tortilla"), "id": data.pop("id"), "dataset_version": data.pop("dataset_version"),
            "description": data.pop("description"), "licenses": list(data.pop("licenses")),
            "providers": _model_list(data.pop("providers"), Provider, "providers"),
            "tasks": list(data.pop("tasks")), "taco_version": data.pop("taco_version", "0.5.0"),
            "title": data.pop("title", None), "curators": _model_list(data.pop("curators", None), Curator, "curators"),
            "keywords": data.pop("keywords", None), "extent": data.pop("extent", None),
        }
        if isinstance(values["extent"], dict):
            values["extent"] = Extent(**values["extent"])
        for k, v in values.items():
            setattr(self, k, v)
        for k, v in data.items():
            setattr(self, k, v)
        self._field_descriptions: dict[str, str] = {}
        try:
            _check_pit(self.tortilla.samples)
        except ValueError as e:
            raise ValidationError(f"1 validation error for Taco: Value error, {e}") from e
        self.extent = _auto_extent(self.tortilla)

    @property
    def model_extra(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_") and k not in _CORE}

    def model_dump(self) -> dict:
        out = {}
        for k, v in self.__dict__.items():
            if k.startswith("_"):
                continue
            out[k] = v.model_dump() if isinstance(v, Model) else (
                [x.model_dump() if isinstance(x, Model) else x for x in v] if isinstance(v, list) else v)
        return out

    def extend_with(self, extension: Any) -> None:
        """Add collection fields: a :class:`TacoExtension`, a one-row ``pa.Table``, a dict
        or a model (its fields). Changes this Taco, returns None (as tacotoolbox)."""
        if callable(extension) and isinstance(extension, TacoExtension):
            table = extension(self)
            if not isinstance(table, pa.Table):
                raise TypeError("TacoExtension must return pa.Table")
            if table.num_rows != 1:
                raise ValueError("TacoExtension must return single-row Table")
            self._set({k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in table.to_pydict().items()})
        elif isinstance(extension, pa.Table):
            if extension.num_rows != 1:
                raise ValueError("Table extension must have exactly one row")
            self._set({k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in extension.to_pydict().items()})
        elif isinstance(extension, dict):
            self._set(extension)
        elif hasattr(extension, "model_dump"):
            self._set(extension.model_dump())
        else:
            raise ValueError("Extension must be TacoExtension, Table, dict, or pydantic model")
        return None

    def _set(self, values: dict) -> None:
        for k, v in values.items():
            setattr(self, k, v)

    def export_metadata(self) -> pa.Table:
        row = {}
        for k, v in self.__dict__.items():
            if k.startswith("_"):
                continue
            if isinstance(v, Model):
                row[k] = v.model_dump()
            elif isinstance(v, list) and v and isinstance(v[0], Model):
                row[k] = [x.model_dump() for x in v]
            else:
                row[k] = v
        return pa.Table.from_pylist([row])

    def __repr__(self) -> str:
        return f"Taco(id={self.id!r}, {len(self.tortilla.samples)} samples)"


def _check_pit(samples) -> None:
    kinds = {s.type for s in samples}
    if len(kinds) > 1:
        raise ValueError(f"PIT violation: All root samples must have the same type.\n"
                         f"Found mixed types at root level: {kinds}\n"
                         f"All root samples must be either all FILE or all FOLDER.")
    folders = [(s.id, list(s.path.samples)) for s in samples if s.type == "FOLDER" and s.path.samples]
    if len(folders) <= 1:
        return
    counts = [len(c) for _, c in folders]
    if len(set(counts)) > 1:
        report = ", ".join(f"'{fid}': {n}" for (fid, _), n in zip(folders, counts))
        raise ValueError(f"PIT violation: All root samples must be isomorphic.\nChild counts: {report}\n"
                         f"All root samples must have the same internal structure.")
    ref_id, ref = folders[0]
    for pos, rc in enumerate(ref):
        for fid, kids in folders[1:]:
            c = kids[pos]
            if c.id != rc.id:
                raise ValueError(f"PIT violation at position {pos}:\nRoot sample '{ref_id}' has child ID: '{rc.id}'\n"
                                 f"Root sample '{fid}' has child ID: '{c.id}'\n"
                                 f"All root samples must have the same child ID at position {pos}.")
            if c.type != rc.type:
                raise ValueError(f"PIT violation at position {pos} (ID: '{rc.id}'):\n"
                                 f"Root sample '{ref_id}' has child type: '{rc.type}'\n"
                                 f"Root sample '{fid}' has child type: '{c.type}'\n"
                                 f"All root samples must have the same child type at position {pos}.")
    for pos in range(len(ref)):
        at = [kids[pos] for _, kids in folders]
        if all(c.type == "FOLDER" for c in at):
            n0 = len(at[0].path.samples)
            for i, c in enumerate(at[1:], start=1):
                if len(c.path.samples) != n0:
                    raise ValueError(f"PIT violation in nested structure at position {pos}:\n"
                                     f"Root[0].child[{pos}] ('{at[0].id}') has {n0} children\n"
                                     f"Root[{i}].child[{pos}] ('{c.id}') has {len(c.path.samples)} children\n"
                                     f"All children at position {pos} must be isomorphic.")


def _auto_extent(tortilla: Tortilla) -> Extent:
    level = list(tortilla.samples)
    for depth in range(tortilla._current_depth + 1):
        if depth > 0:
            level = [c for s in level if s.type == "FOLDER" for c in s.path.samples]
        names = set(tortilla._metadata_table.schema.names) if depth == 0 else set()
        for s in level:
            names.update(s._extension_schemas)
        if not any(f"{ns}:centroid" in names and f"{ns}:time_start" in names for ns in ("stac", "istac")):
            continue  # no STAC/ISTAC at this level: no table needed
        table = tortilla.export_metadata(deep=depth)
        names = table.schema.names
        for ns in ("stac", "istac"):
            if f"{ns}:centroid" in names and f"{ns}:time_start" in names:
                return Extent(spatial=_spatial(table.column(f"{ns}:centroid").to_pylist()),
                              temporal=_temporal(table, ns))
    return Extent(spatial=[-180.0, -90.0, 180.0, 90.0], temporal=None)


def _spatial(wkbs) -> list[float]:
    """The lon/lat box of the centroids. Across the antimeridian (points on both sides
    whose smallest covering interval crosses 180°) the box has west > east and covers every
    point; tacotoolbox drops the smaller side instead (a deliberate difference)."""
    pts = [wkb_point(w) for w in wkbs if w is not None]
    if not pts:
        return [-180.0, -90.0, 180.0, 90.0]
    lons = sorted(p[0] for p in pts)
    lats = [p[1] for p in pts]
    south, north = min(lats), max(lats)
    pos = [x for x in lons if x >= 0]
    neg = [x for x in lons if x < 0]
    if not pos or not neg:
        return [lons[0], south, lons[-1], north]
    # the largest gap between consecutive longitudes on the circle: the box is its complement
    gaps = [(lons[i + 1] - lons[i], i) for i in range(len(lons) - 1)]
    wrap = lons[0] + 360.0 - lons[-1]
    widest, at = max(gaps)
    if wrap >= widest:
        return [lons[0], south, lons[-1], north]
    return [lons[at + 1], south, lons[at], north]


def _temporal(table: pa.Table, ns: str):
    names = table.schema.names
    for col in (f"{ns}:time_middle", f"{ns}:time_start", f"{ns}:time_end"):
        if col not in names:
            continue
        vals = [v for v in table.column(col).to_pylist() if v is not None]
        if vals:
            lo, hi = min(vals), max(vals)
            out = []
            for d in (lo, hi):
                if isinstance(d, _dt.datetime) and d.tzinfo is None:
                    d = d.replace(tzinfo=_dt.timezone.utc)
                out.append(d.isoformat().replace("+00:00", "Z"))
            return out
    return None


__all__ = ["Curator", "Extent", "Provider", "Taco", "TacoExtension", "TaskType"]
