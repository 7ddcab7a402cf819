"""The readers of the matrix behind one small interface, and value normalisation.

Every reader answers the same questions about a dataset path:
  levels(path)               -> per level, the rows without internal:* columns (padding hidden)
  file_bytes(path, keys)     -> the bytes of the FILE reached by the id path `keys`
  bbox / datetime / where    -> the level-0 ids a filter keeps
Values are normalised to what `taco sql --json` prints (binary as 0x-hex, timestamps as ISO
text, floats as floats), so that Arrow tables and the CLI's JSON compare directly.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import subprocess
from typing import Any


def norm(v: Any) -> Any:
    """One value in the CLI's JSON spelling."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "0x" + bytes(v).hex()
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        text = v.strftime("%Y-%m-%dT%H:%M:%S")
        if v.year < 1000:
            text = f"{v.year:04d}" + text[len(str(v.year)):]
        return text + (f".{v.microsecond:06d}" if v.microsecond else "")
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def same(a: Any, b: Any) -> bool:
    """Equality with float tolerance (float32 columns print with fewer digits)."""
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def public_rows(rows: list[dict]) -> list[dict]:
    return [{k: norm(v) for k, v in r.items() if not k.startswith("internal:")} for r in rows]


def diff_rows(got: list[dict], want: list[dict], ordered: bool = True) -> str:
    """'' when equal, else a short description of the first difference."""
    if not ordered:
        key = lambda r: json.dumps(r, sort_keys=True, ensure_ascii=False, default=str)  # noqa: E731
        got, want = sorted(got, key=key), sorted(want, key=key)
    if len(got) != len(want):
        return f"{len(got)} rows, expected {len(want)}: ids {[r.get('id') for r in got]} vs {[r.get('id') for r in want]}"
    for i, (g, w) in enumerate(zip(got, want)):
        if g.keys() != w.keys():
            return f"row {i} ({w.get('id')}): columns {sorted(g)} vs expected {sorted(w)}"
        for k in w:
            if not same(g[k], w[k]):
                return f"row {i} ({w.get('id')}): {k} = {g[k]!r}, expected {w[k]!r}"
    return ""


def read_vsi(path: str) -> bytes:
    """All bytes of a GDAL path (/vsisubfile/... or a plain file) through GDAL's VSI."""
    from osgeo import gdal

    f = gdal.VSIFOpenL(path, "rb")
    if f is None:
        raise OSError(f"GDAL cannot open {path}")
    try:
        gdal.VSIFSeekL(f, 0, 2)
        size = gdal.VSIFTellL(f)
        gdal.VSIFSeekL(f, 0, 0)
        return bytes(gdal.VSIFReadL(1, size, f)) if size else b""
    finally:
        gdal.VSIFCloseL(f)


# ---- taco-cpp, the command line ----------------------------------------------------------

class TacoCli:
    name = "taco-cli"

    def __init__(self, exe: str):
        self.exe = exe

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        p = subprocess.run([self.exe, *args], capture_output=True, timeout=120)
        if check and p.returncode != 0:
            raise AssertionError(f"taco {' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
        return p

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args).stdout)

    def num_levels(self, path: str) -> int:
        return len(self.json("info", "--json", path)["levels"])

    def levels(self, path: str) -> list[list[dict]]:
        return [public_rows(self.json("sql", path, f"SELECT * FROM level{i}", "--json"))
                for i in range(self.num_levels(path))]

    def file_bytes(self, path: str, keys: tuple[str, ...]) -> bytes:
        return self.run("cat", path, *keys).stdout

    def gdal_path(self, path: str, keys: tuple[str, ...]) -> str:
        return self.run("read", path, *keys).stdout.decode().strip()

    def bbox(self, path: str, box) -> list[str]:
        return [r["id"] for r in self.json("filter", path, "--bbox", ",".join(map(repr, box)), "--json")]

    def datetime(self, path: str, rng: str) -> list[str]:
        return [r["id"] for r in self.json("filter", path, "--datetime", rng, "--json")]

    def sql_ids(self, path: str, query: str) -> list[str]:
        return [r["id"] for r in self.json("sql", path, query.replace("SELECT *", "SELECT id"), "--json")]

    def validate(self, path: str) -> subprocess.CompletedProcess:
        return self.run("validate", "--json", path, check=False)


# ---- taco-cpp, the Python package ----------------------------------------------------------

