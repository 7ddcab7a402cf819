"""tacoreader.v1.sanity_check: every item read by the user's function, nested ones too."""
# Result: the ids whose read failed (a nested Tortilla's failures as one list), in order
# (max_workers=None).
# inputs: legacy
# parity: R64
import sys

import diffkit
import tacoreader.v1 as v1

W = sys.argv[1]
seen = []


def reader(x):
    seen.append(type(x).__name__)
    if isinstance(x, bytes) and b"nested" in x:
        raise ValueError("bad bytes")
    if isinstance(x, str) and x.startswith("/vsisubfile/") and "_488," in x:
        raise OSError("bad mask")


nested = v1.load(f"{W}/legacy/nested.taco")
diffkit.emit({"failed": v1.sanity_check(nested, reader, max_workers=None), "seen": seen,
              "ok": v1.sanity_check(v1.load(f"{W}/legacy/flat.tortilla"), lambda x: None, max_workers=None)})
