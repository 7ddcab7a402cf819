"""taco_cpp: TACO datasets (AI-ready Earth Observation data) from Python, on the taco-cpp
C++ core.

Reading::

    import taco_cpp
    ds = taco_cpp.load("s2.tacozip")              # ZIP, FOLDER, TACOCAT, URL, or a list
    view = ds.filter_bbox(-5, 35, 5, 45).filter_datetime("2023-01-01/2023-06-30")
    table = view.data                             # pyarrow.Table (Arrow C stream, no copies)
    path = view.read(0, "image.tif")              # GDAL path of a FILE sample

Writing::

    from taco_cpp import Sample, Tortilla, Taco, create
    taco = Taco(Tortilla([Sample("a", "a.tif")]), id="x", dataset_version="1", ...)
    create(taco, "x.tacozip")

tacoreader users: ``import taco_cpp.compat.tacoreader as tacoreader`` (or
``taco_cpp.compat.install()`` once, then ``import tacoreader``).
"""

import os as _os

# An installed wheel carries PROJ's proj.db and GDAL's data files for the libproj and libgdal it
# bundles (python/wheel_from_build.cmake); point them there unless the user chose otherwise. A
# build tree (`make`) has no _data/ and uses the system's.
_DATA = _os.path.join(_os.path.dirname(__file__), "_data")
if _os.path.isdir(_DATA):
    _os.environ.setdefault("PROJ_DATA", _os.path.join(_DATA, "proj"))
    _os.environ.setdefault("PROJ_LIB", _os.environ["PROJ_DATA"])
    _os.environ.setdefault("GDAL_DATA", _os.path.join(_DATA, "gdal"))

from . import _native  # noqa: E402 - after the data paths, which the core reads when it loads
from .errors import (
    AlreadyExistsError,
    CorruptionError,
    InternalError,
    InvalidArgumentError,
    NotFoundError,
    NotSupportedError,
    TacoError,
    TacoIOError,
)
from ._pit import PitSchema
from ._tools import demo_tree, flush_log, get_log_level, publish, set_log_level
from .reader import (
    TacoDataset,
    TacoFrame,
    ValidationReport,
    cache_clear,
    cache_info,
    concat,
    gdal_path,
    info,
    load,
    validate,
)
from .writer import (
    Field,
    GeotiffStats,
    Istac,
    MajorTom,
    Sample,
    SampleExtension,
    Scaling,
    SpatialGrouping,
    Split,
    Stac,
    Taco,
    Tortilla,
    TortillaExtension,
    convert,
    create,
    export,
    from_directory,
    labels,
    optical_data,
    publications,
    split_strategy,
    tacocat,
    tacollection,
)

__version__ = _native.__version__
TACO_SPEC_VERSION = _native.TACO_SPEC_VERSION

__all__ = [
    "AlreadyExistsError", "CorruptionError", "Field", "GeotiffStats", "InternalError", "InvalidArgumentError",
    "Istac", "MajorTom", "NotFoundError", "NotSupportedError", "PitSchema", "Sample", "SampleExtension", "Scaling",
    "SpatialGrouping", "Split", "Stac", "Taco", "TacoDataset", "TacoError", "TacoFrame", "TacoIOError", "Tortilla",
    "TortillaExtension", "ValidationReport", "cache_clear", "cache_info", "concat", "convert", "create",
    "demo_tree", "export", "flush_log", "from_directory", "gdal_path", "get_log_level", "info", "labels", "load",
    "optical_data", "publications", "publish", "set_log_level", "split_strategy", "tacocat", "tacollection",
    "validate", "__version__",
]
