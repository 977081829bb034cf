"""Work notes and comments, field history, and the activity stream that merges them."""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.tickets.service.base import KINDS, _journal, _now, _staff, _text, _visible
from apps.tickets.service.people import is_staff, person_name


def add_journal(store: Store, caller: Caller, kind: str, ref: int | str, entry_kind: str, text: str) -> int:
    """Post a work note (``work_note``, internal) or a comment (``comment``, customer visible)."""
    if entry_kind not in ("work_note", "comment"):
        raise Invalid("A journal entry is a work_note or a comment.", "kind")
    row = _visible(store, caller.user, kind, ref)
    field = "work_note" if entry_kind == "work_note" else "comment"
    text = _text(text, field)
    if not text.strip():
        raise Invalid("Type a work note first." if entry_kind == "work_note" else "Type a comment first.", field)
    if entry_kind == "work_note":
        _staff(store, caller, "add work notes")
    with store.transaction():
        now = _now(store)
        jid = _journal(store, caller, kind, row["id"], entry_kind, text, now)
        store.update(KINDS[kind][0], row["id"], caller.actor, updated_at=now)
    return jid


def add_work_note(store: Store, caller: Caller, kind: str, ref: int | str, text: str) -> int:
    return add_journal(store, caller, kind, ref, "work_note", text)


def add_comment(store: Store, caller: Caller, kind: str, ref: int | str, text: str) -> int:
    return add_journal(store, caller, kind, ref, "comment", text)


def journal(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    """Journal entries, oldest first (customers see comments only)."""
    row = _visible(store, user, kind, ref)
    where = "record_table=? AND record=?" + ("" if is_staff(store, user) else " AND kind='comment'")
    out = []
    for j in store.select("tk_journal", where, (kind, row["id"]), order="at, id"):
        j["author_name"] = person_name(store, j["author"])
        out.append(j)
    return out


def history(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    row = _visible(store, user, kind, ref)
    out = []
    for h in store.select("tk_history", "record_table=? AND record=?", (kind, row["id"]), order="at, id"):
        h["by_name"] = person_name(store, h["by"])
        out.append(h)
    return out


def activity(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    """The activity stream: journal entries and field changes (grouped per save), newest first.

    Each item: ``{type: work_note|comment|changes, by, by_name, at, text | changes: [{field, old, new}]}``."""
    items = []
    for j in journal(store, user, kind, ref):
        items.append({"type": j["kind"], "by": j["author"], "by_name": j["author_name"], "at": j["at"],
                      "text": j["text"], "seq": (j["at"], 1, j["id"])})
    groups_: dict[tuple, dict] = {}
    for h in history(store, user, kind, ref):
        g = groups_.get((h["at"], h["by"]))
        if g is None:
            g = groups_[(h["at"], h["by"])] = {"type": "changes", "by": h["by"], "by_name": h["by_name"],
                                               "at": h["at"], "changes": [], "seq": (h["at"], 0, h["id"])}
            items.append(g)
        g["changes"].append({"field": h["field"], "old": h["old"], "new": h["new"]})
    items.sort(key=lambda i: i["seq"], reverse=True)
    return items
