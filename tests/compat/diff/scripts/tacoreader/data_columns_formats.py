""".data columns and row count for ZIP, FOLDER, nested and TACOCAT."""
# inputs: flat_zip, flat_folder, nested_folder, tacocat
# parity: R19 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "nested_folder", "cat/.tacocat"):
    d = tacoreader.load(f"{W}/{p}").data
    out[p] = {"columns": list(d.columns), "shape": list(d.shape)}
diffkit.emit(out)
