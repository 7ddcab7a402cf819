# T33: __version__ and the top-level names.
import tacotoolbox
import _tbkit as K

K.workdir()
K.emit({"version": tacotoolbox.__version__, "all": sorted(tacotoolbox.__all__),
        "callables": {n: callable(getattr(tacotoolbox, n)) for n in ("create", "create_tacocat", "verbose")}})
