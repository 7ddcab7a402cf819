"""ctest python_typing: the type information taco_cpp ships (py.typed, python/taco_cpp/_native.pyi)
is current and is what mypy checks.

1. scripts/gen_stubs.py --check: the committed _native.pyi equals nanobind's stubgen over the
   module of this build (a binding changed without new stubs fails here).
2. mypy (pinned) over the stubs, the package modules with full annotations and
   tests/typing/usage.py (a typed session): no error.
3. mypy over tests/typing/misuse.py: exactly one error on each line marked `# error`, and none
   elsewhere.
Usage: check_typing.py BUILD_DIR
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = os.path.join("python", "taco_cpp")
CHECKED = [os.path.join(PKG, name) for name in ("_native.pyi", "__init__.py", "reader.py", "writer.py",
                                                 "_tools.py", "_progress.py", "_display.py", "_html.py",
                                                 "_pit.py", "_convert.py", "errors.py")]


def mypy(*files: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", "--no-error-summary",
                           "--cache-dir", os.devnull, *files], cwd=ROOT, capture_output=True, text=True)


def main() -> None:
    build = sys.argv[1]
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_stubs.py"), build, "--check"], check=True)
    if not os.path.exists(os.path.join(ROOT, PKG, "py.typed")):
        sys.exit("python_typing: python/taco_cpp/py.typed is missing")

    good = mypy(*CHECKED, os.path.join("tests", "typing", "usage.py"))
    if good.returncode != 0:
        sys.exit(f"python_typing: mypy found errors in the package or usage.py:\n{good.stdout}{good.stderr}")

    misuse = os.path.join("tests", "typing", "misuse.py")
    with open(os.path.join(ROOT, misuse), encoding="utf-8") as f:
        expected = {i for i, line in enumerate(f, 1) if "  # error:" in line}
    bad = mypy(misuse)
    found = {int(m.group(1)) for m in re.finditer(r"misuse\.py:(\d+): error", bad.stdout)}
    if found != expected:
        sys.exit(f"python_typing: mypy on misuse.py flagged lines {sorted(found)}, expected {sorted(expected)}:\n"
                 f"{bad.stdout}{bad.stderr}")
    print(f"python_typing: stubs current; {len(CHECKED) + 1} files clean; {len(expected)} misuses caught")


if __name__ == "__main__":
    main()
