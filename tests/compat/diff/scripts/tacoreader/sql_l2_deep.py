"""sql() over l2 of a three-level dataset: l2, l1, l0 columns joined."""
# inputs: deep_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/deep.tacozip")
t = ds.sql('SELECT * FROM l2 ORDER BY "l0:id", "l1:id", "l2:id"')
diffkit.emit({"columns": t.column_names, "n": t.num_rows,
              "ids": ds.sql('SELECT "l0:id", "l1:id", "l2:id" FROM l2 ORDER BY 1, 2, 3')})
