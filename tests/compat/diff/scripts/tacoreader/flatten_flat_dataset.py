"""flatten() of a flat dataset: level 0 FILE rows."""
# inputs: flat_zip
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
t = ds.flatten()
diffkit.emit({"t": t.sort_by("l0:id")})
