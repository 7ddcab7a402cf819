"""concat() adds internal:source_path to data_raw; read() still navigates."""
# inputs: flat_zip
# parity: R50 R53 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

c = tacoreader.concat([tacoreader.load(f"{W}/flat.tacozip"), tacoreader.load(f"{W}/flat.tacozip")])
raw = c.data_raw
diffkit.emit({"has": "internal:source_path" in raw.columns, "read": c.read(7), "ids": c.data["id"].to_pylist()})
