"""load() of a path that does not exist: the exception class."""
# inputs: flat_zip
# parity: R5 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("nope.tacozip", "nope_dir"):
    try:
        tacoreader.load(f"{W}/{p}")
        out[p] = "loaded"
    except Exception as e:
        out[p] = [type(e).__name__, isinstance(e, tacoreader._exceptions.TacoError) if hasattr(tacoreader, "_exceptions") else None]
diffkit.emit(out)
