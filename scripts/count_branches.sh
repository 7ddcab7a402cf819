#!/usr/bin/env bash
# Counts the places that branch on the dataset format or on local vs remote outside the
# containers (issue 25, "Done when"), one line per hit as file:line, then the totals.
#   scripts/count_branches.sh [REPO]     (always exits 0: a measurement, not a check)
# Scanned: *.cc/*.h under src/ cli/ python/src/ capi/ include/, without src/format/ (the
# containers), src/read/format_detect.cc (format detection) and, for the remote count,
# src/io/ (the RangeReader seam, whose job local vs remote is: its hits are listed, not
# counted). Only code counts: the text after a `//` is dropped first.
#   format  a comparison with a DatasetFormat::k… value (== or !=, either side), or a switch
#           whose case labels name one (a switch counts once, on its first label)
#   remote  a call of IsRemotePath( or read::IsUrlRoot( (the same test on a VSI root), not
#           their declarations and definitions
set -euo pipefail
repo="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$repo"
mapfile -t files < <(find src cli python/src capi include -type f \( -name '*.cc' -o -name '*.h' \) 2>/dev/null |
  grep -v '^src/format/' | grep -v '^src/read/format_detect\.cc$' | sort)

# file:line:code for every line, comments after // removed.
code() { awk '{ sub(/\/\/.*/, ""); print FILENAME ":" FNR ":" $0 }' "${files[@]}"; }

format_hits=$(code | awk -F: '
  {
    line = $0; sub(/^[^:]*:[^:]*:/, "", line)
    if ($1 != file) { file = $1; sw = 0; counted = -1 }
    if (line ~ /switch[ \t]*\(/) sw = $2
    if (line ~ /case[ \t]+DatasetFormat::k/) {
      if (counted == sw) next  # the same switch: counted on its first label
      counted = sw
      print $1 ":" $2 ":" line; next
    }
    if (line ~ /(==|!=)[ \t]*DatasetFormat::k/ || line ~ /DatasetFormat::k[A-Za-z]+[ \t]*(==|!=)/) print $1 ":" $2 ":" line
  }')
all_remote=$(code | grep -E '(IsRemotePath|IsUrlRoot)\(' |
  grep -vE '^[^:]*:[0-9]+:[[:space:]]*bool[[:space:]]+(read::)?(IsRemotePath|IsUrlRoot)\(std::string_view' || true)
remote_hits=$(printf '%s\n' "$all_remote" | grep -v '^src/io/' | grep -v '^$' || true)
seam_hits=$(printf '%s\n' "$all_remote" | grep '^src/io/' || true)

count() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
echo "== format branches (DatasetFormat::k… compared or switched on)"
[ -n "$format_hits" ] && printf '%s\n' "$format_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== remote branches (IsRemotePath / IsUrlRoot calls)"
[ -n "$remote_hits" ] && printf '%s\n' "$remote_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== inside the io seam (src/io/, not counted)"
[ -n "$seam_hits" ] && printf '%s\n' "$seam_hits" | sed -E 's/:[[:space:]]+/: /'
echo "format: $(count "$format_hits")  remote: $(count "$remote_hits")  total: $(($(count "$format_hits") + $(count "$remote_hits")))"
