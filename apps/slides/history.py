"""Undo and redo in the editor (Ctrl+Z / Ctrl+Y outside a text box): each change made through the
editor is a step that keeps the deck's slides, layout boxes, objects and looks as they were before
it (``slides_history``); undo puts them back under the same keys and keeps how they were for redo.
A new change ends the redo chain; a deck keeps its last ``KEEP`` steps."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from apps.core.store.db import Caller, Store
from apps.slides import service

KEEP = 50
# Parents first: restoring inserts in this order, deleting goes the other way.
PARTS = {
    "slides_slides": "SELECT * FROM slides_slides WHERE deck=?",
    "slides_boxes": "SELECT b.* FROM slides_boxes b JOIN slides_slides s ON s.id=b.slide WHERE s.deck=?",
    "slides_objects": "SELECT o.* FROM slides_objects o JOIN slides_slides s ON s.id=o.slide WHERE s.deck=?",
    "slides_looks": "SELECT * FROM slides_looks WHERE deck=?",
}


def snapshot(store: Store, deck_id: int) -> dict:
    """The deck's content rows now, with their keys."""
    return {t: [store.decode(t, r) for r in store.all(sql + " ORDER BY id", (deck_id,))] for t, sql in PARTS.items()}


def _last_write(store: Store) -> int:
    return store.scalar("SELECT coalesce(max(seq), 0) FROM _writes")


@contextmanager
def step(store: Store, caller: Caller, deck_id: int, label: str, slide: int | None = None) -> Iterator[None]:
    """Run a change as one undoable step (recorded only if it wrote something)."""
    before, mark = snapshot(store, deck_id), _last_write(store)
    yield
    if _last_write(store) == mark:
        return
    store.conn.execute("DELETE FROM slides_history WHERE deck=? AND stack='redo'", (deck_id,))
    seq = (store.scalar("SELECT max(seq) FROM slides_history WHERE deck=?", (deck_id,)) or 0) + 1
    store.insert("slides_history", caller.actor, deck=deck_id, seq=seq, stack="undo", label=label, slide=slide,
                 before=before)
    for r in store.all("SELECT id FROM slides_history WHERE deck=? AND stack='undo' ORDER BY seq DESC "
                       "LIMIT -1 OFFSET ?", (deck_id, KEEP)):
        store.delete("slides_history", r["id"], caller.actor)


def _restore(store: Store, actor: str, deck_id: int, snap: dict) -> dict:
    now = snapshot(store, deck_id)
    for table in reversed(PARTS):
        keep = {r["id"] for r in snap[table]}
        for r in now[table]:
            if r["id"] not in keep:
                if table == "slides_slides":          # its comments go with it (comments are no step)
                    for c in store.select("slides_comments", "slide=?", (r["id"],), order="id DESC"):
                        store.delete("slides_comments", c["id"], actor)
                store.delete(table, r["id"], actor)
    for table in PARTS:
        there = {r["id"] for r in now[table]}
        for r in snap[table]:
            fields = {k: v for k, v in r.items() if k != "id"}
            if r["id"] in there:
                store.update(table, r["id"], actor, **fields)
            else:
                store.reinsert(table, r["id"], actor, **fields)
    return now


def _move(store: Store, caller: Caller, deck_id: int, source: str, target: str) -> dict | None:
    d = service._editable(store, caller, deck_id)
    order = "DESC" if source == "undo" else "ASC"
    row = store.one(f"SELECT * FROM slides_history WHERE deck=? AND stack=? ORDER BY seq {order} LIMIT 1",
                    (deck_id, source))
    if row is None:
        return None
    entry = store.decode("slides_history", row)
    with store.transaction():
        now = _restore(store, caller.actor, deck_id, entry["before"])
        store.update("slides_history", entry["id"], caller.actor, stack=target, before=now)
        service.DECKS.bump(store, caller, d)
    return {"label": entry["label"], "slide": entry["slide"]}


def undo(store: Store, caller: Caller, deck_id: int) -> dict | None:
    """Undo the deck's last step: ``{label, slide}``, or None when there is nothing to undo."""
    return _move(store, caller, deck_id, "undo", "redo")


def redo(store: Store, caller: Caller, deck_id: int) -> dict | None:
    """Redo the step undone last: ``{label, slide}``, or None."""
    return _move(store, caller, deck_id, "redo", "undo")
