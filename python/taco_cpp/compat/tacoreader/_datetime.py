"""tacoreader 2.4.21's reading of ``filter_datetime`` arguments, turned into the core's syntax.

Upstream parses a string with ``datetime.fromisoformat`` (``"A/B"`` a range, else one value), a
datetime, or a ``(datetime, datetime)`` tuple; naive values are UTC; and then compares by
calendar day (UTC): a single value keeps the rows of that whole day, a range every day from
the start's to the end's, both included. The core reads a date-only string as that whole
UTC day and a date-only range as whole days, inclusive, so the result is handed over as
``"YYYY-MM-DD"`` or ``"YYYY-MM-DD/YYYY-MM-DD"``.
"""

from __future__ import annotations

from datetime import datetime, timezone

from ._exceptions import TacoQueryError


def _utc(d: datetime) -> datetime:
    return d.replace(tzinfo=timezone.utc) if d.tzinfo is None else d.astimezone(timezone.utc)


def _parse(text: str) -> datetime:
    return _utc(datetime.fromisoformat(text.replace("Z", "+00:00")))


def _day(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%d")


def upstream_days(value) -> str:
    """The core range for ``value`` read as tacoreader 2.4.21 reads it (errors included:
    ValueError from fromisoformat, TacoQueryError for reversed ranges and other types)."""
    if isinstance(value, str):
        if "/" in value:
            a, b = value.split("/", 1)
            s, e = int(_parse(a).timestamp()), int(_parse(b).timestamp())
            if s > e:
                raise TacoQueryError(f"Invalid range: start ({a}) > end ({b})")
            return f"{_day(s)}/{_day(e)}"
        return _day(int(_parse(value).timestamp()))
    if isinstance(value, datetime):
        return _day(int(_utc(value).timestamp()))
    if isinstance(value, tuple) and len(value) == 2:
        s, e = int(_utc(value[0]).timestamp()), int(_utc(value[1]).timestamp())
        if s > e:
            raise TacoQueryError("Invalid range: start > end")
        return f"{_day(s)}/{_day(e)}"
    raise TacoQueryError(f"Invalid datetime input: {value}\n"
                         f"Expected: string range, datetime object, or tuple of datetime objects")
