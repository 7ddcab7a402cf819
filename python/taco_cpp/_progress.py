"""Progress of long writes (``create``, ``from_directory``, ``export``, ``convert``): the
``progress=`` argument they take becomes a callable ``(done, total)`` for the core.

* ``None`` (default): a bar when someone is watching — tqdm (``tqdm.auto``, so a widget in
  Jupyter) when it is installed, otherwise a one-line bar on stderr when stderr is a terminal;
  nothing otherwise (scripts, logs, CI).
* ``True``: a bar even when stderr is not a terminal; ``False``: nothing.
* a callable: called as ``progress(done, total)`` (at most every 0.1 s, and once with
  ``done == total``); an exception it raises is raised when the write has finished.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Union

ProgressArg = Union[None, bool, Callable[[int, int], object]]


def _in_notebook() -> bool:
    return "ipykernel" in sys.modules


class _TqdmBar:
    def __init__(self, tqdm_cls: Any, what: str, unit: str):
        self._tqdm_cls = tqdm_cls
        self._what = what
        self._unit = unit
        self._bar: Any = None
        self._last = 0

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = self._tqdm_cls(total=total, desc=self._what, unit=self._unit,
                                       unit_scale=self._unit == "B", leave=True)
        self._bar.update(done - self._last)
        self._last = done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class _TerminalBar:
    """``what: [#######-------]  45%  12.3 MB / 27.0 MB`` redrawn in place on stderr."""

    WIDTH = 30

    def __init__(self, what: str, unit: str, stream=None):
        self._what = what
        self._unit = unit
        self._stream = stream if stream is not None else sys.stderr
        self._drawn = False

    def _amount(self, n: int) -> str:
        if self._unit != "B":
            return str(n)
        for scale, name in ((1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "kB")):
            if n >= scale:
                return f"{n / scale:.1f} {name}"
        return f"{n} B"

    def __call__(self, done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        filled = int(self.WIDTH * fraction)
        self._stream.write(f"\r{self._what}: [{'#' * filled}{'-' * (self.WIDTH - filled)}] {fraction:4.0%}  "
                           f"{self._amount(done)} / {self._amount(total)}")
        self._stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self._stream.write("\n")
            self._stream.flush()


class Progress:
    """Context manager: ``with Progress(progress, "create") as callback: native(..., callback)``."""

    def __init__(self, progress: ProgressArg, what: str, unit: str = "B"):
        self._bar: _TqdmBar | _TerminalBar | None = None
        self.callback: Optional[Callable[[int, int], object]] = None
        if progress is False:
            return
        if callable(progress) and progress is not True:
            self.callback = progress
            return
        forced = progress is True
        watching = forced or _in_notebook() or sys.stderr is not None and sys.stderr.isatty()
        if not watching:
            return
        try:
            from tqdm.auto import tqdm
        except ImportError:
            tqdm = None
        if tqdm is not None:
            self._bar = _TqdmBar(tqdm, what, unit)
        elif forced or (sys.stderr is not None and sys.stderr.isatty()):
            self._bar = _TerminalBar(what, unit)
        self.callback = self._bar

    def __enter__(self):
        return self.callback

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.close()
