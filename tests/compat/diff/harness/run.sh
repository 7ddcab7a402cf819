#!/usr/bin/env bash
# ctest entry of the differential suite (test compat_differential): run.sh BUILD_DIR [pytest args]
# Runs tests/compat/diff/harness with the peers venv (.venv-peers/, `make peers-venv`): every
# script once with the real tacoreader/tacotoolbox/tacobridge and once with
# taco_cpp.compat.install() (BUILD_DIR/python). Exit 77 (skipped) when the venv is missing or
# stale, unless TACO_REQUIRE_PEERS=1. DIFF_SCRIPTS="tacoreader/flat*" runs a subset.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)"
venv="${PEERS_VENV:-$here/.venv-peers}"
want="$(cat "$here/bench/peers/requirements.txt" "$here/bench/peers/requirements-taco-eo.txt" \
  "$here/scripts/peers_venv.sh" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$venv/.requirements.sha256" ] || [ "$(cat "$venv/.requirements.sha256")" != "$want" ]; then
  echo "compat-diff: $venv is missing or out of date: run 'make peers-venv' (bash scripts/peers_venv.sh)" >&2
  if [ "${TACO_REQUIRE_PEERS:-0}" = 1 ]; then exit 1; fi
  exit 77
fi
build="$(cd "$1" && pwd)"; shift
export TACO_BUILD="$build" HOME="$venv/home" PYTHONDONTWRITEBYTECODE=1
export DIFF_WORK="${DIFF_WORK:-$build/compat-diff}"
rm -rf "$DIFF_WORK/runs"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir="$here/tests/compat/diff/harness" \
  "$here/tests/compat/diff/harness/test_differential.py" "$@"
