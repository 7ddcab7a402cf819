"""The exceptions taco_cpp raises.

Every failure of the C++ core is a :class:`TacoError` whose message is the line the ``taco``
command prints after ``taco: `` (it names the input and what is wrong with it). Each
subclass is also the matching Python builtin, so ordinary ``except`` clauses work:

==========================  ==========================  =========================
class                       also a                      raised for
==========================  ==========================  =========================
``InvalidArgumentError``    ``ValueError``              bad arguments, values that break a rule (ids, PIT, SQL, ...)
``NotFoundError``           ``FileNotFoundError``       a file, member, column, level or sample that does not exist
``CorruptionError``         ``ValueError``              malformed bytes (bad magic, offsets past the end, bad Parquet/JSON)
``TacoIOError``             ``OSError``                 the operating system or the network failed
``NotSupportedError``       ``NotImplementedError``     a valid input this build cannot handle
``AlreadyExistsError``      ``FileExistsError``         an output path that must not exist
``InternalError``           ``RuntimeError``            a bug in taco-cpp
``SampleNotFoundError``     ``NotFoundError``,          ``read("id")``/``read_bytes``/stats ``id=`` of an id
                            ``KeyError``                that is not there
``SampleIndexError``        ``InvalidArgumentError``,   ``read(n)`` past the end (or a negative position)
                            ``IndexError``
``LevelError``              ``InvalidArgumentError``,   a level the dataset does not have (``level=9``)
                            ``IndexError``
==========================  ==========================  =========================

An SQL error (an unknown table or column, a type error) is an ``InvalidArgumentError``.
"""

import re


class TacoError(Exception):
    """Base class of every error taco_cpp raises."""


class InvalidArgumentError(TacoError, ValueError):
    """An argument or a value that breaks a rule."""


class NotFoundError(TacoError, FileNotFoundError):
    """A file, member, column, level or sample that does not exist."""


class CorruptionError(TacoError, ValueError):
    """Malformed bytes: bad magic, offsets past the end, bad Parquet or JSON."""


class TacoIOError(TacoError, OSError):
    """The operating system or the network failed."""


class NotSupportedError(TacoError, NotImplementedError):
    """A valid input this build of taco-cpp cannot handle."""


class AlreadyExistsError(TacoError, FileExistsError):
    """An output path that must not exist."""


class InternalError(TacoError, RuntimeError):
    """An invariant of taco-cpp does not hold (a bug: please report it)."""


class SampleNotFoundError(NotFoundError, KeyError):
    """No sample with that id (also a ``KeyError``/``LookupError``)."""


class SampleIndexError(InvalidArgumentError, IndexError):
    """A sample position outside the view (also an ``IndexError``)."""


class LevelError(InvalidArgumentError, IndexError):
    """A level the dataset does not have (also an ``IndexError``)."""


# The C++ core's messages use the command line's key syntax (@N = position N); Python keys
# are ints for positions.
_CLI_SYNTAX = [
    (re.compile(r"give a position \(@N\) instead"), "give a position (an int) instead"),
    (re.compile(r"\(use @(\w+) for the sample at position (\w+)\)"), r"(give the int \2 for the sample at position \2)"),
    (re.compile(r"(has no child|no sample) @(\d+)"), r"\1 at position \2"),
]


def _from_core(name: str, message: str):
    """The exception for an error of the C++ core: the class of ``name`` (a StatusCode's),
    refined where a builtin says more (see the table above), with CLI syntax put in Python's
    terms. Called by the native module."""
    for pattern, replacement in _CLI_SYNTAX:
        message = pattern.sub(replacement, message)
    cls = globals().get(name, InternalError)
    if name == "NotFoundError":
        if "Catalog Error" in message or "Binder Error" in message:
            cls = InvalidArgumentError
        elif re.search(r"Level -?\d+ does not exist", message):
            cls = LevelError
        elif "no sample with id" in message:
            cls = SampleNotFoundError
    elif name == "InvalidArgumentError":
        if re.search(r"index -?\d+ (out of range|is negative)", message):
            cls = SampleIndexError
        elif re.search(r"Level -?\d+ does not exist", message):
            cls = LevelError
    return cls(message)


__all__ = [
    "AlreadyExistsError",
    "CorruptionError",
    "InternalError",
    "InvalidArgumentError",
    "LevelError",
    "NotFoundError",
    "NotSupportedError",
    "SampleIndexError",
    "SampleNotFoundError",
    "TacoError",
    "TacoIOError",
]
