"""use()/get_backend(): the global backend, and an unknown name."""
# inputs: flat_zip
# parity: R10 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {"default": tacoreader.get_backend()}
tacoreader.use("pandas")
out["after"] = tacoreader.get_backend()
out["frame"] = type(tacoreader.load(f"{W}/flat.tacozip").data).__name__
out["bad"] = diffkit.run(tacoreader.use, "nope")
out["still"] = tacoreader.get_backend()
tacoreader.use("pyarrow")
diffkit.emit(out)
