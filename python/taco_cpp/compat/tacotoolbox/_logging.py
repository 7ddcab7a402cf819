"""``tacotoolbox.verbose`` and its logging helpers: the "tacotoolbox" Python logger as
upstream configures it, and the taco-cpp core's trace (stderr) at the matching level."""

from __future__ import annotations

import logging

from taco_cpp import _native

_LOGGER = "tacotoolbox"
DEFAULT_FORMAT = "%(levelname)s [%(name)s] %(message)s"


def get_logger(name: str) -> logging.Logger:
    return logging.getLogger(name)


def setup_basic_logging(level: int = logging.INFO, fmt: str | None = None) -> None:
    logger = logging.getLogger(_LOGGER)
    logger.setLevel(level)
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setLevel(level)
        handler.setFormatter(logging.Formatter(fmt or DEFAULT_FORMAT))
        logger.addHandler(handler)
    logger.propagate = False
    _native.set_log_level(2 if level <= logging.DEBUG else 1)


def disable_logging() -> None:
    logger = logging.getLogger(_LOGGER)
    logger.setLevel(logging.CRITICAL + 1)
    _native.set_log_level(0)


def enable_debug_logging() -> None:
    setup_basic_logging(logging.DEBUG)


def verbose(level=True) -> None:
    """True/"info": INFO messages and the core's verbose trace; "debug": DEBUG and the core's
    debug trace (every read and SQL statement); False: nothing."""
    if level is False:
        disable_logging()
    elif level is True or level == "info":
        setup_basic_logging(logging.INFO)
    elif level == "debug":
        setup_basic_logging(logging.DEBUG)
    else:
        raise ValueError(f"Invalid verbose level: {level}. Use True, 'info', 'debug', or False.")
