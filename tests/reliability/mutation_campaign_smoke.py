"""Smoke test of scripts/mutation_campaign.py (ctest `mutation_campaign_smoke`).

Runs a tiny campaign (ZIP and FOLDER, payload bit flips, `taco cat` and Python
`read_bytes`) with the CLI and the taco_cpp package of this build, and checks that the
harness builds its datasets, runs, and classifies what is known:

* a payload bit flip in a ZIP member is refused by `cat` and `read_bytes` (CRC-32 check);
* a payload bit flip in a FOLDER file is served: classified silent wrong with no check
  (FOLDER datasets store no checksums, docs/reliability.md), with a reproduction command.

usage: python mutation_campaign_smoke.py TACO_CLI PYTHONPATH
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    taco, pythonpath = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="taco-mutation-smoke-") as tmp:
        out = Path(tmp) / "report"
        cmd = [sys.executable, str(ROOT / "scripts" / "mutation_campaign.py"), "--taco", taco,
               "--pythonpath", pythonpath, "--containers", "zip,folder", "--classes", "payload-bitflip",
               "--fronts", "cli,python", "--ops", "cat,py-read-bytes", "--runs", "8", "--seed", "7",
               "--out", str(out)]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        print(res.stdout)
        print(res.stderr, file=sys.stderr)
        assert res.returncode == 0, f"the campaign exited {res.returncode}"
        runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
        by = {}
        for r in runs:
            by.setdefault((r["mclass"], r["op"]), []).append(r)
        expected = {("zip-payload-bitflip", "cat"), ("zip-payload-bitflip", "py-read-bytes"),
                    ("folder-payload-bitflip", "cat"), ("folder-payload-bitflip", "py-read-bytes")}
        assert set(by) == expected, f"runs of {sorted(by)}, expected {sorted(expected)}"
        for op in ("cat", "py-read-bytes"):
            for r in by[("zip-payload-bitflip", op)]:
                assert r["result"] == "refused", f"ZIP payload flip through {op}: {r}"
                assert "CRC-32" in r["detail"], f"ZIP payload flip through {op}: not the CRC check: {r}"
            for r in by[("folder-payload-bitflip", op)]:
                assert r["result"] == "silent" and not r["check"], f"FOLDER payload flip through {op}: {r}"
        silent = [json.loads(line) for line in (out / "silent.jsonl").read_text().splitlines()]
        assert len(silent) == len(by[("folder-payload-bitflip", "cat")]) * 2, silent
        assert all("--only folder:folder-payload-bitflip:" in s["campaign"] for s in silent), silent
        summary = (out / "summary.md").read_text()
        assert "| folder | folder-payload-bitflip | cli | 2 | 0 | 0 | 0 | 0 | 0 | 0 | 2 |" in summary, summary
        assert "| zip | zip-payload-bitflip | cli | 2 | 0 | 2 | 0 | 0 | 0 | 0 | 0 |" in summary, summary
    print("mutation_campaign_smoke: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
