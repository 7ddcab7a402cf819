"""read() through a .tacocat: tile > sensor > band paths point into the right part."""
# inputs: tacocat
# parity: R57 R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/cat/.tacocat")
out = {}
for tile in ("tile1", "tile6"):
    s = ds.read(tile)
    b = s.read("s2")
    out[tile] = {"sensors": s["id"].to_pylist(), "bands": b["id"].to_pylist(), "path": b.read("b2.tif")}
diffkit.emit(out)
