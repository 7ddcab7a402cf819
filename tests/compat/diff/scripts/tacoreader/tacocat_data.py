""".data of a .tacocat: 8 level-0 rows with internal:gdal_vsi into each part."""
# inputs: tacocat
# parity: R57 R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/cat/.tacocat")
d = ds.data
diffkit.emit({"ids": d["id"].to_pylist(), "vsi": d["internal:gdal_vsi"].to_pylist(), "columns": list(d.columns)})
