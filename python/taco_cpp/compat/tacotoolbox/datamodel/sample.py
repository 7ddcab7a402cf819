from ..sample.extensions.geotiff_stats import GeotiffStats
from ..sample.extensions.istac import ISTAC
from ..sample.extensions.scaling import Scaling
from ..sample.extensions.split import Split
from ..sample.extensions.stac import STAC
from ..sample.extensions.tacotiff import Header as TACOTIFFHeader

__all__ = ["GeotiffStats", "ISTAC", "STAC", "Scaling", "Split", "TACOTIFFHeader"]
