"""Helpers of the tacobridge scripts (skipped by the runner): the dataset dump of the
tacotoolbox scripts (value for value; see scripts/tacotoolbox/_tbkit.py), loaded by path."""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "_tbkit", pathlib.Path(__file__).resolve().parent.parent / "tacotoolbox" / "_tbkit.py")
K = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)
