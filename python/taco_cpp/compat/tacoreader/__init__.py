"""tacoreader 2.4's public API on the taco-cpp core.

    import taco_cpp.compat.tacoreader as tacoreader     # or: taco_cpp.compat.install()
    ds = tacoreader.load("data.tacozip")
    tdf = ds.filter_datetime("2023-01-01/2023-06-30").data
    path = tdf.read(0)
"""

import logging

from ... import reader as _reader
from ._exceptions import (
    TacoBackendError,
    TacoError,
    TacoFormatError,
    TacoIOError,
    TacoNavigationError,
    TacoQueryError,
    TacoSchemaError,
)
from .concat import concat
from .dataframe import TacoDataFrame, get_available_backends
from .dataset import TacoDataset
from .loader import load

# The tacoreader release whose public API this layer follows.
__version__ = "2.4.21"

_DATAFRAME_BACKEND = "pyarrow"
_logger = logging.getLogger("tacoreader")


def use(backend: str) -> None:
    """Set the DataFrame backend of later ``load()`` calls: "pyarrow", "pandas", "polars"."""
    global _DATAFRAME_BACKEND
    available = get_available_backends()
    if backend not in available:
        raise TacoBackendError(f"Unknown backend: '{backend}'\nAvailable backends: {available}\n\n"
                               f"To use additional backends, install required packages:\n"
                               f"  pip install polars  # For Polars backend\n"
                               f"  pip install pandas  # For Pandas backend")
    _DATAFRAME_BACKEND = backend


def get_backend() -> str:
    """The DataFrame backend ``use()`` selected: "pyarrow" (default), "pandas" or "polars"."""
    return _DATAFRAME_BACKEND


def verbose(level=True) -> None:
    """Logging of this layer: True/"info", "debug", or False."""
    if level is False:
        _logger.setLevel(logging.CRITICAL + 1)
    elif level is True or level == "info":
        _logger.setLevel(logging.INFO)
    elif level == "debug":
        _logger.setLevel(logging.DEBUG)
    else:
        raise ValueError(f"Invalid verbose level: {level}. Use True, 'info', 'debug', or False.")


def clear_cache() -> None:
    """Empty the disk cache of remote metadata."""
    _reader.cache_clear()


# as upstream's (the exception classes stay importable from here and from ._exceptions)
__all__ = ["TacoDataFrame", "TacoDataset", "clear_cache", "concat", "get_backend", "load", "use", "verbose"]
