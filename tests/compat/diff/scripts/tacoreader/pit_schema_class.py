"""tacoreader.schema.PITSchema: construction, validation errors, is_compatible, with_n."""
# inputs: nested_zip, flat_zip
# parity: R49 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from tacoreader.schema import PITSchema

n = tacoreader.load(f"{W}/nested.tacozip").pit_schema
f = tacoreader.load(f"{W}/flat.tacozip").pit_schema
p2 = PITSchema(n.to_dict())
out = {"compat_self": n.is_compatible(p2), "compat_other": n.is_compatible(f), "with_n": n.with_n(9).to_dict(),
       "bad_root": diffkit.run(PITSchema, {"root": {"n": 1, "type": "X"}, "hierarchy": {}}),
       "missing": diffkit.run(PITSchema, {"root": {"n": 1, "type": "FILE"}})}
diffkit.emit(out)
