"""load() of a directory without COLLECTION.json: the exception class."""
# inputs: flat_zip
# parity: R5 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import os

os.makedirs(f"{W}/empty_dir")
try:
    tacoreader.load(f"{W}/empty_dir")
    out = "loaded"
except Exception as e:
    out = type(e).__name__
diffkit.emit({"empty_dir": out})
