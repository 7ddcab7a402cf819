"""``tacotoolbox._tacollection.create_tacollection``: the TACOLLECTION.json of several
datasets (summed PIT, merged extent, ``taco:sources``), built by the core."""

from __future__ import annotations

import pathlib
from typing import Sequence

from taco_cpp import _native
from taco_cpp.errors import TacoError

from ._exceptions import TacoValidationError


def create_tacollection(inputs: Sequence, output=None, validate_schema: bool = True) -> None:
    """Write the collection of ``inputs`` to ``output`` (default: ``TACOLLECTION.json`` in
    the inputs' common directory)."""
    paths = [pathlib.Path(p) for p in inputs]
    if not paths:
        raise TacoValidationError("No input files provided")
    if output is None:
        dirs = {p.resolve().parent for p in paths}
        if len(dirs) > 1:
            raise TacoValidationError("All input files must be in the same directory when output is not given")
        output = dirs.pop() / "TACOLLECTION.json"
    out = pathlib.Path(output)
    if out.is_dir():
        out = out / "TACOLLECTION.json"
    try:
        _native.tacollection([str(p) for p in paths], str(out), bool(validate_schema), bool(validate_schema))
    except TacoError as e:
        raise TacoValidationError(str(e)) from e
    return None
