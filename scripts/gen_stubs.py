"""Writes python/taco_cpp/_native.pyi, the type stubs of the extension module, with nanobind's
stubgen over the module of a build tree: `.venv/bin/python scripts/gen_stubs.py build`
(`--check` compares instead of writing, and fails when the committed stubs differ: ctest
python_typing runs it, so a binding changed without new stubs fails `make test`).

nanobind names C++ types it has no Python binding for as strings; the only one is the
command-line key taco::TextKey of taco::SampleKey, which Python never passes (int | str), so it
is dropped from the signatures."""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB = os.path.join(HERE, "python", "taco_cpp", "_native.pyi")
HEADER = ("# Type stubs of taco_cpp._native (the nanobind module of python/src/), written by\n"
          "# scripts/gen_stubs.py from nanobind's stubgen: do not edit, run it after changing a binding.\n")


def generate(build: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "_native.pyi")
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(build), "python"))
        subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "taco_cpp._native", "-o", out],
                       check=True, env=env)
        with open(out, encoding="utf-8") as f:
            text = f.read()
    text = text.replace(' | "taco::TextKey"', "")
    # stubgen leaves out dunder attributes; the package reads this one.
    text = text.replace("TACO_SPEC_VERSION: str", "__version__: str\n\nTACO_SPEC_VERSION: str", 1)
    if '"taco::' in text:
        raise SystemExit(f"gen_stubs: an unbound C++ type is left in the stubs: {text[text.index(chr(34) + 'taco::'):][:60]}")
    return HEADER + text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = generate(args.build)
    if args.check:
        with open(STUB, encoding="utf-8") as f:
            if f.read() != text:
                raise SystemExit("gen_stubs: python/taco_cpp/_native.pyi is out of date with the module "
                                 "(run: .venv/bin/python scripts/gen_stubs.py build)")
        print("gen_stubs: python/taco_cpp/_native.pyi is up to date")
        return
    with open(STUB, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
