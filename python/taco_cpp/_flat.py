"""Flat views ``l0 … lN`` and ``flatten()`` over a dataset's level views (pure SQL text).

``lK`` has one row per level-K sample with its own columns named ``"lK:<col>"`` followed by
those of each ancestor (``"l{K-1}:<col>"`` … ``"l0:<col>"``); the navigation columns
``internal:parent_id``/``internal:current_id`` are left out, the other ``internal:*`` kept.
A child is joined to its parent by ``internal:parent_id`` = ``internal:current_id`` and, when
both levels carry ``internal:source_file`` (a TACOCAT, whose row positions restart in every
part) or ``internal:source_part`` (a concat), by that too, so every row of ``lK`` is one
level-K sample.

Rows come in the order of the level-K view (each level-K row numbered, the result sorted by
that number: a join alone would not keep it); ``flatten(sort_by=...)`` breaks ties by it too.

The views are given to a query as common table expressions (``WITH l0 AS (…)``), added in
front of the user's statement for the ``lK`` names it mentions; ``level0 … levelN`` stay what
the engine has. Nothing here touches the engine: callers pass a ``columns(level)`` function.
"""

from __future__ import annotations

import re
from typing import Callable

_SKIP = ("internal:parent_id", "internal:current_id")
_ROW = "__taco_source_row"
_NAME = re.compile(r'(?<![\w"."])l(\d+)\b(?!\s*:)', re.IGNORECASE)
_WITH = re.compile(r"^\s*with(\s+recursive)?\b", re.IGNORECASE)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def flat_view_sql(columns: Callable[[int], list[str]], level: int, views: Callable[[int], str] | None = None) -> str:
    """SELECT of the flat view ``l{level}``. ``views(k)`` names the relation of level k
    (default ``level{k}``)."""
    views = views or (lambda k: f"level{k}")
    cols = {k: columns(k) for k in range(level + 1)}
    select = [f'_l{k}.{_q(c)} AS {_q(f"l{k}:{c}")}' for k in range(level, -1, -1) for c in cols[k] if c not in _SKIP]
    return (f"SELECT {', '.join(select)} FROM {_numbered(views(level))} _l{level} " + _joins(cols, level, views)
            + f" ORDER BY _l{level}.{_ROW}")


def _numbered(relation: str) -> str:
    """``relation`` with each row's position in it as ``__taco_source_row``."""
    return f"(SELECT *, row_number() OVER () AS {_ROW} FROM {relation})"


def _joins(cols: dict[int, list[str]], level: int, views: Callable[[int], str]) -> str:
    """Each level above ``level`` joined to its child (aliases ``_lK``)."""
    joins = []
    for k in range(level - 1, -1, -1):
        on = f'_l{k}."internal:current_id" = _l{k + 1}."internal:parent_id"'
        for source in ("internal:source_file", "internal:source_part"):
            if source in cols[k] and source in cols[k + 1]:
                on += f' AND _l{k}.{_q(source)} = _l{k + 1}.{_q(source)}'
        joins.append(f"JOIN {views(k)} _l{k} ON {on}")
    return " ".join(joins)


def referenced_levels(query: str, max_level: int) -> list[int]:
    """The flat views ``lK`` (K <= max_level) a query names as relations."""
    found = {int(m.group(1)) for m in _NAME.finditer(_strip_strings(query))}
    return sorted(k for k in found if k <= max_level)


def _strip_strings(query: str) -> str:
    """The query with quoted identifiers and string literals blanked (so "l1:id" or 'l0' do
    not count as relations)."""
    return re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", " ", query)


def with_flat_views(query: str, columns: Callable[[int], list[str]], max_level: int) -> str:
    """``query`` with the flat views it mentions defined in front of it."""
    levels = referenced_levels(query, max_level)
    if not levels:
        return query
    ctes = ", ".join(f"l{k} AS ({flat_view_sql(columns, k)})" for k in levels)
    m = _WITH.match(query)
    if m:
        head = "WITH RECURSIVE " if m.group(1) else "WITH "
        return head + ctes + ", " + query[m.end():]
    return "WITH " + ctes + " " + query


def flatten_sql(columns: Callable[[int], list[str]], level: int, views: Callable[[int], str] | None = None,
                sort_by: str | None = None, descending: bool = False, limit: int | None = None,
                where: str | None = None) -> str:
    """Every FILE row of ``level`` with its ancestors' columns (``"lK:<col>"``, deepest level
    first, ``internal:*`` left out) and its GDAL path last as ``gdal_vsi``. ``where``: a
    further condition on the aliases ``_l0 … _lK``."""
    views = views or (lambda k: f"level{k}")
    cols = {k: columns(k) for k in range(level + 1)}
    select = [f'_l{k}.{_q(c)} AS {_q(f"l{k}:{c}")}' for k in range(level, -1, -1) for c in cols[k]
              if not c.startswith("internal:")]
    select.append(f'_l{level}."internal:gdal_vsi" AS gdal_vsi')
    sql = (f"SELECT {', '.join(select)} FROM {_numbered(views(level))} _l{level} " + _joins(cols, level, views)
           + f" WHERE _l{level}.\"type\" = 'FILE'" + (f" AND ({where})" if where else ""))
    order = f"_l{level}.{_ROW}"
    if sort_by:
        order = f"{_q(sort_by)} {'DESC' if descending else 'ASC'}, {order}"
    sql += f" ORDER BY {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql
