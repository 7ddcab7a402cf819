"""Flat views of a .tacocat (8 tiles x 2 sensors x 2 bands in 2 parts): one row per sample."""
# inputs: tacocat
# parity: R57 R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/cat/.tacocat")
n = {f"l{k}": ds.sql(f"SELECT count(*) AS n FROM l{k}").column(0)[0].as_py() for k in (0, 1, 2)}
n["flatten"] = ds.flatten().num_rows
n["distinct_l2"] = ds.sql('SELECT count(DISTINCT ("l2:internal:gdal_vsi")) AS n FROM l2').column(0)[0].as_py()
diffkit.emit(n)
