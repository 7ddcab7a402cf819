"""sort(by) ascending on a level-1 column."""
# inputs: nested_zip
# parity: R24 R25 R26 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
t = ds.sort("l1:stac:time_start").flatten()
diffkit.emit({"t": t.select(["l1:id", "l0:id", "l1:stac:time_start"])})
