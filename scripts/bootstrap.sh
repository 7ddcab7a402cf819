#!/usr/bin/env bash
# Installs everything taco-cpp needs to build and test, and nothing else.
#
#  * Debian packages (DESIGN.md §2), installed with apt-get only when one is missing.
#  * DuckDB 1.4.4 (library + C++ headers) from the npm registry, pinned by exact version and
#    verified against the registry's sha512 integrity, unpacked into third_party/duckdb/.
#    Set DUCKDB_ROOT=/path (with lib/libduckdb.so and include/duckdb.hpp) to use your own.
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
  # taco publish tests: headless browser, XSD validation, the Python venv
  chromium libxml2-utils python3-venv python3-pip
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

# taco publish tests (tests/publish): the pinned Python validators in .venv and the pinned npm
# modules (playwright-core drives Debian's chromium; @huggingface/tasks lists the Hub's tasks).
# Each step is skipped when its stamp matches the pinned file.
venv_stamp="$here/.venv/.requirements.sha256"
want_venv="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -f "$venv_stamp" ] || [ "$(cat "$venv_stamp")" != "$want_venv" ]; then
  echo "bootstrap: installing the pinned Python packages into .venv"
  [ -x "$here/.venv/bin/python3" ] || /usr/bin/python3 -m venv --system-site-packages "$here/.venv"
  "$here/.venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
  echo "$want_venv" > "$venv_stamp"
fi
browser_dir="$here/tests/publish/browser"
npm_stamp="$browser_dir/node_modules/.lock.sha256"
want_npm="$(sha256sum "$browser_dir/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$npm_stamp" ] || [ "$(cat "$npm_stamp")" != "$want_npm" ]; then
  echo "bootstrap: installing the pinned npm modules of tests/publish/browser"
  (cd "$browser_dir" && npm ci --ignore-scripts --no-audit --no-fund --silent)
  echo "$want_npm" > "$npm_stamp"
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
