"""The undo log: each change records the cells (and for structural changes, the
tabs) it is about to touch, with their row keys, in ``sheets_history``; undo and
redo put them back under the same keys.
"""
from __future__ import annotations

from typing import Iterable

import apps.sheets.formula as F
from apps.core.store.db import Caller, Store
from apps.sheets.service.base import SHEETS, editable, put, tabs, workbook, write_values


# ---------------------------------------------------------------- undo log
def snapshot_cells(store: Store, tab_id: int, positions: Iterable[tuple[int, int]]) -> list:
    """How some cells of a tab are now (with their row keys), for ``record``."""
    out = []
    for r, c in positions:
        row = store.decode("sheets_cells", store.one("SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?",
                                                     (tab_id, r, c)))
        out.append([tab_id, r, c, row and {"id": row["id"], "input": row["input"], "format": row["format"]}])
    return out


def snapshot_book(store: Store, book_id: int) -> dict:
    """How every tab and cell of a book is now (with their row keys), for ``record``."""
    ts = tabs(store, book_id)
    cs = store.all("SELECT c.* FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab WHERE t.book=?", (book_id,))
    return {"tabs": ts, "cells": [{k: store.decode("sheets_cells", r)[k] for k in ("id", "tab", "row", "col", "input", "format")}
                                  for r in cs]}


def record(store: Store, caller: Caller, book_id: int, label: str, before: dict) -> None:
    """Remember how to undo the change about to be made; a new change ends the redo chain."""
    store.conn.execute("DELETE FROM sheets_history WHERE book=? AND stack='redo'", (book_id,))
    seq = (store.scalar("SELECT max(seq) FROM sheets_history WHERE book=?", (book_id,)) or 0) + 1
    store.insert("sheets_history", caller.actor, book=book_id, seq=seq, stack="undo", label=label,
                 before=before)
    old = store.all("SELECT id FROM sheets_history WHERE book=? AND stack='undo' ORDER BY seq DESC LIMIT -1 OFFSET 100",
                    (book_id,))
    for r in old:
        store.delete("sheets_history", r["id"], caller.actor)


EXTRAS = ("sheets_filters", "sheets_charts", "sheets_merges", "sheets_conditional")
_EXTRA_FIELDS = {"sheets_filters": ("tab", "kind", "name", "range", "criteria"),
                 "sheets_charts": ("tab", "type", "range", "title", "legend", "anchor", "width", "height"),
                 "sheets_merges": ("tab", "range"),
                 "sheets_conditional": ("tab", "range", "condition", "style")}


def _extras_of(store: Store, book_id: int, table: str) -> list[dict]:
    return [store.decode(table, r) for r in store.all(
        f"SELECT x.* FROM {table} x JOIN sheets_tabs t ON t.id=x.tab WHERE t.book=? ORDER BY x.id", (book_id,))]


def snapshot_extras(store: Store, book_id: int) -> dict:
    """How a book's filters, charts, merged blocks and conditional format rules are now (with their keys),
    for ``record``: a change to them, or one that moves them, undoes with them."""
    return {table: [{k: r[k] for k in ("id",) + _EXTRA_FIELDS[table]} for r in _extras_of(store, book_id, table)]
            for table in EXTRAS}


def _restore_extras(store: Store, caller: Caller, book_id: int, snap: dict) -> dict:
    now = snapshot_extras(store, book_id)
    for table, records in snap.items():
        want = {r["id"]: r for r in records}
        for r in _extras_of(store, book_id, table):
            if r["id"] not in want:
                store.delete(table, r["id"], caller.actor)
        for rid, r in want.items():
            fields = {k: r[k] for k in _EXTRA_FIELDS[table]}
            if store.get(table, rid):
                store.update(table, rid, caller.actor, **fields)
            else:
                store.reinsert(table, rid, caller.actor, **fields)
    return now


def record_extras(store: Store, caller: Caller, book_id: int, label: str) -> None:
    """Remember the book's filters, charts, merges and rules before a change to them (one undo step)."""
    record(store, caller, book_id, label, {"cells": [], "extras": snapshot_extras(store, book_id)})


