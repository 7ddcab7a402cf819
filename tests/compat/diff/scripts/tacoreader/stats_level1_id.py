"""stats_mean/max(level=1, id=...) aggregate the children of one level-0 sample."""
# inputs: nested_zip
# parity: R35 R37 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
diffkit.emit({"mean": diffkit.run(ds.stats_mean, 0, level=1, id="t1"),
              "max": diffkit.run(ds.stats_max, [0], level=1, id="t2")})
