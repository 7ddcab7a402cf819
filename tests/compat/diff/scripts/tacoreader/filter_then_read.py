"""read() on a filtered dataset uses the filtered rows' positions."""
# inputs: flat_zip
# parity: R27 R30 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip").filter_datetime("2023-02-01/2023-12-31")
diffkit.emit({"first": ds.read(0), "ids": ds.data["id"].to_pylist()})
