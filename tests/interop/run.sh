#!/usr/bin/env bash
# ctest entry of the interoperability matrix: run.sh TACO_CLI BUILD_DIR
# Runs tests/interop with the peers venv (.venv-peers/, `make peers-venv`), the `taco` CLI of
# this build and, when this build has it, the taco_cpp Python package (BUILD_DIR/python).
# Exit 77 (skipped) when the venv is missing or stale, unless TACO_REQUIRE_PEERS=1.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${PEERS_VENV:-$here/.venv-peers}"
want="$(cat "$here/bench/peers/requirements.txt" "$here/bench/peers/requirements-taco-eo.txt" \
  "$here/scripts/peers_venv.sh" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$venv/.requirements.sha256" ] || [ "$(cat "$venv/.requirements.sha256")" != "$want" ]; then
  echo "interop: $venv is missing or out of date: run 'make peers-venv' (bash scripts/peers_venv.sh)" >&2
  if [ "${TACO_REQUIRE_PEERS:-0}" = 1 ]; then exit 1; fi
  exit 77
fi
export TACO_CLI="$1" TACO_PEERS_VENV="$venv" HOME="$venv/home" PYTHONDONTWRITEBYTECODE=1
if [ -d "$2/python/taco_cpp" ]; then export PYTHONPATH="$2/python${PYTHONPATH:+:$PYTHONPATH}"; fi
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$2/interop-tmp" "$here/tests/interop"
