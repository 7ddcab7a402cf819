"""sql() with a user WITH clause referring to a flat view."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.sql('WITH x AS (SELECT "l1:id" AS k, "l0:id" AS p FROM l1) SELECT p, k FROM x WHERE k = \'label.tif\' ORDER BY p')
diffkit.emit({"t": t})
