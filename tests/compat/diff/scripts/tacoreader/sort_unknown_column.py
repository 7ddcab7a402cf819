"""sort() by a column that does not exist: flatten() raises."""
# inputs: nested_zip
# parity: R25 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
r = diffkit.run(ds.sort("l0:nope").flatten)
diffkit.emit({"raises": isinstance(r, dict) and "exception" in r})
