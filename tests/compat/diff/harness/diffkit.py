"""JSON encoding of script results for the differential suite (`import diffkit` in a script).

A script collects what it observed into a dict and ends with `diffkit.emit(result)`, which
prints ONE JSON document. `diffkit.enc(x)` turns what the tools return into plain JSON with
the type kept, so that the two runs compare exactly:

  pyarrow Table / RecordBatch  {"type": "pyarrow.Table", "columns": [...], "dtypes": [...], "rows": [[...]]}
  pandas DataFrame / Series    {"type": "pandas.DataFrame", "columns", "dtypes", "index", "rows"}
  polars DataFrame / Series    {"type": "polars.DataFrame", "columns", "dtypes", "rows"}
  numpy array / scalar         {"type": "numpy.ndarray", "dtype", "shape", "values"}
  bytes                        {"type": "bytes", "len", "sha256"}
  float                        repr() (exact, NaN/inf kept)
  datetime/date/Decimal/...    {"type": "<class>", "repr": ...}
  an exception                 {"exception": "<class name>", "message": str(e)}
  anything else                {"type": "<module.class>"} (the type only)

`diffkit.run(fn, *a, **kw)` calls fn and gives enc(result) or the exception's encoding, so a
script can record "this raises X" without a try block. `diffkit.rows(x)` gives only the rows.
"""

from __future__ import annotations

import datetime as _dt
import decimal as _decimal
import hashlib as _hashlib
import json as _json
import math as _math
import sys as _sys


def _tname(x) -> str:
    t = type(x)
    mod = t.__module__.split(".")[0]
    return f"{mod}.{t.__qualname__}" if mod != "builtins" else t.__qualname__


def exc(e: BaseException) -> dict:
    return {"exception": type(e).__name__, "message": str(e)}


def _float(v: float):
    if _math.isnan(v) or _math.isinf(v):
        return {"float": repr(v)}
    return v


def _scalar(v):
    """A cell value of a frame."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        return {"bytes": b.hex() if len(b) <= 64 else _hashlib.sha256(b).hexdigest(), "len": len(b)}
    if isinstance(v, (list, tuple)):
        return [_scalar(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _scalar(x) for k, x in v.items()}
    return enc(v)


def enc(x):
    """Plain JSON for x (see the module doc)."""
    if isinstance(x, BaseException):
        return exc(x)
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return _float(x)
    if isinstance(x, (bytes, bytearray, memoryview)):
        b = bytes(x)
        return {"type": "bytes", "len": len(b), "sha256": _hashlib.sha256(b).hexdigest()}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    if isinstance(x, dict):
        return {str(k): enc(v) for k, v in x.items()}
    if isinstance(x, (set, frozenset)):
        return {"type": type(x).__name__, "values": sorted(enc(v) for v in x)}
    if isinstance(x, _dt.datetime):
        return {"type": "datetime", "repr": x.isoformat()}
    if isinstance(x, _dt.date):
        return {"type": "date", "repr": x.isoformat()}
    if isinstance(x, _dt.timedelta):
        return {"type": "timedelta", "repr": repr(x)}
    if isinstance(x, _decimal.Decimal):
        return {"type": "Decimal", "repr": str(x)}
    mod = type(x).__module__.split(".")[0]
    if mod == "pyarrow":
        return _arrow(x)
    if mod == "pandas":
        return _pandas(x)
    if mod == "polars":
        return _polars(x)
    if mod == "numpy":
        return _numpy(x)
    return {"type": _tname(x)}


def _arrow(x):
    import pyarrow as pa

    if isinstance(x, (pa.Table, pa.RecordBatch)):
        return {"type": "pyarrow." + type(x).__name__, "columns": list(x.column_names),
                "dtypes": [str(t) for t in x.schema.types],
                "rows": [[_scalar(v) for v in r.values()] for r in x.to_pylist()]}
    if isinstance(x, (pa.Array, pa.ChunkedArray)):
        return {"type": "pyarrow." + type(x).__name__, "dtype": str(x.type), "values": [_scalar(v) for v in x.to_pylist()]}
    if isinstance(x, pa.Scalar):
        return {"type": "pyarrow.Scalar", "dtype": str(x.type), "value": _scalar(x.as_py())}
    if isinstance(x, pa.Schema):
        return {"type": "pyarrow.Schema", "names": x.names, "types": [str(t) for t in x.types]}
    return {"type": _tname(x)}


def _pandas(x):
    import pandas as pd

    if isinstance(x, pd.DataFrame):
        return {"type": "pandas.DataFrame", "columns": [str(c) for c in x.columns],
                "dtypes": [str(t) for t in x.dtypes], "index": [_scalar(_py(v)) for v in x.index.tolist()],
                "rows": [[_scalar(_py(v)) for v in row] for row in x.itertuples(index=False, name=None)]}
    if isinstance(x, pd.Series):
        return {"type": "pandas.Series", "name": str(x.name), "dtype": str(x.dtype),
                "index": [_scalar(_py(v)) for v in x.index.tolist()], "values": [_scalar(_py(v)) for v in x.tolist()]}
    if isinstance(x, pd.Timestamp):
        return {"type": "pandas.Timestamp", "repr": x.isoformat()}
    return {"type": _tname(x)}


def _polars(x):
    import polars as pl

    if isinstance(x, pl.DataFrame):
        return {"type": "polars.DataFrame", "columns": list(x.columns), "dtypes": [str(t) for t in x.dtypes],
                "rows": [[_scalar(v) for v in r] for r in x.rows()]}
    if isinstance(x, pl.Series):
        return {"type": "polars.Series", "name": x.name, "dtype": str(x.dtype), "values": [_scalar(v) for v in x.to_list()]}
    return {"type": _tname(x)}


def _numpy(x):
    import numpy as np

    if isinstance(x, np.ndarray):
        return {"type": "numpy.ndarray", "dtype": str(x.dtype), "shape": list(x.shape),
                "values": _scalar(x.tolist())}
    if isinstance(x, np.generic):
        return {"type": "numpy." + type(x).__name__, "value": _scalar(x.item())}
    return {"type": _tname(x)}


def _py(v):
    """numpy/pandas cell → Python value."""
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            return v.item()
        except (ValueError, AttributeError):
            pass
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return v.tolist()
    if type(v).__name__ in ("Timestamp", "NaTType"):
        return {"type": "pandas.Timestamp", "repr": str(v)}
    return v


def rows(x):
    """Only the rows of a frame (list of lists)."""
    return enc(x)["rows"]


def run(fn, *args, **kwargs):
    """enc(fn(*args, **kwargs)), or the encoding of the exception it raised."""
    try:
        return enc(fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return exc(e)


def emit(result) -> None:
    """Print the one JSON document of the script."""
    _sys.stdout.write(_json.dumps(enc(result), sort_keys=True, ensure_ascii=True, indent=1))
    _sys.stdout.write("\n")
    _sys.stdout.flush()
