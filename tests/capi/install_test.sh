#!/bin/sh
# Stages `cmake --install BUILD --component capi` (what `make install PREFIX=...` runs) into
# a temporary prefix, then builds tests/capi/consumer/consumer.c against it twice, with
# pkg-config and with find_package(taco), and runs both on DATASET: no build or source tree
# on the include or library paths (the copy of the consumer is built outside the source tree).
# Usage: install_test.sh BUILD_DIR SOURCE_DIR DATASET WORK_DIR
set -eu
build="$1"; src="$2"; dataset="$3"; work="$4"
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --component capi --prefix "$prefix" > "$work/install.log"
for f in include/taco/taco.h lib/libtaco.so lib/libtaco.so.1 lib/libduckdb.so lib/pkgconfig/taco.pc \
         lib/cmake/taco/tacoConfig.cmake lib/cmake/taco/tacoTargets.cmake; do
  test -e "$prefix/$f" || { echo "missing after install: $f" >&2; exit 1; }
done
# Nothing but taco.h among the installed headers (the C ABI is the whole interface).
test "$(ls "$prefix/include/taco")" = "taco.h" || { echo "unexpected headers installed" >&2; exit 1; }
cp -r "$src/tests/capi/consumer" "$work/consumer"

# pkg-config
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --exists taco
cc -std=c99 -Wall -Werror -pedantic -o "$work/consumer_pc" "$work/consumer/consumer.c" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs taco)
out_pc="$("$work/consumer_pc" "$dataset" label.tif)"
echo "pkg-config consumer: $out_pc"

# find_package(taco)
cmake -S "$work/consumer" -B "$work/consumer_build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  > "$work/cmake.log"
cmake --build "$work/consumer_build" > "$work/cmake_build.log"
out_cm="$("$work/consumer_build/consumer" "$dataset" label.tif)"
echo "find_package consumer: $out_cm"

# Both resolve libtaco from the prefix, not the build tree.
for exe in "$work/consumer_pc" "$work/consumer_build/consumer"; do
  lib="$(ldd "$exe" | awk '/libtaco\.so/ { print $3 }')"
  case "$lib" in
    "$prefix"/*) ;;
    *) echo "$exe loads libtaco from '$lib', not from $prefix" >&2; exit 1 ;;
  esac
done
case "$out_pc" in *"48 rows; /vsisubfile/"*) ;; *) echo "unexpected output: $out_pc" >&2; exit 1 ;; esac
test "$out_pc" = "$out_cm" || { echo "the two consumers disagree" >&2; exit 1; }
echo "2 passed, 0 failed"
