"""Drop-in for tacobridge 0.3.0 on the taco-cpp core: export, zip2folder, folder2zip and the
plan/execute/finalize API, for datasets opened through ``tacoreader`` (compat) or
``taco_cpp.load``."""

from .api import export, folder2zip, zip2folder
from .execute import execute
from .finalize import finalize
from .plan import plan_export, plan_folder2zip, plan_zip2folder

__version__ = "0.3.0"

__all__ = ["execute", "export", "finalize", "folder2zip", "plan_export", "plan_folder2zip", "plan_zip2folder",
           "zip2folder"]
