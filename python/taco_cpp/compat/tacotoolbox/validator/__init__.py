"""``tacotoolbox.validator``: TacotiffValidator checks a FILE sample's GeoTIFF (GDAL):
tiled, ZSTD, TILE interleave, no overviews."""

from ..sample.validators.tacotiff import TacotiffValidator
from ..sample.validators._base import SampleValidator, ValidationError

__all__ = ["SampleValidator", "TacotiffValidator", "ValidationError"]
