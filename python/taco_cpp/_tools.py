"""Tools beside reading and writing: the synthetic demo tree of ``taco demo``."""

from __future__ import annotations

from typing import Any

from . import _native
from ._convert import from_micros, path_text


def demo_tree(directory, tiles: int = 48, size: int = 64) -> list[dict[str, Any]]:
    """Write the GeoTIFF tree of ``taco demo`` into ``directory`` (created if missing):
    ``tile_XX/before.tif`` and ``after.tif`` (4 bands UInt16, 10 m pixels in the tile's UTM
    zone) and ``label.tif`` (1 band Byte, 4 classes), deterministic for the same arguments.

    Returns one dict per tile, in order: ``id`` ("tile_00"), ``lon``/``lat`` (EPSG:4326
    centre), ``time_start``/``time_end`` (UTC datetimes of before.tif and after.tif) and
    ``country``, ready to become sample metadata.
    """
    tiles_made = _native.demo_tree(path_text(directory), int(tiles), int(size))
    out = []
    for t in tiles_made:
        out.append({"id": t["id"], "lon": t["lon"], "lat": t["lat"],
                    "time_start": from_micros(t["time_start_us"]), "time_end": from_micros(t["time_end_us"]),
                    "country": t["country"]})
    return out
