"""filter_datetime('A/B') on level 0 (stac:time_start)."""
# inputs: flat_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
out = {}
for r in ("2023-01-01/2023-03-01", "2023-02-01/2023-12-31", "2024-01-01/2024-12-31"):
    out[r] = ds.filter_datetime(r).data["id"].to_pylist()
diffkit.emit(out)
