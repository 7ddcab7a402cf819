"""Tools beside reading and writing: the synthetic demo tree of ``taco demo``, the core's log
in Python's :mod:`logging`, and ``publish`` (``taco publish``)."""

from __future__ import annotations

import atexit
import json
import logging
from typing import Any, Sequence

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


# ---- the core's log, in Python's logging ----------------------------------------------------

logger = logging.getLogger("taco_cpp")
_unroute_registered = False
_LEVELS = {"off": 0, "verbose": 1, "info": 1, "debug": 2}


def _to_logging(level: int, line: str) -> None:
    logger.log(logging.DEBUG if level >= 2 else logging.INFO, line)


def set_log_level(level: str | int | bool | None) -> None:
    """Turn the C++ core's trace on or off and route it into Python's :mod:`logging` (logger
    ``"taco_cpp"``): "verbose" (or "info", ``True``, ``logging.INFO``) logs what is opened,
    every HTTP request and the outputs written at INFO; "debug" (``logging.DEBUG``) also every
    file read and SQL statement, at DEBUG; "off" (``None``, ``False``, ``logging.WARNING`` and
    above) stops it. The same lines as ``taco -v`` / ``taco --debug`` print.

    The logger gets no handler from taco_cpp: configure one (``logging.basicConfig(level=
    logging.INFO)``) to see the lines. Lines logged by threads of the core arrive in order, at
    the latest when the call that produced them returns (or on :func:`flush_log`).
    """
    if level is None or level is False:
        native = 0
    elif level is True:
        native = 1
    elif isinstance(level, str):
        if level.lower() not in _LEVELS:
            raise ValueError(f"log level {level!r} is not one of off, verbose, debug")
        native = _LEVELS[level.lower()]
    elif isinstance(level, int):
        native = 2 if level <= logging.DEBUG else 1 if level <= logging.INFO else 0
    else:
        raise TypeError(f"log level is a str, an int or a bool, got {type(level).__name__}")
    if native == 0:
        _native.set_log_level(0)
        _native.set_log_sink(None)
        return
    global _unroute_registered
    if not _unroute_registered:
        # Before the interpreter goes away, the core's lines go back to its own stderr sink.
        atexit.register(_native.set_log_sink, None)
        _unroute_registered = True
    _native.set_log_sink(_to_logging)
    _native.set_log_level(native)


def get_log_level() -> str:
    """The core's log level: "off", "verbose" or "debug"."""
    return ("off", "verbose", "debug")[_native.get_log_level()]


def flush_log() -> None:
    """Hand the lines the core's threads logged so far to :mod:`logging` now."""
    _native.flush_log()


# ---- publish ------------------------------------------------------------------------------


def publish(dataset, outdir, *, publication=None, only: Sequence[str] | str | None = None,
            base_url: str = "", overwrite: bool = False, generated_at: str = "") -> list[str]:
    """Write the dataset's publication files into ``outdir`` (``taco publish``): a STAC
    Collection (stac-collection.json), Croissant (croissant.json), DataCite (datacite.xml,
    datacite.json), a Hugging Face card (README.md) and a self-contained page (index.html).

    ``dataset``: a local ZIP, FOLDER, TACOCAT or TACOLLECTION.json path (or a
    :class:`TacoDataset` opened from one: its path is used; views are not published).
    ``publication``: what TACO does not carry (DOI, creators, publisher, publication date, ...),
    as a dict or the path of a JSON sidecar (docs/cli.md, ``taco publish --publication``).
    ``only``: some of "stac", "croissant", "datacite", "hf", "html". ``base_url``: where the
    container files will be downloaded from. Nothing is invented: a field a standard needs that
    neither the collection nor ``publication`` gives is an ``InvalidArgumentError`` naming it,
    and nothing is written. Files are written atomically; existing ones are an
    ``AlreadyExistsError`` unless ``overwrite``. Returns the paths written.
    """
    path = dataset.path if hasattr(dataset, "_ds") and hasattr(dataset, "path") else path_text(dataset)
    text, source = "", ""
    if isinstance(publication, dict):
        text, source = json.dumps(publication), "publication"
    elif publication is not None:
        source = path_text(publication)
        with open(source, encoding="utf-8") as f:
            text = f.read()
    if only is None:
        only_text = ""
    elif isinstance(only, str):
        only_text = only
    else:
        only_text = ",".join(only)
    return _native.publish(path, path_text(outdir), text, source, base_url or "", only_text, bool(overwrite),
                           generated_at)
