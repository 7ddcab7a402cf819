"""limit(0) gives an empty flatten() with the same columns."""
# inputs: nested_zip
# parity: R26 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.limit(0).flatten()
diffkit.emit({"n": t.num_rows, "columns": t.column_names})
