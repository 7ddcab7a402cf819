"""Runs one differential script as __main__ and ends the process without interpreter
finalization: launch.py SCRIPT ARGS...

Both tools' processes sometimes abort after the script has printed its result (about 1 run in
10 for tacoreader 2.4.21 with pyarrow, rarely for compat): at finalization CPython ends daemon
threads that are still inside native code with a forced unwind, which std::terminate turns into
SIGABRT. That is a property of the interpreter shutdown, not of the API the suite compares, so
both runs end the same way here: the script runs, its exit status is taken as CPython would
(SystemExit code, 1 after an uncaught exception with its traceback on stderr), the atexit
callbacks run (the module report of sitecustomize is one), the standard streams are flushed, and
os._exit ends the process."""

import atexit
import os
import runpy
import sys
import traceback


def _status(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def main() -> None:
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        runpy.run_path(script, run_name="__main__")
        rc = 0
    except SystemExit as e:
        rc = _status(e)
    except BaseException:  # noqa: BLE001 - reported as CPython would, then the status
        traceback.print_exc()
        rc = 1
    try:
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)


if __name__ == "__main__":
    main()
