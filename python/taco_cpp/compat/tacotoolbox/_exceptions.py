"""The exception classes of tacotoolbox 0.26.9, with the same names and bases, so that
``except TacoValidationError`` in existing scripts keeps working on compat."""

from ...errors import NotSupportedError


class TacoToolboxError(Exception):
    """Base class of every tacotoolbox error."""


class TacoValidationError(TacoToolboxError):
    """An input breaks a rule (existing output, bad split size, reserved name, ...)."""


class TacoCreationError(TacoToolboxError):
    """Writing a container failed."""


class TacoConsolidationError(TacoToolboxError):
    """Building a .tacocat/ failed."""


class TacoSchemaError(TacoToolboxError):
    """Schemas of parts do not agree."""


class TacoIOError(TacoToolboxError):
    """Reading or writing a file failed."""


class TacoDocumentationError(TacoToolboxError):
    """Generating documentation failed."""


class ValidationError(ValueError):
    """Raised where tacotoolbox's pydantic models raise ``pydantic.ValidationError`` (also a
    ValueError): a field of a model is missing or breaks a rule."""


__all__ = [
    "NotSupportedError",
    "TacoConsolidationError",
    "TacoCreationError",
    "TacoDocumentationError",
    "TacoIOError",
    "TacoSchemaError",
    "TacoToolboxError",
    "TacoValidationError",
    "ValidationError",
]
