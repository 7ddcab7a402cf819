"""concat() errors: one dataset, different schemas, different backends."""
# inputs: flat_zip, nested_zip
# parity: R52 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

a = tacoreader.load(f"{W}/flat.tacozip")
n = tacoreader.load(f"{W}/nested.tacozip")
p = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
cls = lambda r: r.get("exception") if isinstance(r, dict) else "ok"
diffkit.emit({"one": diffkit.run(tacoreader.concat, [a]), "schema": cls(diffkit.run(tacoreader.concat, [a, n])),
              "backend": cls(diffkit.run(tacoreader.concat, [a, p]))})
