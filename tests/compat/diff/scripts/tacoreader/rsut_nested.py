"""is_rsut()/verify_rsut() of a homogeneous nested dataset and a flat one."""
# inputs: nested_zip, flat_zip
# parity: R18 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

n = tacoreader.load(f"{W}/nested.tacozip")
f = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"nested": [n.is_rsut(), n.verify_rsut()], "flat": [f.is_rsut(), f.verify_rsut()]})
