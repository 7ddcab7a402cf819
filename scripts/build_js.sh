#!/usr/bin/env bash
# Builds the JavaScript package (js/, docs/javascript.md) into BUILD/js/taco/:
#  1. the container layer (src/format) compiled to WebAssembly with Debian's emscripten:
#     `emcmake cmake -S js/wasm -B BUILD/js/wasm`, output taco_format.mjs (wasm embedded);
#  2. the package assembled: js/package.json, js/src/*.js, js/index.d.ts, taco_format.mjs, and
#     links to the pinned npm modules (js/node_modules, installed by scripts/bootstrap.sh): the
#     duckdb-wasm bundles under duckdb/ and parquet-wasm's wasm under parquet/, so that a page
#     loads them from the same server as the package, never from a CDN;
#  3. taco.browser.js: the package bundled for a page (esbuild; bare npm imports resolved);
#  4. the explorer page (js/explorer/) in BUILD/js/explorer/: index.html, style.css, explorer.js
#     (the page's modules and the package in one bundle), outline.json (the coastlines, made from
#     the pinned world-atlas by js/explorer/build_outline.mjs), and copies of the duckdb-wasm
#     bundles (duckdb/) and parquet-wasm's wasm (parquet/): a self-contained static directory.
# Usage: scripts/build_js.sh BUILD_DIR. Incremental: ninja rebuilds the wasm only when a source
# changed; the copies are refreshed every time (a few small files).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: build_js.sh BUILD_DIR}" && pwd)"
out="$build/js/taco"

# Debian's emscripten runs its JS tools with the node on PATH; a node that is not Debian's
# (e.g. NodeSource's) does not look in /usr/share/nodejs, where Debian's node-acorn lives.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f "$build/js/wasm/build.ninja" ]; then
  emcmake cmake -S "$here/js/wasm" -B "$build/js/wasm" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build/js/wasm"

mkdir -p "$out/duckdb" "$out/parquet"
cp "$here/js/package.json" "$here/js/index.d.ts" "$out/"
cp "$here"/js/src/*.js "$out/"
cp "$build/js/wasm/taco_format.mjs" "$out/"
ln -sfn "$here/js/node_modules" "$out/node_modules"
dist="$here/js/node_modules/@duckdb/duckdb-wasm/dist"
for f in duckdb-mvp.wasm duckdb-eh.wasm duckdb-browser-mvp.worker.js duckdb-browser-eh.worker.js; do
  ln -sfn "$dist/$f" "$out/duckdb/$f"
done
ln -sfn "$here/js/node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm" "$out/parquet/parquet_wasm_bg.wasm"
# The browser bundle (esbuild, pinned in js/package-lock.json): index.js with its npm imports in
# one ES module, next to duckdb/ and parquet/ which it loads relative to its own URL.
"$here/js/node_modules/.bin/esbuild" "$out/index.js" --bundle --format=esm --platform=browser \
  '--external:node:*' --log-level=warning --outfile="$out/taco.browser.js"

# The explorer page: a static directory that any HTTP server (or `taco serve`) can serve as is.
ex="$build/js/explorer"
mkdir -p "$ex/duckdb" "$ex/parquet"
cp "$here/js/explorer/index.html" "$here/js/explorer/style.css" "$ex/"
# Copied when the content differs (npm gives every file of a tarball the same mtime, so a
# version bump would not look newer).
copy_if_changed() { cmp -s "$1" "$2" || cp "$1" "$2"; }
for f in duckdb-mvp.wasm duckdb-eh.wasm duckdb-browser-mvp.worker.js duckdb-browser-eh.worker.js; do
  copy_if_changed "$dist/$f" "$ex/duckdb/$f"
done
copy_if_changed "$here/js/node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm" "$ex/parquet/parquet_wasm_bg.wasm"
land="$here/js/node_modules/world-atlas/land-110m.json"
if [ ! -f "$ex/outline.json" ] || [ "$land" -nt "$ex/outline.json" ] || [ "$here/js/explorer/build_outline.mjs" -nt "$ex/outline.json" ]; then
  node "$here/js/explorer/build_outline.mjs" "$land" "$ex/outline.json"
fi
"$here/js/node_modules/.bin/esbuild" "$here/js/explorer/app.js" --bundle --format=esm --platform=browser \
  "--alias:@taco-cpp/taco=$out/index.js" '--external:node:*' --log-level=warning --outfile="$ex/explorer.js"
