#!/usr/bin/env python3
"""Fails on an include that goes up the layers of docs/architecture.md (DESIGN §3).

Usage: check_layers.py [REPO]   (exit 0: clean; 1: violations, one per line as file:line: why)
Rules: a file in src/<layer>/ includes "<other>/..." only for a layer it may include (LAYERS);
DuckDB headers only in src/table; a layer's banned third-party headers never; cli/, python/src/
and include/taco/ include only "taco/..." or their own headers. Adding a layer is one line.
"""
import pathlib
import re
import sys

# layer: the layers it may include ("*" = every layer above it here), then "!" and the
# third-party header prefixes it may not include. Bottom first.
LAYERS = """
util     -
io       util
format   util io           ! gdal cpl_ ogr curl/
table    *
model    *
gdal     *
ext      *
write    *
read     *
legacy   *
edit     *
metadata_export *
validate *
publish  *
"""
DUCKDB_LAYER = "table"
FRONTS = ("cli", "python/src", "include/taco", "capi")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def parse(table):
    rules, below = {}, []
    for line in filter(str.strip, table.splitlines()):
        spec, _, bans = line.partition("!")
        name, *allowed = spec.split()
        rules[name] = (set(below) if allowed == ["*"] else set(allowed) - {"-"}, bans.split())
        below.append(name)
    return rules


def check(repo):
    rules, bad = parse(LAYERS), []
    files = [p for d in ("src",) + FRONTS for p in (repo / d).rglob("*") if p.suffix in (".h", ".cc", ".hpp", ".cpp")]
    for path in sorted(files):
        rel = path.relative_to(repo).as_posix()
        layer = rel.split("/")[1] if rel.startswith("src/") else None
        front = next((f for f in FRONTS if rel.startswith(f + "/")), None)
        if layer is None and front is None:
            continue
        if layer is not None and layer not in rules:
            bad.append(f"{rel}: src/{layer} is not in the layer table of scripts/check_layers.py")
            continue
        for n, text in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(text)
            if not m:
                continue
            quote, inc = m.groups()
            top = inc.split("/")[0]
            why = None
            if inc.startswith("duckdb") and layer != DUCKDB_LAYER:
                why = f"DuckDB is included only in src/{DUCKDB_LAYER}"
            elif layer and any(inc.startswith(b) for b in rules[layer][1]):
                why = f"src/{layer} may not include {inc}"
            elif layer and quote == '"' and top in rules and top != layer and top not in rules[layer][0]:
                why = f"src/{layer} may not include src/{top} (it may include: {' '.join(sorted(rules[layer][0])) or 'nothing'})"
            elif front and quote == '"' and top != "taco" and not (path.parent / inc).exists():
                why = f"{front}/ includes only the public API \"taco/...\" and its own headers"
            if why:
                bad.append(f"{rel}:{n}: #include {quote}{inc}: {why}")
    return bad


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1]).resolve()
    problems = check(root)
    print("\n".join(problems) or "check_layers: no upward include", file=sys.stderr if problems else sys.stdout)
    sys.exit(1 if problems else 0)
