"""sql() with GROUP BY over a flat view."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
diffkit.emit({"t": ds.sql('SELECT "l0:id" AS parent, count(*) AS n FROM l1 GROUP BY 1 ORDER BY 1')})
