#!/usr/bin/env bash
# Shows that scripts/count_branches.sh --check (ctest: lint_branches) fails when it should
# (ctest: lint_branches_selftest), on a copy of the scanned sources in a temporary directory:
#  * the copy as it is passes with the ceilings of tests/CMakeLists.txt (MAX CAP below);
#  * a planted, commented local/remote branch that brings the total above MAX fails;
#  * a planted branch without a // justification fails even under the ceiling;
#  * a planted io::Location question above CAP fails, and one without a // justification.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
max="${1:?MAX}"
cap="${2:?CAP}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect WANT_RC WHAT PATTERN CMD...: the exit code, and PATTERN in the output
  local want="$1" what="$2" pattern="$3"; shift 3
  "$@" > "$tmp/out" 2>&1; local rc=$?
  if [ "$rc" != "$want" ]; then echo "FAIL $what: exit $rc, want $want"; cat "$tmp/out"; fail=1; return; fi
  if [ -n "$pattern" ] && ! grep -q "$pattern" "$tmp/out"; then
    echo "FAIL $what: no '$pattern' in the output"; cat "$tmp/out"; fail=1; return
  fi
  echo "ok   $what (exit $rc)"
}
fresh() {
  rm -rf "$tmp/repo" && mkdir -p "$tmp/repo/python"
  for d in src cli include capi; do [ -d "$here/$d" ] && cp -r "$here/$d" "$tmp/repo/$d"; done
  [ -d "$here/python/src" ] && cp -r "$here/python/src" "$tmp/repo/python/src"
  return 0
}
check() { bash "$here/scripts/count_branches.sh" --check "$max" "$cap" "$tmp/repo"; }
total() { bash "$here/scripts/count_branches.sh" "$tmp/repo" | sed -n 's/.*total: \([0-9]*\).*/\1/p'; }

fresh
expect 0 "the sources as they are" "" check
planted="$tmp/repo/src/read/planted_branch.cc"
n=$(($(total) ))
{
  echo '#include "taco/io.h"'
  echo 'namespace taco {'
  while [ "$n" -le "$max" ]; do
    echo "// planted: remote paths take another road ($n)"
    echo "int Planted$n(const std::string& p) { return IsRemotePath(p) ? 1 : 0; }"
    n=$((n + 1))
  done
  echo '}'
} > "$planted"
expect 1 "a commented branch above the ceiling" "more than $max" check
fresh
printf 'namespace taco {\n\n\nint Bare(const std::string& p) { return IsRemotePath(p) ? 1 : 0; }\n}\n' > "$planted"
expect 1 "a branch without a justification" "without a // justification" check
fresh
{
  echo 'namespace taco {'
  for i in $(seq 0 "$cap"); do
    echo "// planted question $i"
    echo "bool Q$i(const std::string& p) { return io::Location::Of(p).is_local_filesystem(); }"
  done
  echo '}'
} > "$planted"
expect 1 "capability questions above their ceiling" "capability questions, more than $cap" check
fresh
printf 'namespace taco {\n\n\nbool Bare(const std::string& p) { return io::Location::Of(p).is_local_filesystem(); }\n}\n' > "$planted"
expect 1 "a capability question without a justification" "without a // justification" check
exit $fail
