"""internal:gdal_vsi forms for ZIP, FOLDER and TACOCAT rows."""
# inputs: flat_zip, flat_folder, tacocat
# parity: R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for p in ("flat.tacozip", "flat_folder", "cat/.tacocat"):
    out[p] = tacoreader.load(f"{W}/{p}").data["internal:gdal_vsi"].to_pylist()[:3]
diffkit.emit(out)
