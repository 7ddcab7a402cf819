"""load() of a nested ZIP: PIT schema with a FOLDER root and its hierarchy."""
# inputs: nested_zip
# parity: R1 R14 R15 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
p = ds.pit_schema
diffkit.emit({"root": p.root, "hierarchy": p.hierarchy, "max_depth": p.max_depth(), "dict": p.to_dict()})
