"""filter_datetime(level=1) cascades to the level-0 parents."""
# inputs: nested_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
f = ds.filter_datetime("2023-01-01/2023-02-28", level=1)
# The order of the cascaded rows is not defined upstream: its semi-join runs on DuckDB's
# threads and came back as t1, t0 once on a loaded machine. compat keeps the level-0 order
# (deliberate/tacoreader.toml); the set of parents is compared as is.
ids = f.data["id"].to_pylist()
diffkit.emit({"ids": sorted(ids), "order": ids})
