"""DataFrame backends: "pyarrow" (default), "pandas", "polars" (when installed)."""

from .._exceptions import TacoBackendError
from .base import TacoDataFrame
from .pandas import HAS_PANDAS, TacoDataFramePandas
from .polars import HAS_POLARS, TacoDataFramePolars
from .pyarrow import TacoDataFrameArrow

AVAILABLE_BACKENDS = ("pyarrow", "polars", "pandas")
_CLASSES = {"pyarrow": TacoDataFrameArrow, "pandas": TacoDataFramePandas, "polars": TacoDataFramePolars}


def get_available_backends() -> list[str]:
    """The backends usable now (their package is installed)."""
    out = ["pyarrow"]
    if HAS_POLARS:
        out.append("polars")
    if HAS_PANDAS:
        out.append("pandas")
    return out


def frame_class(backend: str):
    if backend not in AVAILABLE_BACKENDS:
        raise TacoBackendError(f"Unknown backend: '{backend}'\nAvailable backends: {get_available_backends()}")
    if backend not in get_available_backends():
        raise TacoBackendError(f"Backend '{backend}' is not available: pip install {backend}")
    return _CLASSES[backend]


def create_dataframe(backend: str, arrow_table, format_type: str, source=None, current_level: int = 0):
    """A frame of `backend` holding `arrow_table`."""
    return frame_class(backend).from_arrow(arrow_table, format_type, source=source, current_level=current_level)


__all__ = ["TacoDataFrame", "TacoDataFrameArrow", "TacoDataFramePandas", "TacoDataFramePolars",
           "create_dataframe", "get_available_backends"]
