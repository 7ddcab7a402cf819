"""Loaded by every script process of the differential suite (this directory is first on
PYTHONPATH). DIFF_MODE=compat: `taco_cpp.compat.install()` before the script runs, so its
`import tacoreader` / `tacotoolbox` / `tacobridge` get the drop-ins although the real packages
are installed. DIFF_MODE=upstream: nothing is installed. In both modes, at exit, the modules of
those names that the script loaded are written to DIFF_MODULES_REPORT (name -> file), so the
runner can check that each run used what it claims to."""

import atexit
import json
import os
import sys

_mode = os.environ.get("DIFF_MODE")
if _mode == "compat":
    import taco_cpp.compat

    taco_cpp.compat.install()

_report = os.environ.get("DIFF_MODULES_REPORT")
if _report:
    def _write_report():
        tools = ("tacoreader", "tacotoolbox", "tacobridge", "taco_cpp")
        mods = {}
        for name, mod in list(sys.modules.items()):
            if name.split(".")[0] in tools and mod is not None:
                mods[name] = getattr(mod, "__file__", None) or getattr(mod, "__name__", "")
        with open(_report, "w") as f:
            json.dump(mods, f)

    atexit.register(_write_report)
