"""tacoreader.dataframe.get_available_backends()."""
# inputs: flat_zip
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from tacoreader.dataframe import get_available_backends

diffkit.emit({"backends": get_available_backends()})
