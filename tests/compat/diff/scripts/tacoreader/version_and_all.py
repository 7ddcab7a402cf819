"""__version__ and the names of __all__."""
# inputs: flat_zip
# parity: R13 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

diffkit.emit({"version": tacoreader.__version__, "all": sorted(tacoreader.__all__)})
