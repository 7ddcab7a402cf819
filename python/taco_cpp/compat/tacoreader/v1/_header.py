"""The header of a legacy file (or of a TORTILLA nested at an offset), checked by the core."""

from __future__ import annotations

import pathlib

from .... import reader as _reader
from ....errors import TacoError

TORTILLA_OR_TACO = "Invalid file type: must be a Tortilla \U0001fad3 or a TACO \U0001f32e"
TACO_ONLY = "Invalid file type: must be a TACO \U0001f32e"


def local_path(path) -> str:
    """The local file behind ``path`` (a path or a GDAL /vsi path of a local file)."""
    text = str(path)
    if pathlib.Path(text).is_file():
        return text
    raise ValueError(f"File does not exist or unsupported protocol: {text}. Supported protocols: s3, gs, az, oss, "
                     "swift, http, https, ftp, and hf.")


def part_of(path: str) -> dict:
    """The core's description of the legacy file ``path``: footer and COLLECTION ranges.
    ValueError (upstream's message) when the file is not a Tortilla or a TACO v1."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic not in (b"#y", b"WX"):
        raise ValueError(TORTILLA_OR_TACO)
    try:
        info = _reader.info(path)
    except TacoError as e:
        raise ValueError(f"{TORTILLA_OR_TACO}: {e}") from e
    parts = info.get("parts") or []
    here = pathlib.Path(path).resolve()
    for p in parts:
        if pathlib.Path(p["path"]).resolve() == here:
            return p
    if len(parts) == 1:
        return parts[0]
    raise ValueError(TORTILLA_OR_TACO)


def nested_footer_range(path: str, offset: int) -> tuple[int, int]:
    """Footer (absolute offset, length) of the TORTILLA whose header starts at ``offset``."""
    with open(path, "rb") as f:
        f.seek(offset)
        head = f.read(18)
    if head[:2] not in (b"#y", b"WX"):
        raise ValueError("Invalid file type: must be either a Tortilla \U0001fad3 or a TACO \U0001f32e")
    return offset + int.from_bytes(head[2:10], "little"), int.from_bytes(head[10:18], "little")


def read_range(path: str, offset: int, length: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(length)
    if len(data) != length:
        raise ValueError(f"{path}: ends before byte {offset + length}")
    return data
