# T30: verbose(True | "info" | "debug" | False) sets the "tacotoolbox" logger; anything
# else is a ValueError.
import logging
import tacotoolbox
import _tbkit as K

K.workdir()
out = {}
for lv in (True, "info", "debug", False):
    tacotoolbox.verbose(lv)
    out[str(lv)] = logging.getLogger("tacotoolbox").getEffectiveLevel() <= logging.INFO
try:
    tacotoolbox.verbose("loud")
except ValueError as e:
    out["bad"] = str(e)
tacotoolbox.verbose(False)
K.emit(out)
