"""read() with a position out of range, a negative one, an unknown id: TacoNavigationError."""
# inputs: flat_zip
# parity: R27 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"big": diffkit.run(ds.read, 99), "neg": diffkit.run(ds.read, -1), "id": diffkit.run(ds.read, "zz"),
              "frame_big": diffkit.run(ds.data.read, 6)})
