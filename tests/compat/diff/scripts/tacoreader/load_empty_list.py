"""load([]) raises TacoQueryError."""
# inputs: flat_zip
# parity: R3 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

diffkit.emit({"empty": diffkit.run(tacoreader.load, [])})
