"""flatten() of a flat dataset: level 0 FILE rows."""
# inputs: flat_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
t = ds.flatten()
diffkit.emit({"t": t.sort_by("l0:id")})
