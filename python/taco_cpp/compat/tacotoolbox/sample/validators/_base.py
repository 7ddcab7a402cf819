from __future__ import annotations

from abc import ABC, abstractmethod


class ValidationError(Exception):
    """A sample does not meet a format's requirements."""


class SampleValidator(ABC):
    @abstractmethod
    def validate(self, sample) -> None: ...
