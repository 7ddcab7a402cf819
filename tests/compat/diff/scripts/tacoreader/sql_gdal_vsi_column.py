"""sql() exposes lK:internal:gdal_vsi and the other internal columns of the flat views."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.sql('SELECT * FROM l1 LIMIT 0')
v = ds.sql('SELECT "l1:internal:gdal_vsi" AS v FROM l1 ORDER BY 1')
diffkit.emit({"columns": t.column_names, "v": v})
