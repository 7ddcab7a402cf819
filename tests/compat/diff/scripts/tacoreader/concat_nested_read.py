"""concat() of two nested datasets (distinct files): read() of a FOLDER in the second part."""
# inputs: nested_zip
# parity: R50 R53 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import shutil

shutil.copy(f"{W}/nested.tacozip", f"{W}/nested2.tacozip")
c = tacoreader.concat([tacoreader.load(f"{W}/nested.tacozip"), tacoreader.load(f"{W}/nested2.tacozip")])
k = c.read(5)
diffkit.emit({"n": len(c.data), "kids": k["id"].to_pylist(), "file": k.read(0)})
