"""stats_*() errors: band out of range, level without stats, level>0 without id, bad level."""
# inputs: flat_zip, nested_zip
# parity: R38 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

f = tacoreader.load(f"{W}/flat.tacozip")
n = tacoreader.load(f"{W}/nested.tacozip")
diffkit.emit({"band": diffkit.run(f.stats_mean, 9), "bands": diffkit.run(f.stats_mean, [0, 9]),
              "nostats": diffkit.run(n.stats_mean, 0), "noid": diffkit.run(n.stats_mean, 0, level=1),
              "level": diffkit.run(f.stats_mean, 0, level=3)})
