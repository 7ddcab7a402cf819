"""``tacoreader.v1`` (tacoreader 2.4.21's reader of the legacy Tortilla 0.5 / TACO v1 BLOB
files) on the taco-cpp core: ``load``, ``load_metadata``, ``compile``, ``sanity_check`` and
``TortillaDataFrame``, with the same results. Each file's header is parsed and checked by the
core's legacy reader (``taco_cpp.info``: layout P3/P2, footer and COLLECTION ranges inside the
file); the footer Parquet is then read from that range with pyarrow, as upstream presents it
(stored columns, ``internal:subfile`` added, columns ordered ``internal:``, ``tortilla:``,
``stac:``, ``rai:``, rest). No ``tacofoundation:`` catalogue (it needs the network): such a
name raises NotImplementedError."""

from ._frame import TortillaDataFrame, TortillaDataSeries
from .compile import compile
from .loader import load, load_metadata
from .sanity import sanity_check

__all__ = ["load", "load_metadata", "compile", "sanity_check", "TortillaDataFrame"]
