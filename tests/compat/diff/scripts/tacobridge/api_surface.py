# B1-B10: the public names, __version__ and the exception classes with their bases.
import tacobridge
from tacobridge import _exceptions as E
from _bkit import K

K.workdir()
K.emit({"version": tacobridge.__version__, "all": sorted(tacobridge.__all__),
        "exceptions": {n: [b.__name__ for b in getattr(E, n).__mro__[1:]]
                       for n in ("TacoBridgeError", "TacoPlanError", "TacoExecuteError", "TacoFinalizeError")}})
