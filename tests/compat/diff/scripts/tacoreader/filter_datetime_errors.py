"""filter_datetime(): start after end; unknown level; bad string."""
# inputs: flat_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
cls = lambda r: r.get("exception") if isinstance(r, dict) else "ok"
diffkit.emit({"reversed": cls(diffkit.run(lambda: ds.filter_datetime("2023-12-31/2023-01-01").data)),
              "level": cls(diffkit.run(lambda: ds.filter_datetime("2023-01-01/2023-12-31", level=5).data))})
