"""tacoreader.dataframe.get_available_backends()."""
# inputs: flat_zip
# parity: R47 R48 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from tacoreader.dataframe import get_available_backends

diffkit.emit({"backends": get_available_backends()})
