# T35: a path that does not exist is refused at construction (a ValueError).
from tacotoolbox.datamodel import Sample
import _tbkit as K

wd = K.workdir()
try:
    Sample(id="a", path=wd / "nope.tif")
    r = "no error"
except Exception as e:  # noqa: BLE001
    r = {"class": type(e).__name__, "is_value_error": isinstance(e, ValueError), "mentions": "does not exist" in str(e)}
K.emit(r)
