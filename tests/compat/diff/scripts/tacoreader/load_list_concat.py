"""load() of a list of two paths concatenates them (intersection of columns)."""
# inputs: flat_zip, flat_folder
# parity: R3 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load([f"{W}/flat.tacozip", f"{W}/flat.tacozip"])
d = ds.data
diffkit.emit({"n": len(d), "columns": list(d.columns), "ids": d["id"].to_pylist(),
              "mixed": diffkit.run(tacoreader.load, [f"{W}/flat.tacozip", f"{W}/flat_folder"])})
