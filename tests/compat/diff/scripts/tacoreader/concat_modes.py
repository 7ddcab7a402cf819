"""concat() column_mode intersection / fill_missing / strict on two loads of one file."""
# inputs: flat_zip
# parity: R51 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

a = tacoreader.load(f"{W}/flat.tacozip")
b = tacoreader.load(f"{W}/flat.tacozip")
out = {}
for m in ("intersection", "fill_missing", "strict"):
    c = tacoreader.concat([a, b], column_mode=m)
    out[m] = [len(c.data), list(c.data.columns)]
out["bad"] = diffkit.run(tacoreader.concat, [a, b], column_mode="nope")
diffkit.emit(out)
