"""Drop-in layers for code written against the upstream TACO Python tools.

``taco_cpp.compat.tacoreader`` follows tacoreader 2.4.21 (``load``, ``concat``, ``TacoDataset``
with ``sql()`` over the flat views ``l0 … lN``, ``flatten``/``sort``/``limit``, the ``.data``
frame with ``read()``, its exception classes, the "pyarrow"/"pandas"/"polars" backends, the
private modules user code imports such as ``_constants``, and ``tacoreader.v1`` for the legacy
Tortilla 0.5 / TACO v1 files) on the taco-cpp core. Further tools register in ``_TOOLS``.

``install()`` makes ``import tacoreader`` (and every ``tacoreader.<submodule>``) resolve to the
drop-in even when the real package is installed: a finder placed first on ``sys.meta_path``
maps ``<tool>[.sub]`` to ``taco_cpp.compat.<tool>[.sub]``. A submodule that the drop-in does
not have raises ModuleNotFoundError (the real package is never mixed in).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# tool name -> the package of its drop-in (toolbox adds "tacotoolbox"/"tacobridge" here)
_TOOLS = {
    "tacoreader": __name__ + ".tacoreader",
    "tacotoolbox": __name__ + ".tacotoolbox",
    "tacobridge": __name__ + ".tacobridge",
}


def _available(tool: str) -> bool:
    try:
        return importlib.util.find_spec(_TOOLS[tool]) is not None
    except ModuleNotFoundError:
        return False


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self._target = target

    def create_module(self, spec):
        return importlib.import_module(self._target)

    def exec_module(self, module):
        pass


class _CompatFinder(importlib.abc.MetaPathFinder):
    """``tool[.x.y]`` → ``taco_cpp.compat.tool[.x.y]`` for the installed tools."""

    def __init__(self):
        self.tools: set[str] = set()

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".", 1)[0]
        if top not in self.tools:
            return None
        real = _TOOLS[top] + fullname[len(top):]
        try:
            found = importlib.util.find_spec(real)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ModuleNotFoundError(f"No module named '{fullname}' (taco_cpp.compat has no {real})", name=fullname)
        spec = importlib.util.spec_from_loader(fullname, _AliasLoader(real), is_package=found.submodule_search_locations is not None)
        return spec


_FINDER = _CompatFinder()


def install(*tools: str, force: bool = False):
    """Make ``import <tool>`` (and its submodules) resolve to ``taco_cpp.compat.<tool>``.
    No argument: every drop-in this build has (tacoreader, and tacotoolbox/tacobridge when
    present). Refuses to replace a real tool already imported unless ``force``. Returns the
    drop-in module when one tool is installed, else a dict tool -> module."""
    names = list(tools) or [t for t in _TOOLS if _available(t)]
    for t in names:
        if t not in _TOOLS:
            raise ValueError(f"unknown tool {t!r}: one of {sorted(_TOOLS)}")
        if not _available(t):
            raise ModuleNotFoundError(f"this build of taco_cpp has no drop-in for {t}")
    installed = {}
    for t in names:
        ours = importlib.import_module(_TOOLS[t])
        current = sys.modules.get(t)
        if current is not None and current is not ours and not force:
            raise RuntimeError(f"a different {t} module is already imported; call install() before importing it, "
                               f"or install(force=True)")
        for name in [n for n in sys.modules if n == t or n.startswith(t + ".")]:
            mod = sys.modules[name]
            if mod is not None and not getattr(mod, "__name__", "").startswith(_TOOLS[t]):
                del sys.modules[name]
        # already imported parts of the drop-in under their public names
        for name, mod in list(sys.modules.items()):
            if name == _TOOLS[t] or name.startswith(_TOOLS[t] + "."):
                sys.modules[t + name[len(_TOOLS[t]):]] = mod
        _FINDER.tools.add(t)
        installed[t] = ours
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    return installed[names[0]] if len(names) == 1 else installed


def uninstall(*tools: str) -> None:
    """Undo :func:`install` for ``tools`` (all when none given)."""
    for t in list(tools) or list(_FINDER.tools):
        _FINDER.tools.discard(t)
        for name in [n for n in sys.modules if n == t or n.startswith(t + ".")]:
            mod = sys.modules[name]
            if mod is not None and getattr(mod, "__name__", "").startswith(_TOOLS[t]):
                del sys.modules[name]
    if not _FINDER.tools and _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


__all__ = ["install", "uninstall"]
