"""flatten(level=K) beyond the deepest level."""
# inputs: nested_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
r = diffkit.run(ds.flatten, 5)
diffkit.emit({"cls": r.get("exception") if isinstance(r, dict) and "exception" in r else "returned"})
