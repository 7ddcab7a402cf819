"""clear_cache() runs and returns None; loading afterwards works."""
# inputs: flat_zip
# parity: R12 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

r = tacoreader.clear_cache()
diffkit.emit({"ret": r, "n": len(tacoreader.load(f"{W}/flat.tacozip").data)})
