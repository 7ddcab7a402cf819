"""Errors of the taco-cpp core → tacoreader's exception classes, by what was being done."""

import contextlib

from ... import errors as core
from . import _exceptions as tr


@contextlib.contextmanager
def translated(context: str):
    """Re-raise taco_cpp errors as the tacoreader class for `context` ("load", "query",
    "navigation", "concat")."""
    try:
        yield
    except core.TacoError as e:
        raise _convert(e, context) from e


def _convert(e: core.TacoError, context: str) -> tr.TacoError:
    msg = str(e)
    if isinstance(e, core.TacoIOError):
        return tr.TacoIOError(msg)
    if context == "load":
        if isinstance(e, core.NotFoundError):
            return tr.TacoIOError(msg)
        return tr.TacoFormatError(msg)
    if isinstance(e, core.CorruptionError):
        return tr.TacoFormatError(msg)
    if context == "navigation":
        return tr.TacoNavigationError(msg)
    if context == "concat":
        return tr.TacoSchemaError(msg)
    return tr.TacoQueryError(msg)
