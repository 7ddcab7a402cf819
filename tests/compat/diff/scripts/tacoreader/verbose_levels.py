"""verbose(): True, 'info', 'debug', False accepted; anything else ValueError."""
# inputs: flat_zip
# parity: R11 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

out = {}
for lv in (True, "info", "debug", False, "loud"):
    out[str(lv)] = diffkit.run(tacoreader.verbose, lv)
diffkit.emit(out)
