"""Merged cells, as Format → Merge cells makes them: merge all (one block), horizontally (a block per row)
or vertically (a block per column), and unmerge. A block shows as one cell, its top-left; merging keeps
only the top-left value, as Sheets warns, and the other cells' contents go (one undo step, which
unmerges too).

A block is a record of ``sheets_merges`` (``tab``, ``range`` "A1:C1"); ``merges`` lists a tab's, and
``merged_at`` says which block a cell is in.
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.sheets.service.ranges import bounds as _bounds, moved, text as _text
from apps.sheets.service.base import SHEETS, Range, check_range, editable, put, tab, workbook, write_values
from apps.sheets.service.history import record, record_extras, snapshot_cells, snapshot_extras

HOW = ("all", "horizontal", "vertical")


def merges(store: Store, tab_id: int) -> list[dict]:
    return store.select("sheets_merges", "tab=?", (tab_id,), order="id")


def merged_at(store: Store, tab_id: int, row: int, col: int) -> str | None:
    """The merged block (its range) a cell is part of, or None."""
    for m in merges(store, tab_id):
        top, left, bottom, right = _bounds(m["range"])
        if top <= row <= bottom and left <= col <= right:
            return m["range"]
    return None


def _overlaps(a: Range, b: Range) -> bool:
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


def merge(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, how: str = "all") -> list[str]:
    """Merge a range: ``how`` is all, horizontal or vertical. Blocks it overlaps are unmerged first.
    Returns the blocks made."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if how not in HOW:
        raise Invalid(f"Merge how? One of {', '.join(HOW)} (or unmerge).", "how")
    top, left, bottom, right = check_range(t, rng)
    if how == "all":
        blocks = [(top, left, bottom, right)]
    elif how == "horizontal":
        blocks = [(r, left, r, right) for r in range(top, bottom + 1)]
    else:
        blocks = [(top, c, bottom, c) for c in range(left, right + 1)]
    blocks = [b for b in blocks if (b[0], b[1]) != (b[2], b[3])]
    if not blocks:
        raise Invalid(f"Select more than one cell to merge {'' if how == 'all' else how + 'ly'}".rstrip() + ".", "range")
    positions = [(r, c) for b in blocks for r in range(b[0], b[2] + 1) for c in range(b[1], b[3] + 1)
                 if (r, c) != (b[0], b[1])]
    with store.transaction():
        record(store, caller, book_id, "Merge cells", {"cells": snapshot_cells(store, t["id"], positions),
                                                      "extras": snapshot_extras(store, book_id)})
        for m in merges(store, t["id"]):
            if _overlaps(_bounds(m["range"]), (top, left, bottom, right)):
                store.delete("sheets_merges", m["id"], caller.actor)
        for r, c in positions:                  # only the top-left value stays, as in Sheets
            put(store, caller.actor, t["id"], r, c, input=None)
        for b in blocks:
            store.insert("sheets_merges", caller.actor, tab=t["id"], range=_text(*b))
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return [_text(*b) for b in blocks]


def unmerge(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range) -> list[str]:
    """Format → Merge cells → Unmerge: the blocks the range touches are cells again. Returns them."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    rng = check_range(t, rng)
    gone = [m for m in merges(store, t["id"]) if _overlaps(_bounds(m["range"]), rng)]
    if not gone:
        raise Invalid("There are no merged cells there to unmerge.", "range")
    with store.transaction():
        record_extras(store, caller, book_id, "Unmerge cells")
        for m in gone:
            store.delete("sheets_merges", m["id"], caller.actor)
        SHEETS.bump(store, caller, book)
    return [m["range"] for m in gone]


def shift(store: Store, actor: str, tab_id: int, axis: str, at: int, n: int) -> None:
    """Blocks follow inserted (``n`` > 0) and deleted (``n`` < 0) rows or columns; one left a single cell,
    or wholly deleted, goes."""
    for m in merges(store, tab_id):
        rng = moved(_bounds(m["range"]), axis, at, n)
        if rng is None or rng[:2] == rng[2:]:
            store.delete("sheets_merges", m["id"], actor)
        elif _text(*rng) != m["range"]:
            store.update("sheets_merges", m["id"], actor, range=_text(*rng))
