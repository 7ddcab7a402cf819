"""load([]) raises TacoQueryError."""
# inputs: flat_zip
import sys

import diffkit
import tacoreader

W = sys.argv[1]

diffkit.emit({"empty": diffkit.run(tacoreader.load, [])})
