""".data_raw keeps every internal:* column (ZIP, FOLDER, TACOCAT)."""
# inputs: flat_zip, flat_folder, tacocat
# parity: R20 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "cat/.tacocat"):
    d = tacoreader.load(f"{W}/{p}").data_raw
    out[p] = {"columns": list(d.columns), "len": len(d)}
diffkit.emit(out)
