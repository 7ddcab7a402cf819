"""The differential suite (ctest `compat_differential`, run by run.sh in .venv-peers/).

One test per script under tests/compat/diff/scripts/<tool>/: the script ran once with the
real tool and once with taco_cpp.compat.install(); the runs must agree (stdout JSON exactly,
exit status, out/ trees) except for the deliberate differences of deliberate/<tool>.toml,
which must hold as documented. All scripts run in parallel in one session fixture, so the
suite takes the time of the slowest few, not their sum.
"""

from __future__ import annotations

import pytest

import compare
import runner

SCRIPTS = runner.discover()
DELIBERATE = compare.load_deliberate(runner.DELIBERATE)


@pytest.fixture(scope="session")
def results():
    return runner.run_all(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.key for s in SCRIPTS])
def test_script(script, results):
    runs = results[script.key]
    problems = runner.module_problems(script, runs)
    problems += compare.judge(runs["upstream"], runs["compat"], DELIBERATE.get(script.key), script.out_rules)
    assert not problems, f"{script.key}:\n" + "\n".join(problems)


def test_deliberate_entries_name_existing_scripts():
    every = {f"{p.parent.name}/{p.name}" for t in runner.TOOLS for p in (runner.SCRIPTS / t).glob("*.py")}
    missing = sorted(k for k in DELIBERATE if k not in every)
    assert not missing, f"deliberate differences for scripts that do not exist: {missing}"


def test_harness_catches_a_difference():
    """The comparison can fail: a changed value, an undocumented pointer, a wrong documented value."""
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as t:
        out = pathlib.Path(t)
        run = lambda doc, rc=0: {"rc": rc, "stdout": doc, "stderr": "", "out": out}  # noqa: E731
        assert compare.judge(run('{"a": 1}'), run('{"a": 1}'), None, []) == []
        assert compare.judge(run('{"a": 1}'), run('{"a": 2}'), None, [])
        assert compare.judge(run('{"a": 1}'), run('{"a": 1}', rc=1), None, [])
        d = {"compat": {"/a": 2}, "upstream": {"/a": 1}, "exit": None, "files": {}}
        assert compare.judge(run('{"a": 1, "b": 0}'), run('{"a": 2, "b": 0}'), d, []) == []
        assert compare.judge(run('{"a": 1, "b": 0}'), run('{"a": 3, "b": 0}'), d, [])
        assert compare.judge(run('{"a": 1, "b": 0}'), run('{"a": 2, "b": 1}'), d, [])
