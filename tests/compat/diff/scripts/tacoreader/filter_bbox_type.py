"""filter_bbox() returns a TacoDataset; its pit_schema n follows the filter."""
# inputs: flat_zip
# parity: R28 R29 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
f = ds.filter_bbox(-180, -90, 180, 90)
diffkit.emit({"type": type(f).__name__, "n": len(f.data), "pit_n": f.pit_schema.root["n"]})
