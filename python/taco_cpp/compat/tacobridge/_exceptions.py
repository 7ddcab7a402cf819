"""The exception classes of tacobridge 0.3.0 (same names and bases)."""


class TacoBridgeError(Exception):
    """Base class of every tacobridge error."""


class TacoPlanError(TacoBridgeError):
    """Planning failed before any work started (missing input, existing output, ...)."""


class TacoExecuteError(TacoBridgeError):
    """One copy task failed (safe to retry)."""


class TacoFinalizeError(TacoBridgeError):
    """Writing the metadata of a plan failed."""
