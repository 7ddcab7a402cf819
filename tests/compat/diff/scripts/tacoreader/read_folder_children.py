"""read() of a FOLDER: a TacoDataFrame of its children; read() of a child FILE."""
# inputs: nested_zip
# parity: R27 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
kids = ds.read(1)
diffkit.emit({"type": type(kids).__name__, "columns": list(kids.columns), "len": len(kids),
              "file": kids.read(0), "by_id": kids.read("label.tif"), "by_parent_id": ds.read("t2").read(1)})
