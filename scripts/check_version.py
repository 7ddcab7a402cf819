#!/usr/bin/env python3
"""Checks that every place that reports the version agrees with include/taco/version.h.

Usage: check_version.py REPO TACO_CLI [PYTHON_BUILD_DIR]  (ctest: version_agrees)
Compares kLibraryVersion with: the CMake project version (CMakeCache CMAKE_PROJECT_VERSION of the
build the CLI belongs to), pyproject.toml (its version must be dynamic, read from version.h by
the same regex), `taco --version`, and taco_cpp.__version__ when the Python package is built.
"""
import pathlib
import re
import subprocess
import sys

repo, cli = pathlib.Path(sys.argv[1]), sys.argv[2]
header = (repo / "include" / "taco" / "version.h").read_text()
want = re.search(r'kLibraryVersion = "([^"]+)"', header).group(1)
found = {}
cache = pathlib.Path(cli).parent / "CMakeCache.txt"
found["CMake project"] = re.search(r"^CMAKE_PROJECT_VERSION:STATIC=(.*)$", cache.read_text(), re.M).group(1)
pyproject = (repo / "pyproject.toml").read_text()
if re.search(r'^version\s*=', pyproject, re.M) or 'dynamic = ["version"]' not in pyproject:
    found["pyproject.toml"] = "a version of its own (expected dynamic, read from include/taco/version.h)"
else:
    regex = re.search(r"^regex = '(.*)'$", pyproject, re.M).group(1)
    found["pyproject.toml"] = re.search(regex, header).group("value")
found["taco --version"] = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.split()[-1]
if len(sys.argv) > 3 and (pathlib.Path(sys.argv[3]) / "taco_cpp").is_dir():
    code = "import taco_cpp; print(taco_cpp.__version__)"
    env = {"PYTHONPATH": sys.argv[3]}
    py = str(repo / ".venv" / "bin" / "python")
    found["taco_cpp.__version__"] = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env).stdout.strip()
bad = {k: v for k, v in found.items() if v != want}
for k, v in found.items():
    print(f"{'ok  ' if k not in bad else 'DIFF'} {k}: {v}")
if bad:
    print(f"check_version: include/taco/version.h says {want}", file=sys.stderr)
sys.exit(1 if bad else 0)
