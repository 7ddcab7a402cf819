"""field_schema and collection of a dataset (keys, values)."""
# inputs: nested_zip
# parity: R16 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
c = ds.collection
c["id"] = "changed"
diffkit.emit({"field_schema": ds.field_schema, "keys": sorted(ds.collection), "copy": ds.collection["id"]})
