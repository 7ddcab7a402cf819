"""flatten(level=K) for each level of a three-level dataset."""
# inputs: deep_zip
# parity: R24 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/deep.tacozip")
out = {}
for lv in (None, 0, 1, 2):
    t = ds.flatten(level=lv)
    out[str(lv)] = [t.column_names, t.num_rows]
diffkit.emit(out)
