"""sql() filtering level-2 rows by a level-0 column."""
# inputs: deep_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/deep.tacozip")
t = ds.sql('SELECT "l2:id", "l1:id" FROM l2 WHERE "l0:id" = \'r1\' ORDER BY 2, 1')
diffkit.emit({"t": t})
