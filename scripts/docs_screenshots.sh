#!/usr/bin/env bash
# Writes the screenshots of the pages `taco publish` makes (docs/screenshots/), taken by
# headless Debian Chromium through tests/publish/browser/check_page.mjs (which also checks each
# page: no network request, no console error):
#   docs/screenshots/publish-nested.png  the upstream nested fixture (FOLDER)
#   docs/screenshots/publish-demo.png    the `taco demo` dataset (ZIP) with a full sidecar
#   docs/screenshots/explorer-dataset.png, explorer-preview.png  the explorer page (build/js/explorer)
#     on `taco demo`'s ZIP by URL: card, map, level 0; a GeoTIFF preview (scripts/explorer_screenshots.mjs)
# Usage: scripts/docs_screenshots.sh [BUILD_DIR]   (default build/; the `taco` binary must exist)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build}"
taco="$build/taco"
fixtures="${TACO_FIXTURES:-$build/fixtures/upstream}"  # `make fixtures` writes it
out="$here/docs/screenshots"
[ -x "$taco" ] || { echo "docs-screenshots: $taco not built" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
check="$here/tests/publish/browser/check_page.mjs"

"$taco" publish "$fixtures/folder/nested" "$tmp/nested" --only stac,hf,html -q
echo '{"title": "test_dataset", "texts": ["test_dataset"]}' > "$tmp/nested.json"
node "$check" "$tmp/nested/index.html" "$tmp/nested.json" "$out/publish-nested.png"

"$taco" demo "$tmp/demo" -q >/dev/null
"$taco" publish "$tmp/demo/demo.tacozip" "$tmp/demo-pub" --publication "$here/docs/demo-publication.json" \
  --base-url https://data.example.org/taco-demo/ -q
echo '{"texts": ["demo"]}' > "$tmp/demo.json"
node "$check" "$tmp/demo-pub/index.html" "$tmp/demo.json" "$out/publish-demo.png"
echo "docs-screenshots: $out/publish-nested.png $out/publish-demo.png"
node="$here/third_party/node/bin/node"
[ -x "$node" ] || node=node
"$node" "$here/scripts/explorer_screenshots.mjs" "$build" "$here/tests/publish/browser/node_modules" "$out"
