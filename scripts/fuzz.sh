#!/usr/bin/env bash
# Runs the libFuzzer targets of a TACO_FUZZ build (make fuzz), one after the other.
#
#   scripts/fuzz.sh BUILD_DIR SECONDS [TARGET...]     (default: every fuzz_* in BUILD_DIR/fuzz)
#
# Each target starts from fuzz/corpus/<target>/ (read only) plus BUILD_DIR/fuzz-work/<target>/
# (where new inputs go), uses fuzz/dict/<target>.dict when present, and writes crashers to
# BUILD_DIR/fuzz-crashes/<target>/. A summary line per target gives runs, exec/s and edges
# covered. Exit status 1 when any target crashed: minimise the crasher (fuzz_<t>
# -minimize_crash=1 FILE), fix the bug, and add the file to fuzz/regressions/<target>/.
set -uo pipefail
build="${1:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}"
seconds="${2:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}"
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
targets=("$@")
if ((${#targets[@]} == 0)); then
  for exe in "$build"/fuzz/fuzz_*; do targets+=("$(basename "$exe" | sed 's/^fuzz_//')"); done
fi
failed=0
for t in "${targets[@]}"; do
  exe="$build/fuzz/fuzz_$t"
  [ -x "$exe" ] || { echo "fuzz: no $exe (build with make fuzz)" >&2; exit 2; }
  work="$build/fuzz-work/$t"; crashes="$build/fuzz-crashes/$t"; log="$build/fuzz-logs/$t.log"
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  args=(-max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$crashes/" -timeout=30 -rss_limit_mb=4096)
  [ -f "$here/fuzz/dict/$t.dict" ] && args+=(-dict="$here/fuzz/dict/$t.dict")
  corpus=("$work")
  [ -d "$here/fuzz/corpus/$t" ] && corpus+=("$here/fuzz/corpus/$t")
  echo "fuzz: $t for ${seconds}s (log $log)"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" LSAN_OPTIONS="suppressions=$here/fuzz/lsan.supp" \
    "$exe" "${args[@]}" "${corpus[@]}" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  echo "fuzz: $t: exit $rc, ${runs:-?} runs, ${speed:-?} exec/s, ${edges:-?} edges, corpus $(ls "$work" | wc -l) new inputs"
  if [ $rc -ne 0 ]; then
    failed=1
    echo "fuzz: $t CRASHED: see $log and $crashes/" >&2
  fi
done
exit $failed
