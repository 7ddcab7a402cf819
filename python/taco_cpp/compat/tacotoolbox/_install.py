"""Registration of this package as ``tacotoolbox`` (used by ``taco_cpp.compat.install``):
every module of the package, imported, under its upstream name (``tacotoolbox.datamodel``,
``tacotoolbox.sample.extensions.stac``, ``tacotoolbox._tacollection``, ...)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

_PREFIX = __name__.rsplit(".", 1)[0]  # taco_cpp.compat.tacotoolbox


def _modules() -> list[str]:
    root = importlib.import_module(_PREFIX)
    names = [""]
    for info in pkgutil.walk_packages(root.__path__, prefix="."):
        if info.name.split(".")[-1] != "_install":
            names.append(info.name)
    return names


def install(name: str = "tacotoolbox", force: bool = False):
    """Make ``import NAME`` (and its submodules) resolve here; refuses to replace another
    module of that name already imported unless ``force``."""
    ours = importlib.import_module(_PREFIX)
    current = sys.modules.get(name)
    if current is not None and current is not ours and not force:
        raise RuntimeError(f"a different {name} module is already imported; "
                           f"call install() before importing it, or install(force=True)")
    for suffix in _modules():
        sys.modules[name + suffix] = importlib.import_module(_PREFIX + suffix)
    return ours


def uninstall(name: str = "tacotoolbox") -> None:
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        mod = sys.modules[key]
        if mod is not None and getattr(mod, "__name__", "").startswith(_PREFIX):
            del sys.modules[key]
