"""Conversations: one by id or name, the sidebar with unread counts, the channel browser, read markers."""
from __future__ import annotations

from apps.chat.service.base import (CHANNEL, _conv, _decorate, _latest_id, _member_row, _people, _require, _title,
                                    _visible, member_ids)
from apps.core.store.db import Caller, Store


def conversation(store: Store, user: str, conv_id: int) -> dict:
    """A conversation the user can see, with members, title and counts."""
    return _decorate(store, user, _require(store, user, conv_id))


def conversation_by_name(store: Store, user: str, name: str) -> dict | None:
    """A channel by name (``#`` optional), if the user can see it."""
    name = (name or "").strip().lstrip("#").lower()
    row = store.one("SELECT id FROM chat_conversations WHERE kind='channel' AND name=? ORDER BY id", (name,))
    if row is None:
        return None
    conv = _conv(store, row["id"])
    return _decorate(store, user, conv) if _visible(store, user, conv) else None


def _unread_sql() -> str:
    return ("SELECT count(*) FROM chat_messages x WHERE x.conversation=? AND x.id>? AND x.author<>?"
            " AND x.deleted=0 AND (x.thread IS NULL OR x.also_channel=1)")


def list_conversations(store: Store, user: str) -> dict:
    """The sidebar: channels (by name) and direct messages (newest activity first) the user is in,
    each with ``unread`` (messages), ``mentions`` (unread mentions) and ``badge`` (what Slack shows)."""
    people = _people(store)
    channels, dms = [], []
    rows = store.all("SELECT c.*, m.last_read FROM chat_conversations c JOIN chat_members m"
                     " ON m.conversation=c.id AND m.person=? WHERE c.archived=0 ORDER BY c.id", (user,))
    for r in rows:
        conv = store.decode("chat_conversations", r)
        last_read = r["last_read"] or 0
        unread = store.scalar(_unread_sql(), (conv["id"], last_read, user))
        mentions = store.scalar(_unread_sql() + " AND EXISTS (SELECT 1 FROM json_each(x.mentions) j"
                                " WHERE j.value=?)", (conv["id"], last_read, user, user)) if unread else 0
        members = member_ids(store, conv["id"])
        item = {"id": conv["id"], "kind": conv["kind"], "name": conv["name"], "private": conv["private"],
                "title": _title(conv, members, user, people), "others": [m for m in members if m != user] or [user],
                "unread": unread, "mentions": mentions,
                "badge": unread if conv["kind"] != CHANNEL else mentions,
                "latest": store.scalar("SELECT max(at) FROM chat_messages WHERE conversation=?", (conv["id"],))
                or conv["created_at"] or ""}
        (channels if conv["kind"] == CHANNEL else dms).append(item)
    channels.sort(key=lambda c: (c["name"], c["id"]))
    dms.sort(key=lambda c: (c["latest"], c["id"]), reverse=True)
    return {"channels": channels, "dms": dms}


def browse_channels(store: Store, user: str, q: str = "") -> list[dict]:
    """Channels the user may join or is in: every public channel and their private ones."""
    people = _people(store)
    q = (q or "").strip().lstrip("#").lower()
    out = []
    for conv in store.select("chat_conversations", "kind='channel' AND archived=0", order="name, id"):
        if not _visible(store, user, conv):
            continue
        if q and not any(q in (conv[f] or "").lower() for f in ("name", "topic", "purpose")):
            continue
        out.append(_decorate(store, user, conv, people))
    return out


def mark_read(store: Store, caller: Caller, conv_id: int) -> int:
    """Opening a conversation: the member's read marker moves to its newest message (ephemeral).
    Returns the marker as it was, for the "New messages" line."""
    _require(store, caller.user, conv_id)
    row = _member_row(store, conv_id, caller.user)
    if row is None:
        return _latest_id(store, conv_id)
    before = row["last_read"] or 0
    latest = _latest_id(store, conv_id)
    if latest > before:
        store.update("chat_members", row["id"], caller.actor, last_read=latest)
    return before


def last_read(store: Store, user: str, conv_id: int) -> int:
    row = _member_row(store, conv_id, user)
    return (row["last_read"] or 0) if row is not None else _latest_id(store, conv_id)
