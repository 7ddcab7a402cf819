"""ctest python_wheel: installs dist/taco_cpp-*.whl (`make wheel`) into a fresh venv and runs
tests/wheel/walk.py there, as a user without this repository or a compiler would.

* The wheel must be a repaired manylinux wheel holding the module, libduckdb, libgdal, libproj
  (taco_cpp.libs/), proj.db and GDAL's data, py.typed and the stubs.
* The venv is made by the system interpreter without --system-site-packages. Its only other
  path is a .pth naming the site-packages of the project venv (.venv/), which holds the pinned
  numpy, pyarrow and pandas the wheel depends on (pip checks them, offline: --no-index) and no
  taco_cpp. walk.py checks that taco_cpp and its libraries come from the venv.
* The walk runs with `python -I` (no PYTHONPATH, no user site, no current directory), from a
  temporary directory, with PATH = the venv's bin/ only (no cc/c++/cmake), and no
  LD_LIBRARY_PATH, PROJ_DATA or GDAL_DATA.
Usage: wheel_install_test.py DIST_DIR PROJECT_VENV_PYTHON
"""

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message: str) -> None:
    print(f"python_wheel: {message}", file=sys.stderr)
    sys.exit(1)


def check_wheel(wheel: str) -> None:
    name = os.path.basename(wheel)
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    if f"-{tag}-{tag}-manylinux_" not in name or not name.endswith("_x86_64.whl"):
        fail(f"{name}: not a {tag} manylinux_x86_64 wheel (was it repaired by auditwheel?)")
    members = zipfile.ZipFile(wheel).namelist()
    wanted = {
        "the module": lambda m: m.startswith("taco_cpp/_native.") and m.endswith(".so"),
        "libduckdb": lambda m: m.startswith("taco_cpp.libs/libduckdb"),
        "libgdal": lambda m: m.startswith("taco_cpp.libs/libgdal"),
        "libproj": lambda m: m.startswith("taco_cpp.libs/libproj"),
        "proj.db": lambda m: m == "taco_cpp/_data/proj/proj.db",
        "GDAL data": lambda m: m == "taco_cpp/_data/gdal/gdalvrt.xsd",
        "py.typed": lambda m: m == "taco_cpp/py.typed",
        "the stubs": lambda m: m == "taco_cpp/_native.pyi",
    }
    for what, match in wanted.items():
        if not any(match(m) for m in members):
            fail(f"{name} lacks {what}")
    stray = [m for m in members if "__pycache__" in m or m.endswith(".pyc")]
    if stray:
        fail(f"{name} holds compiled caches: {stray[:3]}")


def main() -> None:
    dist, project_python = os.path.abspath(sys.argv[1]), sys.argv[2]
    wheels = glob.glob(os.path.join(dist, "taco_cpp-*.whl"))
    if len(wheels) != 1:
        fail(f"expected one wheel in {dist}, found {wheels} (run `make wheel`)")
    check_wheel(wheels[0])

    deps_site = subprocess.run([project_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="taco-wheel-")
    try:
        venv = os.path.join(work, "venv")
        subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
        vpy = os.path.join(venv, "bin", "python")
        site = subprocess.run([vpy, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
        with open(os.path.join(site, "taco_deps.pth"), "w") as f:
            f.write(deps_site + "\n")
        env = {"PATH": os.path.join(venv, "bin"), "HOME": work, "LANG": "C.UTF-8", "TMPDIR": work}
        subprocess.run([vpy, "-m", "pip", "install", "--no-index", "--no-cache-dir", "--disable-pip-version-check",
                        "-q", wheels[0]], check=True, env=env, cwd=work)
        shutil.copy(os.path.join(HERE, "walk.py"), os.path.join(work, "walk.py"))
        run = subprocess.run([vpy, "-I", "walk.py"], env=env, cwd=work)
        if run.returncode != 0:
            fail(f"the walk failed in the fresh venv (exit {run.returncode})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("python_wheel: ok")


if __name__ == "__main__":
    main()
