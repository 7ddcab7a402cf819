"""read() chains through three levels."""
# inputs: deep_zip
# parity: R27 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/deep.tacozip")
a = ds.read("r1")
b = a.read("b")
diffkit.emit({"a": list(a.columns), "a_ids": a["id"].to_pylist(), "b_ids": b["id"].to_pylist(), "leaf": b.read(1)})
