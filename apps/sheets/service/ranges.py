"""The ranges other records keep on a tab — a filter's, a chart's, a merged block's, a conditional-format
rule's: read and written as "A1:D8" (1-based bounds here), moved when rows or columns are inserted or deleted,
and gone with their tab."""
from __future__ import annotations

import apps.sheets.formula as F
from apps.core.store.db import Store
from apps.sheets.service.base import Range
from apps.sheets.service.history import EXTRAS          # the tables whose records are a range on a tab


def bounds(text: str) -> Range:
    """"B2:D8" → (2, 2, 8, 4)."""
    top, left, bottom, right = F.parse_range(text)
    return top + 1, left + 1, bottom + 1, right + 1


def text(top: int, left: int, bottom: int, right: int) -> str:
    """(2, 2, 8, 4) → "B2:D8"."""
    return f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}"


def moved_line(x: int, at: int, n: int, edge: str = "start") -> int | None:
    """Where row (or column) ``x`` goes when ``n`` are inserted before ``at`` (``n`` > 0) or deleted from
    ``at`` (``n`` < 0). A deleted one goes to the first line after the run (``edge`` "start"), the last
    before it ("end"), or nowhere ("inside": None)."""
    if n > 0:
        return x + n if x >= at else x
    if x < at:
        return x
    if x > at - n - 1:
        return x + n
    return None if edge == "inside" else (at if edge == "start" else at - 1)


def moved(rng: Range, axis: str, at: int, n: int) -> Range | None:
    """A range after rows (``axis`` "row") or columns are inserted or deleted: moved, grown or shrunk;
    None when it is wholly deleted."""
    top, left, bottom, right = rng
    if axis == "row":
        top, bottom = moved_line(top, at, n, "start"), moved_line(bottom, at, n, "end")
    else:
        left, right = moved_line(left, at, n, "start"), moved_line(right, at, n, "end")
    return None if bottom < top or right < left else (top, left, bottom, right)


def drop_tab(store: Store, actor: str, tab_id: int) -> None:
    """A deleted tab's filters, charts, merges and rules go with it."""
    for table in EXTRAS:
        for r in store.select(table, "tab=?", (tab_id,)):
            store.delete(table, r["id"], actor)
