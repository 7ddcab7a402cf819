"""execute(task): copy one planned file (a byte range of a ZIP, or a whole file)."""

from __future__ import annotations

import pathlib
import shutil

from ._exceptions import TacoExecuteError


def execute(task) -> None:
    dest = pathlib.Path(task.dest)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if task.offset is None:
            shutil.copyfile(task.src, dest)
            return
        with open(task.src, "rb") as src, open(dest, "wb") as out:
            src.seek(task.offset)
            left = task.size
            while left:
                chunk = src.read(min(left, 1 << 20))
                if not chunk:
                    raise TacoExecuteError(f"{task.src}: ends before byte {task.offset + task.size}")
                out.write(chunk)
                left -= len(chunk)
    except OSError as e:
        raise TacoExecuteError(f"copy {task.src} -> {task.dest} failed: {e}") from e
