"""``tacotoolbox.datamodel``: Sample, Tortilla, Taco (and the ``sample``, ``tortilla``,
``taco`` modules of extension re-exports)."""

from ..sample.datamodel import Sample
from ..taco.datamodel import Taco
from ..tortilla.datamodel import Tortilla
from . import sample, taco, tortilla

__all__ = ["Sample", "Taco", "Tortilla", "sample", "taco", "tortilla"]
