#!/usr/bin/env bash
# Counts the places that branch on the dataset format or on local vs remote outside the
# containers (issue 25, "Done when"), one line per hit as file:line, then the totals.
#   scripts/count_branches.sh [REPO]                measure (always exits 0)
#   scripts/count_branches.sh --check MAX CAP [REPO]
#        the check (ctest lint_branches): exits 1 when format + remote > MAX, when the
#        capability questions are more than CAP, or when a counted branch has no `//`
#        comment on its line or on one of the two lines above it (its justification).
# Scanned: *.cc/*.h under src/ cli/ python/src/ capi/ include/, without src/format/ (the
# containers), src/read/format_detect.cc (format detection) and, for the remote count,
# src/io/ (the RangeReader seam, whose job local vs remote is: its hits are listed, not
# counted). Only code counts: the text after a `//` is dropped first.
#   format      a comparison with a DatasetFormat::k… value (== or !=, either side), or a
#               switch whose case labels name one (a switch counts once, on its first label)
#   remote      a call of IsRemotePath(, not its declaration and definition
#   capability  a question asked of io::Location (io/location.h: is_local_filesystem(),
#               decodes_url_escapes(), prefers_parallel_opens()) outside src/io/ and
#               src/format/: what a location can do rather than whether it is remote; listed
#               and counted apart (their number may not grow: CAP), each with its `//`
#               justification like a branch. The containers' own questions (src/format/:
#               how a container fetches its parts) are listed apart, not counted.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  max="$2"
  cap="$3"
  shift 3
fi
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
capability_hits=$(code | grep -E 'Location::Of\(' | grep -v '^src/io/' || true)
mapfile -t format_files < <(find src/format -type f \( -name '*.cc' -o -name '*.h' \) 2>/dev/null | sort)
container_hits=""
if [ "${#format_files[@]}" -gt 0 ]; then
  container_hits=$(awk '{ sub(/\/\/.*/, ""); print FILENAME ":" FNR ":" $0 }' "${format_files[@]}" |
    grep -E 'Location::Of\(' || true)
fi

count() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
echo "== format branches (DatasetFormat::k… compared or switched on)"
[ -n "$format_hits" ] && printf '%s\n' "$format_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== remote branches (IsRemotePath calls)"
[ -n "$remote_hits" ] && printf '%s\n' "$remote_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== capability questions (io::Location, counted apart)"
[ -n "$capability_hits" ] && printf '%s\n' "$capability_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== capability questions of the containers (src/format/, not counted)"
[ -n "$container_hits" ] && printf '%s\n' "$container_hits" | sed -E 's/:[[:space:]]+/: /'
echo "== inside the io seam (src/io/, not counted)"
[ -n "$seam_hits" ] && printf '%s\n' "$seam_hits" | sed -E 's/:[[:space:]]+/: /'
total=$(($(count "$format_hits") + $(count "$remote_hits")))
ncap=$(count "$capability_hits")
echo "format: $(count "$format_hits")  remote: $(count "$remote_hits")  total: $total  capability: $ncap"
[ "$check" = 1 ] || exit 0

status=0
# Each counted branch and capability question says why it is there: a // comment on its
# line or the two above.
while IFS=: read -r file line _; do
  [ -n "$file" ] || continue
  from=$((line > 2 ? line - 2 : 1))
  if ! sed -n "${from},${line}p" "$file" | grep -q '//'; then
    echo "lint_branches: $file:$line: a branch on the format or location (or a capability question) without a // justification" >&2
    status=1
  fi
done < <(printf '%s\n%s\n%s\n' "$format_hits" "$remote_hits" "$capability_hits")
if [ "$total" -gt "$max" ]; then
  echo "lint_branches: $total branches on the format or local vs remote outside src/format and src/io, more than $max (listed above)" >&2
  status=1
fi
if [ "$ncap" -gt "$cap" ]; then
  echo "lint_branches: $ncap io::Location capability questions, more than $cap: ask the reader or io/ instead" >&2
  status=1
fi
exit "$status"
