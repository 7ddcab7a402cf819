"""tacoreader.v1.load(pathlib.Path): the rows of the file (tacoreader.v1 fails on a Path)."""
# inputs: legacy
# parity: R61
import pathlib
import sys

import diffkit
import tacoreader.v1 as v1

W = sys.argv[1]
diffkit.emit({"rows": diffkit.run(lambda: len(v1.load(pathlib.Path(W) / "legacy" / "flat.tortilla")))})
