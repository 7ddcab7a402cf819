from ..tortilla.extensions.geoenrich import GeoEnrich
from ..tortilla.extensions.majortom import MajorTOM

__all__ = ["GeoEnrich", "MajorTOM"]
