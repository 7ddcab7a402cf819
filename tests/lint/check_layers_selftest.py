#!/usr/bin/env python3
"""Shows that scripts/check_layers.py fails on an upward include (ctest: lint_layers_selftest).

The repository's src/, cli/, python/src/ and include/ are copied into a temporary directory once;
each case plants one include there, runs the check and takes the include out again: the clean
copy must pass, every planted violation must fail naming the file, and an allowed include must
still pass.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
CHECK = REPO / "scripts" / "check_layers.py"

# (file to write or append to, the line, expected exit code, text the report must contain)
CASES = [
    (None, None, 0, "no upward include"),
    ("src/util/status.cc", '#include "read/dataset_state.h"', 1, "src/util may not include src/read"),
    ("src/io/planted.h", '#include "format/zip/zip_reader.h"', 1, "src/io may not include src/format"),
    ("cli/main.cc", '#include "read/dataset_state.h"', 1, "cli/ includes only the public API"),
    ("python/src/module.cc", '#include "table/engine.h"', 1, "python/src/ includes only the public API"),
    ("src/model/planted.cc", '#include "duckdb.hpp"', 1, "DuckDB is included only in src/table"),
    ("src/format/zip/planted.h", "#include <gdal_priv.h>", 1, "src/format may not include gdal_priv.h"),
    ("src/format/zip/planted.h", '#include "table/engine.h"', 1, "src/format may not include src/table"),
    ("src/format/zip/planted.h", '#include "io/range_reader.h"', 0, "no upward include"),
    ("src/read/planted.cc", '#include "format/zip/planted.h"', 0, "no upward include"),
    ("src/newroom/planted.h", '#include "util/strings.h"', 1, "src/newroom is not in the layer table"),
]


def run_case(root, rel, line):
    if not rel:
        return subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
    target = root / rel
    existed = target.exists()
    old = target.read_text() if existed else None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((old or "") + line + "\n")
    try:
        return subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
    finally:
        if existed:
            target.write_text(old)
        else:
            target.unlink()


def main():
    tmp = tempfile.TemporaryDirectory()
    root = pathlib.Path(tmp.name)
    for d in ("src", "cli", "python/src", "include"):
        shutil.copytree(REPO / d, root / d)
    failures = 0
    for rel, line, want_rc, want_text in CASES:
        r = run_case(root, rel, line)
        out = r.stdout + r.stderr
        ok = r.returncode == want_rc and want_text in out and (want_rc == 0 or rel in out)
        print(f"{'ok  ' if ok else 'FAIL'} {rel or '(clean copy)'}: {line or ''} -> exit {r.returncode}")
        if not ok:
            print(f"     expected exit {want_rc} and {want_text!r}; got:\n{out}")
            failures += 1
    tmp.cleanup()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
