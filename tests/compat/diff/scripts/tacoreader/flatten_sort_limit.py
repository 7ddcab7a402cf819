"""sort(by) + limit(n) + flatten(): order and row count, chaining returns the dataset."""
# inputs: nested_zip
# parity: R24 R25 R26 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
s = ds.sort("l0:id", descending=True)
same = s is ds
t = s.limit(3).flatten()
diffkit.emit({"same": same, "ids": t.select(["l0:id"]).column(0).to_pylist(), "n": t.num_rows})
