"""Argument checks of tacotoolbox's create/create_tacocat (same rules, same error class)."""

from __future__ import annotations

import re

from ._exceptions import TacoValidationError

_UNITS = {"": 1, "B": 1, "K": 1024, "KB": 1024, "M": 1024 ** 2, "MB": 1024 ** 2, "G": 1024 ** 3, "GB": 1024 ** 3}


def parse_size(size_str: str) -> int:
    """"4GB", "512MB", "1.5G", "2048B", "100" → bytes (1024-based; case and spaces ignored)."""
    text = str(size_str).strip().upper()
    m = re.match(r"^(\d+(?:\.\d+)?)\s*(GB?|MB?|KB?|B?)$", text)
    if not m:
        raise ValueError(f"Invalid size format: '{text}'. Use format like '4GB', '512MB', '1024KB', or '2048B'")
    return int(float(m.group(1)) * _UNITS[m.group(2)])


def validate_split_size(size_str) -> int:
    try:
        n = parse_size(size_str)
    except ValueError as e:
        raise TacoValidationError(f"Invalid split_size format: {e}") from e
    if n <= 0:
        raise TacoValidationError(f"split_size must be positive. Requested: {size_str}")
    return n


def validate_format_value(output_format: str) -> None:
    if output_format not in ("zip", "folder"):
        raise TacoValidationError(f"Invalid format: '{output_format}'. Must be 'zip' or 'folder'.")


def validate_output_path(path, output_format: str) -> None:
    if path.exists():
        what = "file" if output_format == "zip" else "directory"
        raise TacoValidationError(f"Output {what} already exists: {path}\nRemove it or choose a different output path.")
