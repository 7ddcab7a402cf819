"""A small declarative base for the keyword-argument classes of tacotoolbox (its pydantic
models: extensions, Provider, Curator, Extent): fields with defaults, ``model_dump()``,
``model_fields_set``, equality and repr, and validation errors as :class:`ValidationError`.

A subclass lists ``_fields = (("name", default), ...)`` (``REQUIRED`` for no default) and may
define ``_validate(self)`` to check and fill fields after they are set."""

from __future__ import annotations

import copy
from typing import Any

from ._exceptions import ValidationError

REQUIRED = object()


class Model:
    _fields: tuple = ()
    _extra_allowed = False

    def __init__(self, **kwargs: Any):
        names = [n for n, _ in self._all_fields()]
        missing = []
        for name, default in self._all_fields():
            if name in kwargs:
                value = kwargs.pop(name)
            elif default is REQUIRED:
                missing.append(name)
                continue
            else:
                value = copy.copy(default)
            object.__setattr__(self, name, value)
        if missing:
            raise ValidationError(f"{len(missing)} validation error(s) for {type(self).__name__}: "
                                  + ", ".join(f"{m}: Field required" for m in missing))
        if kwargs and not self._extra_allowed:
            raise ValidationError(f"{type(self).__name__}: unexpected field(s) {sorted(kwargs)} "
                                  f"(fields: {names})")
        for k, v in kwargs.items():
            object.__setattr__(self, k, v)
        try:
            self._validate()
        except ValidationError:
            raise
        except (ValueError, TypeError) as e:
            raise ValidationError(f"1 validation error for {type(self).__name__}: {e}") from e

    @classmethod
    def _all_fields(cls) -> list[tuple[str, Any]]:
        out, seen = [], set()
        for klass in reversed(cls.__mro__):
            for name, default in list(klass.__dict__.get("_fields", ())) + _annotated(klass):
                if name in seen:
                    out = [(n, d) if n != name else (name, default) for n, d in out]
                else:
                    out.append((name, default))
                    seen.add(name)
        return out

    def _validate(self) -> None:
        """Check and complete the fields (raise ValueError)."""

    def model_dump(self) -> dict:
        out = {}
        for k, v in self.__dict__.items():
            if k.startswith("_"):
                continue
            out[k] = _dump(v)
        return out

    def model_copy(self):
        return copy.deepcopy(self)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.model_dump() == other.model_dump()

    def __repr__(self) -> str:
        args = " ".join(f"{k}={v!r}" for k, v in self.model_dump().items())
        return f"{type(self).__name__}({args})"


def _annotated(klass) -> list[tuple[str, Any]]:
    """Fields a user's subclass declares pydantic-style: ``gain: float = 2.0`` (a
    ``pydantic.Field(default=...)`` default is unwrapped; no default = required)."""
    if klass.__module__.startswith("taco_cpp."):
        return []
    out = []
    for name in klass.__dict__.get("__annotations__", {}):
        if name.startswith("_") or name == "model_config":
            continue
        default = klass.__dict__.get(name, REQUIRED)
        if type(default).__name__ == "FieldInfo":
            inner = getattr(default, "default", REQUIRED)
            factory = getattr(default, "default_factory", None)
            if factory is not None:
                inner = factory()
            default = REQUIRED if type(inner).__name__ == "PydanticUndefinedType" else inner
        out.append((name, default))
    return out


def _dump(v):
    if isinstance(v, Model):
        return v.model_dump()
    if isinstance(v, list):
        return [_dump(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_dump(x) for x in v)
    if isinstance(v, dict):
        return {k: _dump(x) for k, x in v.items()}
    return v
