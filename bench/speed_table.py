"""Issue 28's table, from the output of one `make bench` run (run last by the Makefile).

The benchmarks print one line per figure of the table:

    speed-row: KEY|OURS|REFERENCE|REFERENCE FIGURE|RATIO|GOAL|NOTE

(scale_bench: convert, create, validate, validate-4k, tacocat-nav, tacollection; startup_bench:
load, load-data, version; reader_bench: count). The CDC rows are read from cdc_bench's own
table ("  <edit>  ours  pyarrow  ratio ..."). A row no benchmark printed (a benchmark left out,
nginx missing) is shown as "not measured". Prints a markdown table and the load average.

Usage: speed_table.py LOG
"""

import re
import sys
from pathlib import Path

# (key, measure) in the order.
ROWS = [
    ("load", "`taco_cpp.load()` of the demo ZIP, in-process"),
    ("load-data", "`load()` + `.data` of the same"),
    ("count", "open + count(*) on 100,000 rows"),
    ("validate", "`taco validate`, metadata-only ZIP (one-byte FILE samples), wall"),
    ("validate-4k", "`taco validate`, ZIP of the 4 KiB tree (the issue's measure at TACO_SCALE_N=100000), wall"),
    ("convert", "`taco convert` ZIP → FOLDER, files/s"),
    ("create", "`taco create` → ZIP, files/s"),
    ("version", "`taco --version` start-up"),
    ("cdc:1% of rows' label changed", "CDC reused share: 1% of rows' label changed"),
    ("cdc:1% rows appended", "CDC reused share: 1% rows appended"),
    ("cdc:one column added", "CDC reused share: one column added"),
    ("tacocat-nav", "navigate into a FOLDER of a remote TACOCAT"),
    ("tacollection", "TACOLLECTION (`taco sql A B …`) over the remote parts"),
]

CDC_LINE = re.compile(r"^\s{2}(1% of rows' label changed|1% rows appended|one column added)\s+"
                      r"([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(\d+)\s+(\d+)(?:\s+[0-9.]+)*\s*$")


def parse(text: str) -> dict:
    rows = {}
    for line in text.splitlines():
        if line.startswith("speed-row: "):
            parts = line[len("speed-row: "):].split("|")
            if len(parts) >= 6:
                key = parts[0].strip()
                rows[key] = parts[1:] + [""] * (7 - len(parts))
            continue
        m = CDC_LINE.match(line)
        if m:
            edit, ours, theirs, ratio, ours_b, theirs_b = m.groups()
            rows["cdc:" + edit] = [ours, "pyarrow + use_content_defined_chunking", theirs, ratio,
                                   ">= pyarrow+CDC (ratio >= 1)", f"FastCDC 64 KiB; files {ours_b} B vs {theirs_b} B"]
    return rows


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = parse(Path(sys.argv[1]).read_text(errors="replace"))
    print("\n### Issue 28: speed to the limits (this run)\n")
    print(f"load average at the end: {load_average()}\n")
    print("| measure | ours | reference | reference's | ratio | goal | note |")
    print("|---|---:|---|---:|---:|---|---|")
    for key, measure in ROWS:
        r = rows.get(key)
        if r is None:
            print(f"| {measure} | not measured | | | | | no benchmark printed it in this run |")
            continue
        ours, ref_name, ref, ratio, goal, note = (c.strip() for c in r[:6])
        print(f"| {measure} | {ours} | {ref_name} | {ref} | {ratio} | {goal} | {note} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
