"""filter_bbox() on level 0 (stac:centroid): the surviving ids."""
# inputs: flat_zip
# parity: R28 R29 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
c = ds.data["stac:centroid"]
out = {}
for box in ((-180, -90, 180, 90), (-3.0, 40.0, -2.99, 40.7), (10, 10, 11, 11)):
    out[str(box)] = diffkit.run(lambda: ds.filter_bbox(*box).data["id"].to_pylist())
diffkit.emit(out)
