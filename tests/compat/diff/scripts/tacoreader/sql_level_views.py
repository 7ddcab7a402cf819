"""sql() over the level views level0/level1 and data (undocumented but reachable)."""
# inputs: nested_zip
# parity: R23 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
diffkit.emit({"level1": ds.sql("SELECT id, type FROM level1 ORDER BY id LIMIT 3"),
              "data": ds.sql("SELECT id FROM data ORDER BY id"),
              "count": ds.sql("SELECT count(*) AS n FROM level1")})
