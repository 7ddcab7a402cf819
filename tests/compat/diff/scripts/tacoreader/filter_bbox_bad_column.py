"""filter_bbox() with a geometry column that does not exist."""
# inputs: flat_zip
# parity: R28 R29 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
r = diffkit.run(lambda: ds.filter_bbox(0, 0, 1, 1, geometry_col="nope").data)
diffkit.emit({"class": r.get("exception") if isinstance(r, dict) else r})
