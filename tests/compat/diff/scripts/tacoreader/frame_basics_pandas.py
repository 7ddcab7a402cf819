"""TacoDataFrame (pandas): len, shape, columns, head, tail, repr footer."""
# inputs: flat_zip
# parity: R41 R42 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
d = ds.data
diffkit.emit({"type": type(d).__name__, "len": len(d), "shape": list(d.shape), "columns": list(d.columns),
              "head": type(d.head()).__name__, "head2": len(d.head(2)), "tail": len(d.tail(3)),
              "footer": repr(d).splitlines()[-1]})
