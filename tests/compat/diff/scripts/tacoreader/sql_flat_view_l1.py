"""ds.sql() over the flat view l1: "lK:col" names, the pyarrow Table returned at once."""
# inputs: nested_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

ds = tacoreader.load(f"{sys.argv[1]}/nested.tacozip")
t = ds.sql('SELECT "l1:id", "l0:id", "l1:type" FROM l1 ORDER BY "l0:id", "l1:id"')
diffkit.emit({"type": type(t).__module__ + "." + type(t).__name__, "table": t,
              "l1_columns": ds.sql("SELECT * FROM l1 LIMIT 0").column_names})
