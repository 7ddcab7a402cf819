# T80: OpticalData(sensor="sentinel2msi[B02,B03,B04]") fills the bands from the sensor
# table; custom bands need a sensor; neither is refused.
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.taco import OpticalData, SpectralBand, SUPPORTED_SENSORS
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])]))
t.extend_with(OpticalData(sensor="sentinel2msi[B02,B03,B04]"))
bands = getattr(t, "optical:bands")
out = {"sensor": getattr(t, "optical:sensor"), "num": getattr(t, "optical:num_bands"),
       "band_names": [b["name"] for b in bands], "band_values": bands, "supported": SUPPORTED_SENSORS}
t.extend_with(OpticalData(sensor="custom", bands=[SpectralBand(name="X", center_wavelength=500.0)]))
out["custom"] = getattr(t, "optical:bands")
for name, kw in (("none", {}), ("bands_only", {"bands": [SpectralBand(name="Y")]})):
    try:
        OpticalData(**kw)
        out[name] = "no error"
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
