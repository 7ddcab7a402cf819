#!/bin/sh
# Compares the dynamic symbols a shared library defines with the committed list.
# Usage: check_symbols.sh LIB EXPECTED_LIST
# The version node (TACO_1, an absolute symbol) is left out; symbol versions (@@TACO_1) are
# stripped. Also fails when the soname is not libtaco.so.<N>.
set -eu
lib="$1"
expected="$2"
actual="$(nm -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | LC_ALL=C sort)"
if ! printf '%s\n' "$actual" | diff -u "$expected" -; then
  echo "the exported symbols of $lib differ from $expected (+ exported now, - listed)" >&2
  exit 1
fi
soname="$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')"
case "$soname" in
  libtaco.so.[0-9]*) ;;
  *) echo "$lib: soname '$soname' is not libtaco.so.<N>" >&2; exit 1 ;;
esac
echo "$(printf '%s\n' "$actual" | wc -l) symbols as listed; soname $soname"
echo "1 passed, 0 failed"
