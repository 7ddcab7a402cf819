"""flatten() of a FOLDER dataset: gdal_vsi paths under DATA/."""
# inputs: nested_folder
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested_folder")
t = ds.flatten()
diffkit.emit({"columns": t.column_names, "rows": t.select(["l0:id", "l1:id", "gdal_vsi"]).sort_by([("l0:id", "ascending"), ("l1:id", "ascending")])})
