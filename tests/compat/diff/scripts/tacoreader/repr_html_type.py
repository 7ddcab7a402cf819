"""_repr_html_() and repr() of a dataset return strings."""
# inputs: flat_zip
# parity: R39 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat.tacozip")
h = ds._repr_html_()
diffkit.emit({"html": type(h).__name__, "html_has_id": ds.id in h, "repr": type(repr(ds)).__name__,
              "repr_first": repr(ds).splitlines()[0]})
