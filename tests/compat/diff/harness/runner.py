"""Runs the differential scripts: each twice (real upstream, then taco_cpp.compat.install()),
in the same WORKDIR path so that paths in the results agree, scripts in parallel processes.

Environment (set by run.sh): TACO_BUILD (the build dir, whose python/ has taco_cpp),
DIFF_WORK (scratch root), DIFF_JOBS (parallel scripts, default 4), DIFF_SCRIPTS (fnmatch
patterns, comma-separated, on "<tool>/<name>.py": run only those).

A script's header (comment lines at its top) may say:
  # inputs: flat_zip, nested_folder      inputs copied into WORKDIR (fixtures.INPUTS)
  # out-rule: GLOB RULE                  how out/ files matching GLOB compare (compare.RULES)
  # timeout: SECONDS                     per run (default 120)
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import fnmatch
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
SCRIPTS = HERE.parent / "scripts"
DELIBERATE = HERE.parent / "deliberate"
TOOLS = ("tacoreader", "tacotoolbox", "tacobridge")


@dataclasses.dataclass
class Script:
    key: str                      # "<tool>/<name>.py"
    path: pathlib.Path
    inputs: list[str]
    out_rules: list[tuple[str, str]]
    timeout: float = 120.0


def parse_header(path: pathlib.Path) -> Script:
    inputs: list[str] = []
    rules: list[tuple[str, str]] = []
    timeout = 120.0
    for line in path.read_text().splitlines():
        s = line.strip()
        if not s.startswith("#"):
            if s and not s.startswith(('"""', "'''")):
                break
            continue
        body = s[1:].strip()
        if body.startswith("inputs:"):
            inputs += [x.strip() for x in body[7:].split(",") if x.strip()]
        elif body.startswith("out-rule:"):
            glob, rule = body[9:].split()
            rules.append((glob, rule))
        elif body.startswith("timeout:"):
            timeout = float(body[8:])
    key = f"{path.parent.name}/{path.name}"
    return Script(key, path, inputs, rules, timeout)


def discover() -> list[Script]:
    patterns = [p.strip() for p in os.environ.get("DIFF_SCRIPTS", "").split(",") if p.strip()]
    out = []
    for tool in TOOLS:
        for p in sorted((SCRIPTS / tool).glob("*.py")):
            if p.name.startswith("_"):
                continue
            key = f"{tool}/{p.name}"
            if patterns and not any(fnmatch.fnmatch(key, pat) for pat in patterns):
                continue
            out.append(parse_header(p))
    return out


def work_root() -> pathlib.Path:
    root = pathlib.Path(os.environ.get("DIFF_WORK") or (pathlib.Path(os.environ.get("TACO_BUILD", ".")) / "compat-diff"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def _env(mode: str, report: pathlib.Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    paths = [str(HERE / "site"), str(HERE)]
    if mode == "compat":
        build = os.environ.get("TACO_BUILD")
        if not build:
            raise RuntimeError("TACO_BUILD is not set: the compat run needs the build's python/ directory")
        paths.append(str(pathlib.Path(build) / "python"))
    env.update(PYTHONPATH=os.pathsep.join(paths), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0", TZ="UTC",
               DIFF_MODE=mode, DIFF_MODULES_REPORT=str(report), PYTHONIOENCODING="utf-8")
    return env


def build_inputs(names: set[str]) -> pathlib.Path:
    """Each input once, by the real tacotoolbox (a plain peers-venv process, no taco_cpp)."""
    # keyed by the builder's own hash: editing fixtures.py rebuilds them
    digest = hashlib.sha256((HERE / "fixtures.py").read_bytes()).hexdigest()[:12]
    root = work_root() / "inputs" / digest
    root.mkdir(parents=True, exist_ok=True)
    todo = [n for n in sorted(names) if not (root / n / ".done").exists()]

    def one(n):
        r = subprocess.run([sys.executable, str(HERE / "fixtures.py"), str(root), n], capture_output=True, text=True,
                           env=_env("upstream", root / f".{n}.modules.json"), timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"building input {n} failed:\n{r.stdout}\n{r.stderr}")
        (root / n / ".done").write_text("ok")

    with cf.ThreadPoolExecutor(max_workers=int(os.environ.get("DIFF_JOBS", "4"))) as ex:
        list(ex.map(one, todo))
    return root


def _prepare(wd: pathlib.Path, script: Script, inputs_root: pathlib.Path) -> None:
    from fixtures import INPUTS

    if wd.exists():
        shutil.rmtree(wd)
    wd.mkdir(parents=True)
    (wd / "out").mkdir()
    for n in script.inputs:
        rel = INPUTS[n].rstrip("/")
        src = inputs_root / n / rel
        if src.is_dir():
            shutil.copytree(src, wd / rel, symlinks=True)
        else:
            shutil.copy2(src, wd / rel)


def run_script(script: Script, inputs_root: pathlib.Path) -> dict:
    """Both runs of one script: {"upstream": run, "compat": run}, run = {"rc", "stdout", "stderr",
    "out", "modules"}."""
    base = work_root() / "runs" / script.key.replace("/", "__")[:-3]
    wd = base / "work"
    result = {}
    for mode in ("upstream", "compat"):
        _prepare(wd, script, inputs_root)
        report = base / f"{mode}.modules.json"
        if report.exists():
            report.unlink()
        # launch.py ends the process without interpreter finalization (see its docstring)
        try:
            r = subprocess.run([sys.executable, str(HERE / "launch.py"), str(script.path), str(wd)], cwd=wd,
                               capture_output=True, text=True, env=_env(mode, report), timeout=script.timeout)
            rc, so, se = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired as e:
            rc, so, se = -999, "", f"timed out after {script.timeout} s\n{e.stderr or ''}"
        kept = base / mode
        if kept.exists():
            shutil.rmtree(kept)
        wd.rename(kept)
        mods = json.loads(report.read_text()) if report.exists() else {}
        result[mode] = {"rc": rc, "stdout": so, "stderr": se, "out": kept / "out", "modules": mods}
        # kept for looking at a failure afterwards (and for re-judging without re-running)
        (base / f"{mode}.result.json").write_text(json.dumps({k: v for k, v in result[mode].items() if k != "out"}))
    return result


def module_problems(script: Script, runs: dict) -> list[str]:
    """Each run used what it claims: upstream never taco_cpp; compat's tool modules from taco_cpp."""
    problems = []
    up = runs["upstream"]["modules"]
    if any(n.split(".")[0] == "taco_cpp" for n in up):
        problems.append("the upstream run imported taco_cpp")
    for name, f in runs["compat"]["modules"].items():
        if name.split(".")[0] in TOOLS and "taco_cpp" not in str(f):
            problems.append(f"the compat run loaded {name} from {f} (not taco_cpp)")
    tool = script.key.split("/")[0]
    if runs["upstream"]["rc"] == 0 and not any(n.split(".")[0] == tool for n in up):
        problems.append(f"the script never imported {tool}")
    return problems


def run_all(scripts: list[Script]) -> dict[str, dict]:
    names = {n for s in scripts for n in s.inputs}
    inputs_root = build_inputs(names)
    jobs = int(os.environ.get("DIFF_JOBS", "4"))
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {s.key: ex.submit(run_script, s, inputs_root) for s in scripts}
        return {k: f.result() for k, f in futs.items()}
