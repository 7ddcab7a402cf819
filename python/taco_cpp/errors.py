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
==========================  ==========================  =========================
"""


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


__all__ = [
    "AlreadyExistsError",
    "CorruptionError",
    "InternalError",
    "InvalidArgumentError",
    "NotFoundError",
    "NotSupportedError",
    "TacoError",
    "TacoIOError",
]
