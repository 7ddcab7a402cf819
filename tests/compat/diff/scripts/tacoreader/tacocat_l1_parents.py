"""Each level-1 row of a .tacocat flat view carries its own tile's columns."""
# inputs: tacocat
# parity: R57 R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/cat/.tacocat")
t = ds.sql('SELECT "l0:id", "l1:id" FROM l1 ORDER BY 1, 2')
diffkit.emit({"rows": t.num_rows, "pairs": diffkit.rows(t)[:6]})
