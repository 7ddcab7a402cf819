"""tacoreader._exceptions: the classes and their bases."""
# inputs: flat_zip
# parity: R54 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from tacoreader import _exceptions as E

names = ["TacoError", "TacoFormatError", "TacoSchemaError", "TacoIOError", "TacoQueryError", "TacoNavigationError",
         "TacoBackendError"]
diffkit.emit({n: [b.__name__ for b in getattr(E, n).__bases__] for n in names})
