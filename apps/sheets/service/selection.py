"""Changes over a selection of several ranges (Ctrl+click adds a range, as in Sheets): formats and
clearing apply to every range, as one undo step."""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.sheets.service.base import Range
from apps.sheets.service.editing import clear, set_format

MAX_RANGES = 50


def _one_step(store: Store, book_id: int, since: int, label: str) -> None:
    """Fold the undo entries made after the entry ``since`` (a key) into the first: one undo restores them all."""
    rows = [store.decode("sheets_history", r) for r in
            store.all("SELECT * FROM sheets_history WHERE book=? AND stack='undo' AND id>? ORDER BY seq", (book_id, since))]
    if len(rows) < 2:
        return
    cells = [c for r in rows for c in r["before"].get("cells", [])]
    first = rows[0]
    # restored in order, the earliest snapshot of a cell must be put back last: list the later ones first
    store.update("sheets_history", first["id"], "system", label=label, before={"cells": cells[::-1]})
    for r in rows[1:]:
        store.delete("sheets_history", r["id"], "system")


def _ranges(ranges: list[Range]) -> list[Range]:
    if not ranges:
        raise Invalid("Select the cells first.", "range")
    if len(ranges) > MAX_RANGES:
        raise Invalid(f"Select at most {MAX_RANGES} ranges at once.", "range")
    return ranges


def format_ranges(store: Store, caller: Caller, book_id: int, tab_id: int, ranges: list[Range], **change) -> list[dict]:
    """``set_format`` over every range of a selection, one undo step. Returns the cells that changed."""
    out: dict[tuple[int, int], dict] = {}
    since = store.scalar("SELECT coalesce(max(id), 0) FROM sheets_history")
    with store.transaction():
        for rng in _ranges(ranges):
            for c in set_format(store, caller, book_id, tab_id, rng, **dict(change)):
                out[(c["row"], c["col"])] = c
        _one_step(store, book_id, since, "Format")
    return list(out.values())


def clear_ranges(store: Store, caller: Caller, book_id: int, tab_id: int, ranges: list[Range]) -> list[dict]:
    """``clear`` over every range of a selection, one undo step."""
    out: dict[tuple[int, int], dict] = {}
    since = store.scalar("SELECT coalesce(max(id), 0) FROM sheets_history")
    with store.transaction():
        for rng in _ranges(ranges):
            for c in clear(store, caller, book_id, tab_id, rng):
                out[(c["row"], c["col"])] = c
        _one_step(store, book_id, since, "Clear")
    return list(out.values())
