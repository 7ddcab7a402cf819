"""flatten(): every FILE of the deepest level with ancestors' columns and gdal_vsi."""
# inputs: nested_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.flatten()
diffkit.emit({"columns": t.column_names, "n": t.num_rows,
              "rows": t.select(["l1:id", "l0:id", "gdal_vsi"]).sort_by([("l0:id", "ascending"), ("l1:id", "ascending")])})
