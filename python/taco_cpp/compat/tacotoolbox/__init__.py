"""Drop-in for tacotoolbox 0.26.9 on the taco-cpp core.

``taco_cpp.compat.install()`` makes ``import tacotoolbox`` resolve here. The data model
(``datamodel.Sample/Tortilla/Taco``, Provider/Curator/Extent, every extension class with
upstream's arguments, user-written ``SampleExtension``/``TortillaExtension``/
``TacoExtension`` subclasses) behaves as upstream's (``extend_with`` changes the object);
``create``, ``create_tacocat`` and ``create_tacollection`` write through the C++ core. Where
the result differs from what tacotoolbox writes, it is listed with the reason in
``tests/compat/diff/deliberate/tacotoolbox.toml`` and docs/python.md."""

from . import datamodel, validator
from ._logging import disable_logging, setup_basic_logging, verbose
from .create import create
from .docs import generate_html, generate_markdown
from .tacocat import create_tacocat

__version__ = "0.26.9"

__all__ = ["create", "create_tacocat", "datamodel", "generate_html", "generate_markdown", "validator", "verbose"]
