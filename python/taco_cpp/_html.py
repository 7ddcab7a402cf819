"""HTML summary of a dataset for notebooks (``TacoDataset._repr_html_``): collection,
levels with row counts and columns, the PIT, the view's row count. Reads only metadata the
dataset already holds (no network)."""

from __future__ import annotations

import html

from ._display import extent_text


def _e(value) -> str:
    return html.escape("" if value is None else str(value))


def _list(values) -> str:
    if not values:
        return "–"
    return ", ".join(_e(v if not isinstance(v, dict) else v.get("name", v)) for v in values)


def dataset_html(ds) -> str:
    c = ds.collection
    pit = ds.pit_schema
    extent = c.get("extent") or {}
    origin, steps = ds.view_steps()
    rows = [
        ("format", ds.format),
        ("version", c.get("dataset_version")),
        ("taco_version", c.get("taco_version")),
        ("description", c.get("description")),
        ("tasks", _list(c.get("tasks"))),
        ("licenses", _list(c.get("licenses"))),
        ("providers", _list(c.get("providers"))),
        ("extent", extent_text(extent) or None),
        ("from", origin),
        ("view", " → ".join("." + s for s in steps) if steps else None),
        ("rows in this view", f"{pit.root.get('n')} {pit.root.get('type')}"),
    ]
    head = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{_e(k)}</th>"
        f"<td style='text-align:left'>{v if k in ('tasks', 'licenses', 'providers') else _e(v)}</td></tr>"
        for k, v in rows)

    levels = []
    for i in range(ds.num_levels):
        info = ds.level_info(i)
        cols = ", ".join(f"<code>{_e(n)}</code> <span style='color:#888'>{_e(t)}</span>"
                         for n, t in info["columns"])
        levels.append(f"<tr><td>level{i}</td><td style='text-align:right'>{info['rows']}</td>"
                      f"<td style='text-align:left'>{cols}</td></tr>")

    pit_rows = [f"<li>root: {_e(pit.root.get('n'))} × {_e(pit.root.get('type'))}</li>"]
    for depth in sorted(pit.hierarchy, key=int):
        for p in pit.hierarchy[depth]:
            kids = ", ".join(f"{_e(i)} ({_e(t)})" for i, t in zip(p.get("id", []), p.get("type", [])))
            pit_rows.append(f"<li>level {_e(depth)}: n {_e(p.get('n'))}; children {kids}</li>")

    title = c.get("title") or c.get("id")
    return (
        "<div class='taco-cpp-dataset'>"
        f"<h4 style='margin:0.2em 0'>TacoDataset <code>{_e(c.get('id'))}</code>"
        f"{' — ' + _e(title) if title and title != c.get('id') else ''}</h4>"
        f"<table>{head}</table>"
        "<details><summary>levels</summary><table>"
        "<tr><th>level</th><th>rows (stored)</th><th style='text-align:left'>columns</th></tr>"
        f"{''.join(levels)}</table></details>"
        f"<details><summary>PIT schema</summary><ul>{''.join(pit_rows)}</ul></details>"
        "</div>"
    )
