"""Wrong uses that mypy must reject (ctest python_typing expects exactly the errors marked
`# error:` here): proof that the stubs and annotations are what mypy checks."""

import taco_cpp
from taco_cpp import _native

_native.set_log_level("debug")  # error: arg-type (the stub says int)
count: str = _native.get_log_level()  # error: assignment (int)
ident: int = taco_cpp.load("x.tacozip").id  # error: assignment (str)
taco_cpp.create(taco_cpp.load("x.tacozip"), "y.tacozip")  # error: arg-type (a Taco, not a TacoDataset)
_native.no_such_function()  # error: attr-defined
