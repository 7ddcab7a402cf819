"""Legacy .taco/.tortilla paths and tacofoundation: names raise TacoFormatError."""
# inputs: flat_zip
# parity: R4 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("old.taco", "old.tortilla", "tacofoundation:sen2naip"):
    try:
        tacoreader.load(f"{W}/{p}" if ":" not in p else p)
        out[p] = "loaded"
    except Exception as e:
        out[p] = type(e).__name__
diffkit.emit(out)