def _restore(store: Store, caller: Caller, book_id: int, before: dict) -> dict:
    """Put cells (and tabs, and a tab's merged blocks) back as recorded; returns the matching record of
    how they are now."""
    if "extras" in before:
        extras = _restore_extras(store, caller, book_id, before["extras"])
        rest = _restore(store, caller, book_id, {k: v for k, v in before.items() if k != "extras"})
        return {**rest, "extras": extras}
    if "book" in before:
        now = snapshot_book(store, book_id)
        snap = before["book"]
        keep = {t["id"] for t in snap["tabs"]}
        for t in tabs(store, book_id):
            if t["id"] not in keep:
                for c in store.select("sheets_cells", "tab=?", (t["id"],)):
                    store.delete("sheets_cells", c["id"], caller.actor)
                store.delete("sheets_tabs", t["id"], caller.actor)
        for t in snap["tabs"]:
            fields = {k: t[k] for k in ("book", "seq", "name", "rows", "cols", "frozen", "widths")}
            if store.get("sheets_tabs", t["id"]):
                store.update("sheets_tabs", t["id"], caller.actor, **fields)
            else:
                store.reinsert("sheets_tabs", t["id"], caller.actor, **fields)
        want = {c["id"]: c for c in snap["cells"]}
        current = store.all("SELECT c.id FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab WHERE t.book=?", (book_id,))
        for r in current:
            if r["id"] not in want:
                store.delete("sheets_cells", r["id"], caller.actor)
        # Two passes so that moving cells never collide on a position.
        for cid, c in want.items():
            fields = {"tab": c["tab"], "row": c["row"], "col": c["col"], "input": c["input"], "format": c["format"]}
            if store.get("sheets_cells", cid):
                store.update("sheets_cells", cid, caller.actor, **fields)
            else:
                store.reinsert("sheets_cells", cid, caller.actor, a1=F.ref_name(c["row"] - 1, c["col"] - 1),
                               display="", value=None, **fields)
        return {"book": now}
    now_cells = []
    for tab_id, r, c, was in before["cells"]:
        now_cells += snapshot_cells(store, tab_id, [(r, c)])
        row = store.one("SELECT id FROM sheets_cells WHERE tab=? AND row=? AND col=?", (tab_id, r, c))
        if was is None:
            if row is not None:
                store.delete("sheets_cells", row["id"], caller.actor)
        elif row is not None:
            store.update("sheets_cells", row["id"], caller.actor, input=was["input"], format=was["format"])
        elif store.get("sheets_cells", was["id"]) is None:
            store.reinsert("sheets_cells", was["id"], caller.actor, tab=tab_id, row=r, col=c, input=was["input"],
                           format=was["format"], a1=F.ref_name(r - 1, c - 1), value=None, display="")
        else:
            put(store, caller.actor, tab_id, r, c, input=was["input"], format=was["format"])
    return {"cells": now_cells}


def _step(store: Store, caller: Caller, book_id: int, from_stack: str, to_stack: str) -> str | None:
    book = editable(store, caller, book_id)
    # Undo takes the latest change; redo the change undone last, which is the earliest on its stack.
    order = "DESC" if from_stack == "undo" else "ASC"
    row = store.one(f"SELECT * FROM sheets_history WHERE book=? AND stack=? ORDER BY seq {order} LIMIT 1",
                    (book_id, from_stack))
    if row is None:
        return None
    entry = store.decode("sheets_history", row)
    with store.transaction():
        now = _restore(store, caller, book_id, entry["before"])
        store.update("sheets_history", entry["id"], caller.actor, stack=to_stack, before=now)
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return entry["label"]


def undo(store: Store, caller: Caller, book_id: int) -> str | None:
    """Undo the last change; returns its label, or None when there is nothing to undo."""
    return _step(store, caller, book_id, "undo", "redo")


def redo(store: Store, caller: Caller, book_id: int) -> str | None:
    return _step(store, caller, book_id, "redo", "undo")
