#!/usr/bin/env bash
# The `taco` launcher (cli/launcher.cc, issue 28): ctest cli_launcher.
#  * --version, --help and -h, answered by the launcher, are byte for byte what libtaco_cli.so
#    answers (reached with -q, which the launcher does not answer itself), exit 0 both;
#  * the executable does not link DuckDB, GDAL or curl (they come with libtaco_cli.so);
#  * a launcher without its library: --version still works; any command fails with
#    "taco: cannot load <dir>/libtaco_cli.so: <why>" and exit 2;
#  * --version and --help into a full disk (/dev/full) fail with exit 2, from the launcher and
#    from the library alike.
# usage: launcher_test.sh <build/taco>
set -u
taco="$1"
fail=0
check() {  # check <what> <condition...>
  local what="$1"; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for arg in --version --help -h; do
  "$taco" "$arg" >"$tmp/launcher.out" 2>"$tmp/launcher.err"; rc_launcher=$?
  "$taco" -q "$arg" >"$tmp/library.out" 2>"$tmp/library.err"; rc_library=$?
  check "taco $arg exits 0 ($rc_launcher) as taco -q $arg ($rc_library)" [ "$rc_launcher$rc_library" = 00 ]
  check "taco $arg prints what the library prints" cmp "$tmp/launcher.out" "$tmp/library.out"
  check "taco $arg prints something" [ -s "$tmp/launcher.out" ]
  check "taco $arg writes no stderr" [ ! -s "$tmp/launcher.err" ]
done

needed="$(readelf -d "$taco" | grep NEEDED)"
echo "$needed"
check "the launcher does not link DuckDB, GDAL or curl" bash -c "! grep -qE 'duckdb|gdal|curl' <<<\"\$0\"" "$needed"
check "libtaco_cli.so next to the launcher links DuckDB" \
  bash -c "readelf -d \"\$0\" | grep NEEDED | grep -q duckdb" "$(dirname "$taco")/libtaco_cli.so"

mkdir "$tmp/alone"
cp "$taco" "$tmp/alone/taco"
"$tmp/alone/taco" --version >"$tmp/alone.out" 2>&1
check "a launcher without its library still answers --version" grep -qx "taco [0-9.]*" "$tmp/alone.out"
"$tmp/alone/taco" info nothing.tacozip >"$tmp/alone.out" 2>"$tmp/alone.err"; rc=$?
cat "$tmp/alone.err"
check "a launcher without its library exits 2 ($rc)" [ "$rc" = 2 ]
check "and says which library it cannot load" \
  grep -q "^taco: cannot load $tmp/alone/libtaco_cli.so: .*No such file" "$tmp/alone.err"
check "and prints nothing on stdout" [ ! -s "$tmp/alone.out" ]

if [ -w /dev/full ]; then
  # Both the launcher's answers and the library's (-q) check that the output was written.
  for args in "--version" "--help" "-q --version" "-q --help"; do
    # shellcheck disable=SC2086
    "$taco" $args >/dev/full 2>"$tmp/full.err"; rc=$?
    check "taco $args >/dev/full exits 2 ($rc)" [ "$rc" = 2 ]
    check "and says why" grep -q "^taco: writing output: No space left on device" "$tmp/full.err"
  done
fi
exit $fail
