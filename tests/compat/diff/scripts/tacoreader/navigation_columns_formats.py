"""navigation_columns() and navigation_columns(describe=True) per format."""
# inputs: flat_zip, flat_folder, tacocat
# parity: R21 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "cat/.tacocat"):
    ds = tacoreader.load(f"{W}/{p}")
    out[p] = [ds.navigation_columns(), ds.navigation_columns(describe=True)]
diffkit.emit(out)
