from ..taco.datamodel import Curator, Extent, Provider
from ..taco.extensions.labels import LabelClass, Labels
from ..taco.extensions.opticaldata import SUPPORTED_SENSORS, OpticalData, SpectralBand
from ..taco.extensions.scientific import Publication, Publications
from ..taco.extensions.split import SplitStrategy, SplitStrategyType

__all__ = ["Curator", "Extent", "LabelClass", "Labels", "OpticalData", "Provider", "Publication", "Publications",
           "SUPPORTED_SENSORS", "SpectralBand", "SplitStrategy", "SplitStrategyType"]
