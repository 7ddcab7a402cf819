#!/usr/bin/env bash
# Shows that the lint checks fail when they should (ctest: lint_selftest):
#  * scripts/format-check fails on a planted misformatted C++ file and passes once it is fixed;
#  * ruff, with the repository's configuration, fails on a planted unused import.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect WANT_RC WHAT CMD...
  local want="$1" what="$2"; shift 2
  "$@" > "$tmp/out" 2>&1; local rc=$?
  if [ "$rc" = "$want" ]; then echo "ok   $what (exit $rc)"; else echo "FAIL $what: exit $rc, want $want"; cat "$tmp/out"; fail=1; fi
}
printf 'int  f( ){return 1;}\n' > "$tmp/planted.cc"
expect 1 "format-check on a misformatted file" bash "$here/scripts/format-check" "$tmp/planted.cc"
grep -q "planted.cc" "$tmp/out" || { echo "FAIL format-check did not name the file"; fail=1; }
expect 0 "format-check --fix" bash "$here/scripts/format-check" --fix "$tmp/planted.cc"
expect 0 "format-check after the fix" bash "$here/scripts/format-check" "$tmp/planted.cc"
printf 'import os\n' > "$tmp/planted.py"
expect 1 "ruff on an unused import" "$here/.venv/bin/python" -m ruff check --no-cache --config "$here/pyproject.toml" "$tmp/planted.py"
grep -q "F401" "$tmp/out" || { echo "FAIL ruff did not report F401"; fail=1; }
printf 'import os\nprint(os.sep)\n' > "$tmp/planted.py"
expect 0 "ruff on a clean file" "$here/.venv/bin/python" -m ruff check --no-cache --config "$here/pyproject.toml" "$tmp/planted.py"
exit $fail
