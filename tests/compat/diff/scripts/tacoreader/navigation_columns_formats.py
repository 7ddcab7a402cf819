"""navigation_columns() and navigation_columns(describe=True) per format."""
# inputs: flat_zip, flat_folder, tacocat
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "cat/.tacocat"):
    ds = tacoreader.load(f"{W}/{p}")
    out[p] = [ds.navigation_columns(), ds.navigation_columns(describe=True)]
diffkit.emit(out)
