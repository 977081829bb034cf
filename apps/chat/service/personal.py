"""What is one person's own: messages saved for later, marking a message unread, and the
Threads and Activity views of the sidebar."""
from __future__ import annotations

from apps.chat.service.base import MSG_NOT_FOUND, _conv, _decorate, _decorate_messages, _member_row, _people, _visible
from apps.chat.service.messages import _message_row
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store


def _visible_message(store: Store, user: str, message_id: int) -> tuple[dict, dict]:
    m, conv = _message_row(store, user, message_id)
    if m["deleted"]:
        raise NotFound(MSG_NOT_FOUND)
    return m, conv


def save_for_later(store: Store, caller: Caller, message_id: int, saved: bool = True) -> bool:
    """Save a message for later (Slack's bookmark), or take it off the list. False when it already was so."""
    _visible_message(store, caller.user, message_id)
    row = store.one("SELECT id FROM chat_saved WHERE message=? AND person=?", (message_id, caller.user))
    if bool(row) == bool(saved):
        return False
    if saved:
        store.insert("chat_saved", caller.actor, message=message_id, person=caller.user, at=store.now_iso())
    else:
        store.delete("chat_saved", row["id"], caller.actor)
    return True


def _with_conv(store: Store, user: str, rows: list[dict]) -> list[dict]:
    people = _people(store)
    convs: dict[int, dict] = {}
    out = []
    for m in _decorate_messages(store, user, rows, people):
        cid = m["conversation"]
        if cid not in convs:
            convs[cid] = _decorate(store, user, _conv(store, cid), people)
        out.append({**m, "conv": convs[cid]})
    return out


def saved_items(store: Store, user: str) -> list[dict]:
    """The user's "Later" list: saved messages they can still see, most recently saved first."""
    rows = []
    for s in store.all("SELECT message FROM chat_saved WHERE person=? ORDER BY at DESC, id DESC", (user,)):
        try:
            m, _ = _visible_message(store, user, s["message"])
        except NotFound:
            continue
        rows.append(m)
    return _with_conv(store, user, rows)


def mark_unread(store: Store, caller: Caller, message_id: int) -> int:
    """Mark a message unread: the conversation shows unread from it on. Returns the new read marker."""
    m, conv = _visible_message(store, caller.user, message_id)
    row = _member_row(store, conv["id"], caller.user)
    if row is None:
        raise Invalid("Join the channel first: only members have unread messages.", "message")
    if m["thread"] is not None and not m["also_channel"]:
        raise Invalid("Thread replies can't be marked unread; mark the thread's first message unread.", "message")
    marker = store.scalar("SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation=? AND id<?",
                          (conv["id"], message_id))
    store.update("chat_members", row["id"], caller.actor, last_read=marker)
    return marker


def threads(store: Store, user: str, limit: int = 30) -> list[dict]:
    """Slack's Threads view: threads the user started or replied in, newest reply first, each with
    its parent and its latest replies (up to 3)."""
    ids = [r["id"] for r in store.all(
        "SELECT p.id FROM chat_messages p WHERE p.reply_count>0 AND (p.author=? OR EXISTS"
        " (SELECT 1 FROM chat_messages r WHERE r.thread=p.id AND r.author=?)) ORDER BY p.last_reply_at DESC, p.id DESC",
        (user, user))]
    people = _people(store)
    out = []
    for pid in ids:
        parent = store.get("chat_messages", pid)
        conv = _conv(store, parent["conversation"])
        if conv is None or not _visible(store, user, conv):
            continue
        replies = store.select("chat_messages", "thread=?", (pid,), order="at, id")
        dec = _decorate_messages(store, user, [parent] + replies[-3:], people)
        out.append({"parent": dec[0], "replies": dec[1:], "reply_count": len(replies),
                    "conv": _decorate(store, user, conv, people)})
        if len(out) >= limit:
            break
    return out


def activity(store: Store, user: str, limit: int = 50) -> list[dict]:
    """Slack's Activity view: messages that @mention the user and reactions to the user's messages,
    newest first. Each item: ``kind`` (mention | reaction), ``at``, the message, and for a reaction
    who reacted with what."""
    items = []
    for m in store.all("SELECT x.* FROM chat_messages x WHERE x.deleted=0 AND x.author<>? AND EXISTS"
                       " (SELECT 1 FROM json_each(x.mentions) j WHERE j.value=?)", (user, user)):
        items.append(("mention", m["at"], m["id"], None, m["id"]))
    for r in store.all("SELECT r.id, r.person, r.emoji, m.id AS mid, m.at FROM chat_reactions r JOIN chat_messages m"
                       " ON m.id=r.message WHERE m.author=? AND r.person<>? AND m.deleted=0", (user, user)):
        items.append(("reaction", r["at"], r["mid"], {"person": r["person"], "emoji": r["emoji"]}, r["id"]))
    items.sort(key=lambda i: (i[1], i[4]), reverse=True)
    people = _people(store)
    out = []
    for kind, at, mid, extra, _ in items:
        m = store.get("chat_messages", mid)
        conv = _conv(store, m["conversation"])
        if conv is None or not _visible(store, user, conv):
            continue
        dec = _with_conv(store, user, [m])[0]
        item = {"kind": kind, "at": at, "message": dec}
        if extra:
            item["reaction"] = {**extra, "name": people.get(extra["person"], {}).get("name", extra["person"])}
        out.append(item)
        if len(out) >= limit:
            break
    return out
