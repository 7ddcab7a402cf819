"""Text for notebooks and the REPL: how a view was made (its filters and SQL, from the recipe
the core keeps for fork safety), a readable extent, and an HTML table of a TacoFrame."""

from __future__ import annotations

import html
import json
from typing import Any

_MAX_SQL = 200  # characters of a query shown in a repr
_HTML_ROWS = 20  # rows of a TacoFrame shown by _repr_html_


def _short(text: str, limit: int = _MAX_SQL) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _origin(recipe: dict) -> str:
    kind = recipe["kind"]
    if kind == "open":
        return f"load({recipe['paths'][0]!r})"
    if kind == "open_list":
        return f"load([{len(recipe['paths'])} paths])"
    return f"concat({len(recipe['inputs'])} datasets, {recipe['column_mode']})"


def _step(recipe: dict) -> str:
    kind = recipe["kind"]
    level = f", level={recipe['level']}" if recipe["level"] else ""
    if kind == "sql":
        return f"sql({_short(recipe['text'])!r})"
    if kind == "bbox":
        box = ", ".join(f"{v:g}" for v in recipe["box"])
        column = "" if recipe["column"] in ("", "auto") else f", geometry_col={recipe['column']!r}"
        return f"filter_bbox({box}{column}{level})"
    column = "" if recipe["column"] in ("", "auto") else f", time_col={recipe['column']!r}"
    return f"filter_datetime({recipe['text']!r}{column}{level})"


def view_steps(recipe_json: str) -> tuple[str, list[str]]:
    """(where the dataset came from, the view's steps in the order they were applied)."""
    recipe = json.loads(recipe_json)
    steps = []
    while recipe["kind"] in ("sql", "bbox", "datetime"):
        steps.append(_step(recipe))
        recipe = recipe["parent"]
    return _origin(recipe), steps[::-1]


def _coord(value: Any, positive: str, negative: str) -> str:
    v = float(value)
    return f"{abs(v):.4g}°{positive if v >= 0 else negative}"


def extent_text(extent: Any) -> str:
    """"3.7°W–2.35°E, 40.4°N–48.9°N; 2023-01-02 – 2023-12-20" from a collection ``extent``;
    "" when it has neither part."""
    if not isinstance(extent, dict):
        return ""
    parts = []
    spatial = extent.get("spatial")
    if isinstance(spatial, (list, tuple)) and spatial and isinstance(spatial[0], (list, tuple)):
        spatial = spatial[0]  # STAC's list of boxes
    if isinstance(spatial, (list, tuple)) and len(spatial) == 4:
        minx, miny, maxx, maxy = spatial
        parts.append(f"{_coord(minx, 'E', 'W')}–{_coord(maxx, 'E', 'W')}, "
                     f"{_coord(miny, 'N', 'S')}–{_coord(maxy, 'N', 'S')}")
    temporal = extent.get("temporal")
    if isinstance(temporal, (list, tuple)) and temporal and isinstance(temporal[0], (list, tuple)):
        temporal = temporal[0]
    if isinstance(temporal, (list, tuple)) and len(temporal) == 2:
        start, end = (str(t)[:10] if t else ".." for t in temporal)
        parts.append(f"{start} – {end}")
    return "; ".join(parts)


def _cell(value: Any) -> str:
    if isinstance(value, bytes):
        return f"<i>{len(value)} bytes</i>"
    text = "" if value is None else str(value)
    return html.escape(text if len(text) <= 80 else text[:79] + "…")


def frame_html(level: int, table) -> str:
    """An HTML table of a TacoFrame's rows (the first ``_HTML_ROWS``)."""
    shown = table.slice(0, _HTML_ROWS).to_pylist()
    names = table.column_names
    head = "".join(f"<th style='text-align:left'>{html.escape(n)}</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{_cell(row[n])}</td>" for n in names) + "</tr>"
                   for row in shown)
    more = table.num_rows - len(shown)
    tail = f"<p>… {more} more rows</p>" if more > 0 else ""
    return (f"<div class='taco-cpp-frame'><b>TacoFrame</b> level {level}: {table.num_rows} rows"
            f"<table><tr>{head}</tr>{body}</table>{tail}</div>")
