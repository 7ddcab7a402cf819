#!/usr/bin/env bash
# Creates .venv-peers/, the pinned environment of the upstream TACO tools, used by the
# interoperability matrix (tests/interop) and by `make bench-peers`. Never touches .venv/.
#
#  .venv-peers/            tacotoolbox, tacoreader, tacobridge (bench/peers/requirements.txt)
#  .venv-peers/taco-eo/    taco-eo + its writer extra (bench/peers/requirements-taco-eo.txt)
#  .venv-peers/home/       HOME for peer processes: DuckDB looks for extensions in
#                          $HOME/.duckdb/extensions; the spatial extension of the
#                          duckdb-ext-spatial wheel is linked there, so tacoreader's
#                          `INSTALL spatial; LOAD spatial` works without a network.
#
# Both venvs are venvs of /usr/bin/python3 without system site-packages, installed with
# pip --no-deps from the exact pins (the files list every transitive package). GDAL's Python
# bindings (tacotoolbox's GeotiffStats) are Debian's python3-gdal: its `osgeo` package is linked
# into the first venv. A stamp (.venv-peers/.requirements.sha256, the hash of both files and of
# this script) makes a second run return at once, so tests never need the network.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PEERS_VENV:-$here/.venv-peers}"
req="$here/bench/peers/requirements.txt"
req_eo="$here/bench/peers/requirements-taco-eo.txt"
stamp="$venv/.requirements.sha256"
want="$(cat "$req" "$req_eo" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "peers-venv: installing the pinned upstream TACO tools into $venv"
rm -f "$stamp"
pipq() { "$1/bin/pip" install -q --disable-pip-version-check --no-deps -r "$2"; }

[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
pipq "$venv" "$req"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
osgeo="$(/usr/bin/python3 -c 'import os, osgeo; print(os.path.dirname(osgeo.__file__))')"
ln -sfn "$osgeo" "$site/osgeo"

ddb="$("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)')"
ext="$site/duckdb_ext/extensions/v$ddb/linux_amd64"
mkdir -p "$venv/home/.duckdb/extensions/v$ddb/linux_amd64"
for f in "$ext"/*.duckdb_extension; do
  ln -sfn "$f" "$venv/home/.duckdb/extensions/v$ddb/linux_amd64/"
done

[ -x "$venv/taco-eo/bin/python" ] || /usr/bin/python3 -m venv "$venv/taco-eo"
pipq "$venv/taco-eo" "$req_eo"

HOME="$venv/home" "$venv/bin/python" -c '
import duckdb, tacotoolbox, tacoreader, tacobridge, pytest, matplotlib
from osgeo import gdal
duckdb.connect().execute("LOAD spatial")'
HOME="$venv/home" "$venv/taco-eo/bin/python" -c 'import taco, taco.writer, cozip'
echo "$want" > "$stamp"
