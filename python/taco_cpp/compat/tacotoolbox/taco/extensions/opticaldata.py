"""optical:sensor, optical:bands, optical:num_bands. Band tables of the known sensors come
from the taco-cpp core (``taco_cpp.optical_data``); custom ``bands`` are taken as given."""

from __future__ import annotations

import json

import pyarrow as pa

from taco_cpp import _native
from ..._model import REQUIRED, Model
from ..datamodel import TacoExtension

SUPPORTED_SENSORS = ["landsat1mss", "landsat2mss", "landsat3mss", "landsat4mss", "landsat5mss", "landsat4tm",
                     "landsat5tm", "landsat7etm", "landsat8oli", "landsat9oli", "sentinel2msi", "eo1ali", "aster",
                     "modis"]


class SpectralBand(Model):
    _fields = (("name", REQUIRED), ("index", None), ("common_name", None), ("description", None), ("unit", None),
               ("center_wavelength", None), ("full_width_half_max", None))


_BAND_KEYS = ("index", "common_name", "description", "unit", "center_wavelength", "full_width_half_max")


class OpticalData(TacoExtension):
    """``OpticalData(sensor=None, bands=None)``: a known sensor (optionally a band subset,
    "landsat8oli[B02,B03]") or custom bands with a sensor name."""

    _fields = (("sensor", None), ("bands", None))

    def _validate(self):
        if self.bands is None and self.sensor is None:
            raise ValueError("Either bands or sensor must be provided")
        if self.bands is not None and self.sensor is None:
            raise ValueError("Sensor must be specified when bands are provided")
        if self.bands is not None:
            object.__setattr__(self, "bands", [b if isinstance(b, SpectralBand) else SpectralBand(**b)
                                               for b in self.bands])
            return
        if not any(s in self.sensor for s in SUPPORTED_SENSORS):
            return
        sensor = self.sensor.replace(" ", "") if "[" in self.sensor and "]" in self.sensor else self.sensor
        frag = json.loads(_native.optical_data(sensor))
        object.__setattr__(self, "sensor", sensor[:sensor.index("[")] if "[" in sensor else sensor)
        bands = []
        for b in frag.get("optical:bands", []):
            bands.append(SpectralBand(name=b["name"], **{k: b.get(k) for k in _BAND_KEYS if k in b}))
        object.__setattr__(self, "bands", bands)

    def get_schema(self) -> pa.Schema:
        band = pa.struct([pa.field("name", pa.string()), pa.field("index", pa.int32()),
                          pa.field("common_name", pa.string()), pa.field("description", pa.string()),
                          pa.field("unit", pa.string()), pa.field("center_wavelength", pa.float64()),
                          pa.field("full_width_half_max", pa.float64())])
        return pa.schema([pa.field("optical:sensor", pa.string()), pa.field("optical:bands", pa.list_(band)),
                          pa.field("optical:num_bands", pa.int32())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {
            "optical:sensor": "Sensor identifier (e.g., sentinel2msi, landsat8oli) for spectral characteristics",
            "optical:bands": "List of spectral band definitions with wavelength, name, and metadata",
            "optical:num_bands": "Total number of spectral bands in the dataset",
        }

    def _compute(self, taco) -> pa.Table:
        rows = [{"name": b.name, **{k: getattr(b, k) for k in _BAND_KEYS}} for b in (self.bands or [])]
        return pa.Table.from_pylist([{"optical:sensor": self.sensor, "optical:bands": rows,
                                      "optical:num_bands": len(rows) if rows else 0}])
