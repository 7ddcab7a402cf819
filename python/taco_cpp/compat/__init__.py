"""Drop-in layers for code written against other TACO readers.

``taco_cpp.compat.tacoreader`` has the public API of tacoreader 2.4 (``load``, ``concat``,
``TacoDataset``, the ``.data`` frame with ``read()``, its exception classes, the
"pyarrow"/"pandas"/"polars" backends) on the taco-cpp core. ``install()`` registers it as
``tacoreader`` in ``sys.modules``, so that ``import tacoreader`` in existing code and
notebooks gets it.
"""

import importlib
import sys

# Submodules of tacoreader that user code imports, and where they live here.
_MODULES = (
    "",
    "._exceptions",
    ".dataset",
    ".dataframe",
    ".dataframe.base",
    ".schema",
    ".concat",
    ".loader",
)


def install(force: bool = False):
    """Make ``import tacoreader`` (and its public submodules) resolve to
    ``taco_cpp.compat.tacoreader``. Refuses to replace a real tacoreader that is already
    imported unless ``force``. Returns the module."""
    current = sys.modules.get("tacoreader")
    ours = importlib.import_module(__name__ + ".tacoreader")
    if current is not None and current is not ours and not force:
        raise RuntimeError("a different tacoreader module is already imported; "
                           "call install() before importing it, or install(force=True)")
    for suffix in _MODULES:
        sys.modules["tacoreader" + suffix] = importlib.import_module(ours.__name__ + suffix)
    return ours


def uninstall() -> None:
    """Undo :func:`install` (only the entries that point at this layer)."""
    for suffix in _MODULES:
        mod = sys.modules.get("tacoreader" + suffix)
        if mod is not None and mod.__name__.startswith(__name__ + ".tacoreader"):
            del sys.modules["tacoreader" + suffix]


__all__ = ["install", "uninstall"]
