"""sql('SELECT * FROM l0'): every level-0 column prefixed l0:, rows, types."""
# inputs: flat_zip
# parity: R22 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
diffkit.emit({"t": ds.sql('SELECT * FROM l0 ORDER BY "l0:id"')})
