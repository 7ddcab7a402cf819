"""PIT schema of a three-level dataset (FOLDER > FOLDER > FILE)."""
# inputs: deep_zip
# parity: R1 R14 R15 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/deep.tacozip")
p = ds.pit_schema
diffkit.emit({"root": p.root, "hierarchy": p.hierarchy, "max_depth": p.max_depth(), "n": len(ds.data)})
