"""flatten() after filter_datetime() keeps only the filtered samples."""
# inputs: nested_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip").filter_datetime("2023-01-01/2023-03-31")
t = ds.flatten()
diffkit.emit({"columns": t.column_names, "rows": t.select(["l0:id", "l1:id"]).sort_by([("l0:id", "ascending"), ("l1:id", "ascending")])})
