"""sql() joining two flat views."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.sql('SELECT a."l0:id", count(*) AS n FROM l0 a JOIN l1 b ON a."l0:id" = b."l0:id" GROUP BY 1 ORDER BY 1')
diffkit.emit({"t": t})
