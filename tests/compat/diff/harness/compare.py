"""Comparison of the two runs of a script, and the table of deliberate differences.

Deliberate differences live in tests/compat/diff/deliberate/<tool>.toml, one file per tool:

    [[difference]]
    script = "flat_views_tacocat.py"          # under scripts/<tool>/
    reason = "why compat differs (upstream is wrong because ...)"
    [difference.compat]                       # JSON pointer (RFC 6901) -> what compat MUST give
    "/l1/rows" = 16
    [difference.upstream]                     # optional: what upstream gives today (asserted
    "/l1/rows" = 128                          #   too, so that an upstream change is noticed)
    # optional: exit = { compat = 0, upstream = 1 }   (a list: any of those statuses)
    # optional: files = { "out/x.parquet" = "exists" }   out/ rule per glob (see RULES)

A value that is a string starting with "json:" is the JSON that follows (for null, objects);
the string "<any>" masks the pointer without asserting a value (e.g. a message holding a path).
A pointer may appear in `upstream` without `compat` only when compat must give the same
document everywhere else. Outside the listed pointers the two documents must be equal.

out/ files are compared byte for byte unless a rule says otherwise (the script's header
`# out-rule: GLOB RULE`, or `files` above): RULES maps a rule name to a function
(upstream_path, compat_path) -> None or a message.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import json
import pathlib
import tomllib

MASK = "<deliberate difference>"


# ---- JSON pointers ----------------------------------------------------------------------------

def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def get(doc, pointer: str):
    cur = doc
    for t in _tokens(pointer):
        if isinstance(cur, list):
            cur = cur[int(t)]
        elif isinstance(cur, dict):
            cur = cur[t]
        else:
            raise KeyError(pointer)
    return cur


def masked(doc, pointers):
    """A copy of doc with the value at each pointer replaced by MASK (missing ones left)."""
    doc = copy.deepcopy(doc)
    for p in pointers:
        toks = _tokens(p)
        if not toks:
            return MASK
        cur = doc
        try:
            for t in toks[:-1]:
                cur = cur[int(t)] if isinstance(cur, list) else cur[t]
            last = toks[-1]
            if isinstance(cur, list):
                cur[int(last)] = MASK
            elif last in cur:
                cur[last] = MASK
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    return doc


def _value(v):
    if isinstance(v, str) and v.startswith("json:"):
        return json.loads(v[5:])
    return v


# ---- deliberate differences -------------------------------------------------------------------

def load_deliberate(directory: pathlib.Path) -> dict[str, dict]:
    """"<tool>/<script>" -> its entry ({"reason", "compat", "upstream", "exit", "files"})."""
    out: dict[str, dict] = {}
    for f in sorted(directory.glob("*.toml")):
        tool = f.stem
        data = tomllib.loads(f.read_text())
        for entry in data.get("difference", []):
            key = f"{tool}/{entry['script']}"
            if key in out:
                raise ValueError(f"{f}: {entry['script']} listed twice")
            if not entry.get("reason", "").strip():
                raise ValueError(f"{f}: {entry['script']}: a deliberate difference needs a reason")
            if not entry.get("compat") and not entry.get("exit") and not entry.get("files"):
                raise ValueError(f"{f}: {entry['script']}: say what compat must give ([difference.compat])")
            out[key] = {
                "reason": entry["reason"],
                "compat": {p: _value(v) for p, v in entry.get("compat", {}).items()},
                "upstream": {p: _value(v) for p, v in entry.get("upstream", {}).items()},
                "exit": entry.get("exit"),
                "files": entry.get("files", {}),
            }
    return out


# ---- out/ trees -------------------------------------------------------------------------------

def _bytes(a: pathlib.Path, b: pathlib.Path):
    if a.read_bytes() != b.read_bytes():
        return (f"bytes differ (upstream {a.stat().st_size} B sha256 {hashlib.sha256(a.read_bytes()).hexdigest()[:12]}, "
                f"compat {b.stat().st_size} B sha256 {hashlib.sha256(b.read_bytes()).hexdigest()[:12]})")
    return None


def _exists(a: pathlib.Path, b: pathlib.Path):
    return None


def _json(a: pathlib.Path, b: pathlib.Path):
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    return None if ja == jb else "JSON values differ"


def _parquet(a: pathlib.Path, b: pathlib.Path):
    import pyarrow.parquet as pq

    ta, tb = pq.read_table(a), pq.read_table(b)
    if ta.schema.names != tb.schema.names or ta.schema.types != tb.schema.types:
        return f"Parquet schemas differ: {ta.schema} vs {tb.schema}"
    return None if ta.equals(tb) else "Parquet values differ"


RULES = {"bytes": _bytes, "exists": _exists, "json": _json, "parquet": _parquet}


def _tree(root: pathlib.Path) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink())


def compare_out(up: pathlib.Path, co: pathlib.Path, rules: list[tuple[str, str]]) -> list[str]:
    """Differences between two out/ trees; rules: [(glob, rule)], first match wins."""
    problems = []
    ta, tb = _tree(up), _tree(co)
    if ta != tb:
        problems.append(f"out/ file lists differ: only upstream {sorted(set(ta) - set(tb))}, "
                        f"only compat {sorted(set(tb) - set(ta))}")
    for rel in sorted(set(ta) & set(tb)):
        rule = "bytes"
        for glob, r in rules:
            if fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch("out/" + rel, glob):
                rule = r
                break
        msg = RULES[rule](up / rel, co / rel)
        if msg:
            problems.append(f"out/{rel} ({rule}): {msg}")
    return problems


# ---- one script -------------------------------------------------------------------------------

def _short(doc) -> str:
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False)
    return text if len(text) < 4000 else text[:4000] + " ..."


def diff_docs(a, b, path: str = "") -> list[str]:
    """Where two JSON documents differ (JSON pointers with both values), at most 20."""
    out: list[str] = []

    def walk(x, y, p):
        if len(out) >= 20:
            return
        if type(x) is not type(y):
            out.append(f"{p or '/'}: upstream {_short(x)} | compat {_short(y)}")
        elif isinstance(x, dict):
            for k in sorted(set(x) | set(y)):
                if k not in x or k not in y:
                    out.append(f"{p}/{k}: only in {'compat' if k not in x else 'upstream'}")
                else:
                    walk(x[k], y[k], f"{p}/{k}")
        elif isinstance(x, list):
            if len(x) != len(y):
                out.append(f"{p or '/'}: lengths {len(x)} vs {len(y)}: upstream {_short(x)} | compat {_short(y)}")
            else:
                for i, (u, v) in enumerate(zip(x, y)):
                    walk(u, v, f"{p}/{i}")
        elif x != y:
            out.append(f"{p or '/'}: upstream {_short(x)} | compat {_short(y)}")

    walk(a, b, path)
    return out


def judge(up: dict, co: dict, deliberate: dict | None, out_rules: list[tuple[str, str]]) -> list[str]:
    """Problems of one script (empty = the runs agree, or differ only as documented).
    up/co: {"rc", "stdout", "stderr", "out": pathlib.Path}."""
    problems = []
    d = deliberate or {"compat": {}, "upstream": {}, "exit": None, "files": {}}
    docs = {}
    for name, run in (("upstream", up), ("compat", co)):
        try:
            docs[name] = json.loads(run["stdout"])
        except json.JSONDecodeError:
            problems.append(f"{name} run printed no JSON document (exit {run['rc']}); stderr:\n{run['stderr'][-3000:]}")
    if problems:
        return problems
    if d["exit"]:
        for name, run in (("upstream", up), ("compat", co)):
            want = d["exit"].get(name)
            if want is not None and run["rc"] not in (want if isinstance(want, list) else [want]):
                problems.append(f"{name} exit {run['rc']}, documented {want}")
    elif up["rc"] != co["rc"]:
        problems.append(f"exit status: upstream {up['rc']}, compat {co['rc']}\ncompat stderr:\n{co['stderr'][-3000:]}")
    for name in ("compat", "upstream"):
        for p, want in d[name].items():
            try:
                got = get(docs[name], p)
            except (KeyError, IndexError, ValueError, TypeError):
                problems.append(f"deliberate difference: {name} has no {p}")
                continue
            if want != "<any>" and got != want:
                problems.append(f"deliberate difference {p}: {name} gives {_short(got)}, documented {_short(want)}")
    pointers = list(d["compat"]) + [p for p in d["upstream"] if p not in d["compat"]]
    ma, mb = masked(docs["upstream"], pointers), masked(docs["compat"], pointers)
    if ma != mb:
        problems.extend(diff_docs(ma, mb))
    rules = list(d["files"].items()) + out_rules
    problems.extend(compare_out(up["out"], co["out"], rules))
    return problems
