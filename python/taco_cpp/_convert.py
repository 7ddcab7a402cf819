"""Small conversions of Python arguments for the C++ core (no TACO rules live here)."""

import datetime as _dt
import os

_EPOCH = _dt.datetime(1970, 1, 1)


def path_text(path) -> str:
    """str of a str or os.PathLike (URLs pass unchanged)."""
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    raise TypeError(f"expected a path or URL (str or os.PathLike), got {type(path).__name__}")


def iso_instant(value) -> str:
    """ISO-8601 text of a datetime (aware ones converted to UTC, naive ones taken as UTC),
    a date, or a string (unchanged)."""
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return value.isoformat()
    if isinstance(value, _dt.date):
        return value.isoformat()
    raise TypeError(f"expected a datetime, a date or an ISO-8601 string, got {type(value).__name__}")


def datetime_range(value) -> str:
    """The "A/B" or "A" text the C++ filters take, from a string, a date/datetime or a
    (start, end) tuple."""
    if isinstance(value, tuple):
        if len(value) != 2:
            raise ValueError(f"a datetime range tuple has 2 items (start, end), got {len(value)}")
        return f"{iso_instant(value[0])}/{iso_instant(value[1])}"
    return iso_instant(value)


def to_micros(value) -> int:
    """Microseconds since 1970-01-01 UTC of a datetime (naive = UTC) or a date."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return (value - _EPOCH) // _dt.timedelta(microseconds=1)
    if isinstance(value, _dt.date):
        return (_dt.datetime(value.year, value.month, value.day) - _EPOCH) // _dt.timedelta(microseconds=1)
    raise TypeError(f"expected a datetime or a date, got {type(value).__name__}")


def from_micros(micros: int) -> _dt.datetime:
    """Naive UTC datetime of microseconds since the epoch."""
    return _EPOCH + _dt.timedelta(microseconds=micros)


def sample_key(key):
    """A navigation key: a position (int) or a sample id (str)."""
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        try:
            import numpy as np

            if isinstance(key, np.integer):
                return int(key)
        except ImportError:  # pragma: no cover - numpy is a dependency
            pass
        raise TypeError(f"a sample key is a position (int) or an id (str), got {type(key).__name__}")
    return key