class TacoCpp:
    name = "taco_cpp"

    def __init__(self, module):
        self.m = module

    def levels(self, path: str) -> list[list[dict]]:
        ds = self.m.load(path)
        return [public_rows(ds.query(f"SELECT * FROM level{i}").to_pylist()) for i in range(ds.num_levels)]

    def file_bytes(self, path: str, keys: tuple[str, ...]) -> bytes:
        return self.m.load(path).read_bytes(*keys)

    def bbox(self, path: str, box) -> list[str]:
        return self.m.load(path).filter_bbox(*box).data.column("id").to_pylist()

    def datetime(self, path: str, rng: str) -> list[str]:
        return self.m.load(path).filter_datetime(rng).data.column("id").to_pylist()

    def sql_ids(self, path: str, query: str) -> list[str]:
        return self.m.load(path).sql(query).data.column("id").to_pylist()


# ---- tacoreader ----------------------------------------------------------------------------

class Tacoreader:
    """tacoreader 2.4.21 (pyarrow back end). Its level tables come from its flat SQL views
    (`l0`, `l1`, ... with columns prefixed "l<N>:"), its navigation from read()."""

    name = "tacoreader"

    def __init__(self):
        import tacoreader

        self.tr = tacoreader
        self._loaded = {}

    def load(self, path: str):
        """tacoreader.load(path), once per path (filters return new datasets)."""
        if path not in self._loaded:
            self._loaded[path] = self.tr.load(path)
        return self._loaded[path]

    def levels(self, path: str) -> list[list[dict]]:
        ds = self.load(path)
        out = []
        for i in range(ds.pit_schema.max_depth() + 1):
            t = ds.sql(f"SELECT * FROM l{i}")
            prefix = f"l{i}:"
            cols = [c for c in t.column_names if c.startswith(prefix)]
            rows = [{c[len(prefix):]: r[c] for c in cols} for r in t.to_pylist()]
            out.append(public_rows(rows))
        return out

    def raw_level(self, path: str, level: int) -> list[dict]:
        """A level's rows with the internal columns (offsets as the dataset stores them)."""
        ds = self.load(path)
        t = ds.sql(f"SELECT * FROM l{level}")
        prefix = f"l{level}:"
        return [{c[len(prefix):]: r[c] for c in t.column_names if c.startswith(prefix)} for r in t.to_pylist()]

    def gdal_path(self, path: str, keys: tuple[str, ...]) -> str:
        node = self.load(path)
        for k in keys:
            node = node.read(k)
        assert isinstance(node, str), f"tacoreader: {keys} is not a FILE"
        return node

    def file_bytes(self, path: str, keys: tuple[str, ...]) -> bytes:
        return read_vsi(self.gdal_path(path, keys))

    @staticmethod
    def _ids(ds) -> list[str]:
        df = ds.data
        return df.head(len(df)).column("id").to_pylist()

    def bbox(self, path: str, box) -> list[str]:
        return self._ids(self.load(path).filter_bbox(*box))

    def datetime(self, path: str, rng: str) -> list[str]:
        return self._ids(self.load(path).filter_datetime(rng))

    def sql_ids(self, path: str, query: str) -> list[str]:
        """tacoreader 2.4.21's sql() queries its flat views: `data` becomes l0 and every
        column is spelled "l0:<name>"."""
        ds = self.load(path)
        cols = [c for c in ds.data.columns]
        q = query.replace("SELECT *", 'SELECT "l0:id"').replace("FROM data", "FROM l0")
        for c in sorted(cols, key=len, reverse=True):
            q = q.replace(f'"{c}"', f'"l0:{c}"')
            q = _replace_word(q, c, f'"l0:{c}"')
        return ds.sql(q).column("l0:id").to_pylist()


def _replace_word(q: str, word: str, repl: str) -> str:
    """Replaces a bare identifier (not inside quotes) in a small test query."""
    import re

    out, quoted = [], False
    for part in re.split(r"('[^']*'|\"[^\"]*\")", q):
        if part.startswith(("'", '"')):
            out.append(part)
        else:
            out.append(re.sub(rf"(?<![\w:\"]){re.escape(word)}(?![\w:\"])", repl, part))
    return "".join(out)


# ---- taco-eo --------------------------------------------------------------------------------

def taco_eo_open(paths: list[str]) -> dict[str, str]:
    """taco.open_dataset(path).read() for each path, in taco-eo's own venv (one process);
    returns path -> 'ok' or '<error type>: <message>'."""
    py = os.path.join(os.environ["TACO_PEERS_VENV"], "taco-eo", "bin", "python")
    code = ("import sys, json, taco\n"
            "out = {}\n"
            "for p in json.loads(sys.stdin.read()):\n"
            "    try:\n        taco.open_dataset(p).read(); out[p] = 'ok'\n"
            "    except Exception as e:\n        out[p] = type(e).__name__ + ': ' + str(e)\n"
            "print(json.dumps(out))\n")
    p = subprocess.run([py, "-c", code], input=json.dumps(paths), capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError(f"taco-eo runner failed: {p.stderr[-2000:]}")
    return json.loads(p.stdout)
