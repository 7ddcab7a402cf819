"""sql() over flat views of a FOLDER dataset."""
# inputs: nested_folder
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested_folder")
diffkit.emit({"t": ds.sql('SELECT "l1:id", "l0:id", "l1:internal:gdal_vsi" FROM l1 ORDER BY 2, 1'),
              "cols": ds.sql("SELECT * FROM l1 LIMIT 0").column_names})
