# T81/T82: Publications and SplitStrategy extensions on a Taco; a bad strategy is refused.
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.taco import Publication, Publications, SplitStrategy
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])]))
t.extend_with(Publications(publications=[Publication(doi="10.1/x", citation="A et al. 2024"),
                                         Publication(doi="10.2/y", citation="B 2025", summary="method")]))
t.extend_with(SplitStrategy(strategy="stratified"))
out = {"publications": t.publications, "split": getattr(t, "split:strategy")}
try:
    SplitStrategy(strategy="by-hand")
    out["bad"] = "no error"
except Exception as e:  # noqa: BLE001
    out["bad"] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
