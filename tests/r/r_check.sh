#!/bin/sh
# R CMD build + R CMD check --no-manual of the R package r/ (its testthat suite runs inside
# the check) against libtaco staged from this build tree (`cmake --install --component capi`,
# what `make install` runs) and found with pkg-config, as a user would build it. Fails unless
# the check ends with 0 errors and 0 warnings (NOTEs are listed, not fatal).
# Usage: r_check.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
build="$1"; src="$2"; work="$3"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --component capi --prefix "$work/prefix" > "$work/install.log"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
export _R_CHECK_FORCE_SUGGESTS_=false
export _R_CHECK_SYSTEM_CLOCK_=0
cp -r "$src/r" "$work/pkg"
cd "$work"
R CMD build --no-build-vignettes --no-manual pkg > build.log 2>&1 || { cat build.log; exit 1; }
tarball="$(ls taco_*.tar.gz)"
rc=0
R CMD check --no-manual --no-build-vignettes "$tarball" > check.log 2>&1 || rc=$?
cat check.log
log="taco.Rcheck/00check.log"
status="$(grep '^Status:' "$log" || true)"
echo "$status"
if [ "$rc" -ne 0 ] || grep -q -E 'ERROR|WARNING' "$log"; then
  test -f taco.Rcheck/tests/testthat.Rout.fail && cat taco.Rcheck/tests/testthat.Rout.fail
  echo "R CMD check: errors or warnings (see $work/$log)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
