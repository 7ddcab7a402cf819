"""Fixtures of the interoperability matrix: every case written once per writer and format.

Environment (set by run.sh): TACO_CLI (the `taco` executable under test), TACO_PEERS_VENV,
and PYTHONPATH with this build's taco_cpp package when the build has one.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import subprocess

import pytest

import cases as C
import readers as R

WRITERS = ("tacotoolbox", "taco-cli", "taco_cpp")

# tacotoolbox's GeotiffStats asks GDAL for statistics, which GDAL would save as
# <file>.aux.xml sidecars in the source tree (that `taco create` would then take for samples).
os.environ["GDAL_PAM_ENABLED"] = "NO"


def taco_cpp_module():
    try:
        import taco_cpp  # noqa: F401
    except ImportError:
        return None
    return taco_cpp


@dataclasses.dataclass
class Built:
    case: C.Case
    src: pathlib.Path
    work: pathlib.Path
    outputs: dict = dataclasses.field(default_factory=dict)  # (writer, fmt) -> dataset path


class Matrix:
    """Writes each case lazily, once per (writer, format)."""

    def __init__(self, root: pathlib.Path, cli: R.TacoCli):
        self.root, self.cli, self.built = root, cli, {}

    def case(self, name: str) -> Built:
        if name not in self.built:
            case = C.CASES[name]()
            work = self.root / name
            src = work / "src"
            src.mkdir(parents=True)
            C.build_tree(case, src)
            b = Built(case, src, work)
            # tacotoolbox computes the extension values; the other writers reuse them
            b.toolbox = C.toolbox_taco(case, src) if "tacotoolbox" in case.writers else None
            if b.toolbox is None:
                C.toolbox_samples(case, src)  # fills ext values of extension objects, if any
            self.built[name] = b
        return self.built[name]

    def output(self, name: str, writer: str, fmt: str) -> str:
        b = self.case(name)
        if (writer, fmt) in b.outputs:
            return b.outputs[(writer, fmt)]
        case = b.case
        out_dir = b.work / writer.replace("_", "-") / fmt
        out_dir.mkdir(parents=True, exist_ok=True)
        out = out_dir / (f"{case.name}.tacozip" if fmt == "zip" else case.name)
        split = case.split_size if fmt == "zip" else None
        if writer == "tacotoolbox":
            import tacotoolbox

            tacotoolbox.create(b.toolbox, out, output_format=fmt, split_size=split or "4GB")
        elif writer == "taco-cli":
            args = C.write_cli_inputs(case, b.src, b.work)
            if split:
                args += ["--split-size", split]
            self.cli.run("create", str(b.src), str(out), "--format", fmt, *args)
        elif writer == "taco_cpp":
            m = taco_cpp_module()
            m.create(C.taco_cpp_taco(case, b.src, m), str(out), format=fmt, split_size=split)
        else:
            raise ValueError(writer)
        path = str(out_dir / ".tacocat") if split else str(out)
        if split:
            assert (out_dir / ".tacocat").is_dir(), f"{writer}: no .tacocat/ beside the parts in {out_dir}"
        b.outputs[(writer, fmt)] = path
        return path


@pytest.fixture(scope="session")
def cli() -> R.TacoCli:
    exe = os.environ.get("TACO_CLI")
    if not exe:
        pytest.fail("TACO_CLI is not set (run the matrix through tests/interop/run.sh or ctest)")
    return R.TacoCli(exe)


@pytest.fixture(scope="session")
def matrix(tmp_path_factory, cli) -> Matrix:
    return Matrix(tmp_path_factory.mktemp("matrix"), cli)


@pytest.fixture(scope="session")
def readers(cli) -> dict:
    out = {"taco-cli": cli, "tacoreader": R.Tacoreader()}
    m = taco_cpp_module()
    if m is not None:
        out["taco_cpp"] = R.TacoCpp(m)
    return out


def need_writer(writer: str):
    if writer == "taco_cpp" and taco_cpp_module() is None:
        pytest.skip("taco_cpp is not built in this tree (the Python package is built with nanobind in .venv)")


def need_reader(readers: dict, reader: str):
    if reader not in readers:
        pytest.skip(f"{reader} is not available in this build")
