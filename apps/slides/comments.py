"""Comments on slides (``slides_comments``): threads on a slide, replies, resolve and reopen.
Anyone who can comment on the deck (commenter, editor, owner) may add and reply; resolving is a
thread's whole, as in Google Slides. Comments don't change the slides: they are no undo step."""
from __future__ import annotations

from apps.core.errors import Invalid, NotFound
from apps.core.people import person
from apps.core.store.db import Caller, Store
from apps.drive.service import Role
from apps.slides import service

MAX_COMMENT = 2_000


def _text(text: object, what: str) -> str:
    t = service.clean_text(text, MAX_COMMENT, "text").strip()
    if not t:
        raise Invalid(f"Write a {what} first.", "text")
    return t


def _named(store: Store, row: dict) -> dict:
    p = person(store, row["author"]) or {}
    return {k: row[k] for k in ("id", "slide", "author", "text", "resolved", "resolved_by", "created_at")} | {
        "author_name": p.get("name") or row["author"]}


def threads(store: Store, user: str, deck_id: int, slide_id: int | None = None) -> list[dict]:
    """The deck's comment threads (or one slide's), oldest first: each comment with its ``replies``."""
    service.get(store, user, deck_id)
    rows = store.all("SELECT c.* FROM slides_comments c JOIN slides_slides s ON s.id=c.slide WHERE s.deck=? "
                     "ORDER BY c.id", (deck_id,))
    rows = [store.decode("slides_comments", r) for r in rows]
    out = {r["id"]: _named(store, r) | {"replies": []} for r in rows if r["parent"] is None
           and (slide_id is None or r["slide"] == slide_id)}
    for r in rows:
        if r["parent"] in out:
            out[r["parent"]]["replies"].append(_named(store, r))
    return list(out.values())


def _commentable(store: Store, caller: Caller, deck_id: int) -> dict:
    d = service.DECKS.open(store, caller.user, deck_id)
    service._require(d, Role.COMMENTER)
    return d


def add(store: Store, caller: Caller, slide_id: int, text: str, deck_id: int | None = None) -> int:
    """A new comment thread on a slide; returns its id."""
    row = service._slide_row(store, slide_id, deck_id)
    d = _commentable(store, caller, row["deck"])
    text = _text(text, "comment")
    with store.transaction():
        cid = store.insert("slides_comments", caller.actor, slide=slide_id, author=caller.user, text=text,
                           created_at=store.now_iso())
        service.DECKS.bump(store, caller, d)
    return cid


def _thread(store: Store, comment_id: int) -> dict:
    c = store.get("slides_comments", comment_id)
    if c is None:
        raise NotFound("That comment doesn't exist.")
    return store.get("slides_comments", c["parent"]) if c["parent"] else c


def reply(store: Store, caller: Caller, comment_id: int, text: str) -> int:
    """Reply to a comment thread; returns the reply's id."""
    top = _thread(store, comment_id)
    deck = service._slide_row(store, top["slide"])["deck"]
    d = _commentable(store, caller, deck)
    text = _text(text, "reply")
    with store.transaction():
        rid = store.insert("slides_comments", caller.actor, slide=top["slide"], parent=top["id"],
                           author=caller.user, text=text, created_at=store.now_iso())
        if top["resolved"]:
            store.update("slides_comments", top["id"], caller.actor, resolved=False, resolved_by=None)
        service.DECKS.bump(store, caller, d)
    return rid


def resolve(store: Store, caller: Caller, comment_id: int, resolved: bool = True) -> bool:
    """Resolve a thread (or reopen it); returns whether that changed."""
    top = _thread(store, comment_id)
    d = _commentable(store, caller, service._slide_row(store, top["slide"])["deck"])
    with store.transaction():
        changed = bool(store.update("slides_comments", top["id"], caller.actor, resolved=bool(resolved),
                                    resolved_by=caller.user if resolved else None))
        if changed:
            service.DECKS.bump(store, caller, d)
    return changed
