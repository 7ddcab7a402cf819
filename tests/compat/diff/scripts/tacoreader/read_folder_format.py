"""read() on a FOLDER dataset: paths are files under DATA/."""
# inputs: nested_folder
# parity: R27 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested_folder")
kids = ds.read(0)
diffkit.emit({"kids": list(kids.columns), "file": kids.read(0), "n": len(kids)})
