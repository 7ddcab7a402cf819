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


# DuckDB's error kinds (the prefix of its messages) -> the duckdb exception class upstream lets
# through from sql()/flatten()
_DUCKDB_KINDS = {
    "Catalog Error": "CatalogException",
    "Parser Error": "ParserException",
    "Binder Error": "BinderException",
    "Conversion Error": "ConversionException",
    "Invalid Input Error": "InvalidInputException",
    "Out of Range Error": "OutOfRangeException",
}


def duckdb_error(message: str):
    """The exception tacoreader 2.4.21 raises for a failed SQL statement: its DuckDB lets the
    duckdb.<Kind>Exception through. That class when the duckdb package is installed (it is
    wherever tacoreader was), else TacoQueryError."""
    kind = next((k for k in _DUCKDB_KINDS if k + ":" in message), None)
    text = message[message.index(kind):] if kind else message
    try:
        import duckdb
    except ImportError:
        return tr.TacoQueryError(text)
    cls = getattr(duckdb, _DUCKDB_KINDS[kind], None) if kind else None
    return (cls or duckdb.Error)(text)


@contextlib.contextmanager
def sql_errors():
    """Core errors of a user SQL statement re-raised as upstream's (see duckdb_error)."""
    try:
        yield
    except core.TacoError as e:
        raise duckdb_error(str(e)) from e
