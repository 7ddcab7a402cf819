"""pandas backend: to_pandas, query, sort_values, iloc via the frame."""
# inputs: flat_zip
# parity: R44 R46 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip", backend="pandas")
d = ds.data
pdf = d.to_pandas()
q = d.query("cloud_cover > 20")
s = d.sort_values("cloud_cover", ascending=False)
diffkit.emit({"pdf": type(pdf).__name__, "q": [type(q).__name__, len(q)], "s": type(s).__name__,
              "s_first": (s.to_pandas() if hasattr(s, "to_pandas") else s)["id"].tolist()[0]})
