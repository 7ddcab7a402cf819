"""The exception classes of tacoreader 2.4 (same names, same bases: all derive from
``TacoError``, which derives from ``Exception``).

Errors of the taco-cpp core are raised as these classes (chained from the
``taco_cpp.errors`` original, available as ``__cause__``):

* I/O failures and missing inputs at load time → ``TacoIOError``
* malformed or unsupported files → ``TacoFormatError``
* bad queries, filters, levels, columns, statistics → ``TacoQueryError``
* failures while navigating with ``read()`` → ``TacoNavigationError``
* schemas that do not fit together (concat) → ``TacoSchemaError``
* unknown or unavailable DataFrame backends → ``TacoBackendError``
"""


class TacoError(Exception):
    """Base of every error of this layer."""


class TacoFormatError(TacoError):
    """An invalid, corrupted or unsupported file."""


class TacoSchemaError(TacoError):
    """Incompatible schemas (e.g. concat of datasets with different structures)."""


class TacoIOError(TacoError):
    """A file that cannot be read: missing, permission denied, network failure."""


class TacoQueryError(TacoError):
    """An invalid query or operation: unknown level or column, bad SQL or filter."""


class TacoNavigationError(TacoError):
    """A failure while navigating the hierarchy with read()."""


class TacoBackendError(TacoError):
    """An unknown or unavailable DataFrame backend."""


__all__ = [
    "TacoBackendError",
    "TacoError",
    "TacoFormatError",
    "TacoIOError",
    "TacoNavigationError",
    "TacoQueryError",
    "TacoSchemaError",
]
