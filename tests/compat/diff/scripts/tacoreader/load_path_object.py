"""load() accepts a pathlib.Path and a one-element list (unwrapped)."""
# inputs: flat_zip
# parity: R2 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import pathlib

a = tacoreader.load(pathlib.Path(W) / "flat.tacozip")
b = tacoreader.load([f"{W}/flat.tacozip"])
diffkit.emit({"a": [type(a).__name__, a.id, len(a.data)], "b": [type(b).__name__, b.id, len(b.data)]})
