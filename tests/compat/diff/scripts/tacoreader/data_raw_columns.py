""".data_raw keeps every internal:* column (ZIP, FOLDER, TACOCAT)."""
# inputs: flat_zip, flat_folder, tacocat
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "cat/.tacocat"):
    d = tacoreader.load(f"{W}/{p}").data_raw
    out[p] = {"columns": list(d.columns), "len": len(d)}
diffkit.emit(out)
