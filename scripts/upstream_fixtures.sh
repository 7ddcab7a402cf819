#!/usr/bin/env bash
# Makes the upstream fixtures in OUT_DIR (default build/fixtures/upstream) with the pinned
# tacotoolbox of the peers venv: scripts/upstream_fixtures.py, checked against
# tests/fixtures/upstream.sha256. Run by ctest as the fixture step `upstream_fixtures`
# (FIXTURES_SETUP taco_upstream) and by `make fixtures`. Returns at once when OUT_DIR is current.
# Usage: scripts/upstream_fixtures.sh [OUT_DIR] [--force]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$here/build/fixtures/upstream}"
shift || true
venv="${PEERS_VENV:-$here/.venv-peers}"
if [ ! -x "$venv/bin/python" ]; then
  echo "upstream_fixtures: $venv is missing: run 'make peers-venv' (bash scripts/peers_venv.sh)" >&2
  exit 1
fi
HOME="$venv/home" PYTHONDONTWRITEBYTECODE=1 exec "$venv/bin/python" "$here/scripts/upstream_fixtures.py" \
  "$out" --manifest "$here/tests/fixtures/upstream.sha256" "$@"
