"""Messages: the timeline (in pages), threads and pins; posting (with Drive files and uploads), editing,
deleting, reactions."""
from __future__ import annotations

import re
from collections.abc import Iterable

from apps.chat.service.base import (MAX_TEXT, MSG_NOT_FOUND, _clean_text, _conv, _decorate, _decorate_messages,
                                    _member_row, _people, _require, _require_member, _require_open, _visible,
                                    member_ids, mentions_in)
from apps.chat.emoji import as_emoji
from apps.core import local_files
from apps.core.files import guess_mime, put_blob
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.drive import service as drive


MAX_UPLOAD = 1024 * 1024 * 1024          # Slack's per-file limit, 1 GB


def messages(store: Store, user: str, conv_id: int, *, before: int | None = None,
             limit: int | None = None) -> list[dict]:
    """The conversation's timeline, oldest first: top-level messages and replies also sent to it.
    ``limit``: only the newest that many (older than message ``before`` when given) — a page."""
    _require(store, user, conv_id)
    where = "conversation=? AND (thread IS NULL OR also_channel=1)"
    args: list = [conv_id]
    if before is not None:
        where += " AND id<?"
        args.append(before)
    if limit is None:
        rows = store.select("chat_messages", where, args, order="at, id")
    else:
        rows = store.select("chat_messages", where, args, order="at DESC, id DESC")[:max(1, limit)][::-1]
    return _decorate_messages(store, user, rows)


PAGE = 50          # messages a timeline shows at first; "Load earlier" (or scrolling up) adds a page


def latest_page(store: Store, user: str, conv_id: int, *, at_least: int = 0,
                back_to: Iterable[int | None] = ()) -> tuple[list[dict], bool]:
    """The newest whole pages of the timeline: at least ``at_least`` messages (those shown already),
    and far enough back to show each message id in ``back_to`` (a linked message, the last one read).
    Returns the messages, oldest first, and whether older ones are left to load."""
    limit = max(PAGE, at_least)
    wants = [w for w in back_to if w]
    if wants:
        n = store.scalar("SELECT count(*) FROM chat_messages WHERE conversation=? AND (thread IS NULL OR"
                         " also_channel=1) AND id>=?", (conv_id, min(wants)))
        limit = max(limit, -(-n // PAGE) * PAGE)
    msgs = messages(store, user, conv_id, limit=limit)
    return msgs, bool(msgs) and has_older(store, conv_id, msgs[0]["id"])


def has_older(store: Store, conv_id: int, first_id: int) -> bool:
    """Whether the timeline has messages before message ``first_id`` (for "Load earlier")."""
    first = store.get("chat_messages", first_id)
    return first is not None and bool(store.scalar(
        "SELECT 1 FROM chat_messages WHERE conversation=? AND (thread IS NULL OR also_channel=1)"
        " AND (at<? OR (at=? AND id<?)) LIMIT 1", (conv_id, first["at"], first["at"], first_id)))


def _message_row(store: Store, user: str, message_id: int) -> tuple[dict, dict]:
    m = store.get("chat_messages", message_id) if message_id is not None else None
    if m is None:
        raise NotFound(MSG_NOT_FOUND)
    conv = _conv(store, m["conversation"])
    if conv is None or not _visible(store, user, conv):
        raise NotFound(MSG_NOT_FOUND)
    return m, conv


def message(store: Store, user: str, message_id: int) -> dict:
    """One message, decorated for display."""
    m, _ = _message_row(store, user, message_id)
    return _decorate_messages(store, user, [m])[0]


def get_message(store: Store, user: str, message_id: int) -> dict:
    """A message as data: conversation, thread, author, text, mentions, files (Drive item ids),
    reactions ({emoji: [person ids]}), at, edited, deleted, pinned, reply_count."""
    m, conv = _message_row(store, user, message_id)
    reactions: dict[str, list[str]] = {}
    for r in store.all("SELECT emoji, person FROM chat_reactions WHERE message=? ORDER BY id", (message_id,)):
        reactions.setdefault(r["emoji"], []).append(r["person"])
    return {
        "id": m["id"], "conversation": m["conversation"], "conversation_kind": conv["kind"],
        "conversation_name": conv["name"], "thread": m["thread"], "author": m["author"], "text": m["text"],
        "mentions": m["mentions"], "at": m["at"], "edited_at": m["edited_at"], "edited": m["edited_at"] is not None,
        "deleted": m["deleted"], "pinned": m["pinned"], "also_channel": m["also_channel"],
        "reply_count": m["reply_count"], "reactions": reactions,
        "files": [f["item"] for f in store.all("SELECT item FROM chat_files WHERE message=? AND item IS NOT NULL"
                                               " ORDER BY id", (message_id,))],
        "uploads": [f["name"] for f in store.all("SELECT name FROM chat_files WHERE message=? AND item IS NULL"
                                                 " ORDER BY id", (message_id,))],
        "saved": bool(store.scalar("SELECT 1 FROM chat_saved WHERE message=? AND person=?", (message_id, user))),
    }


def thread(store: Store, user: str, message_id: int) -> dict:
    """A thread: its parent message and replies, oldest first (a reply's id opens its thread)."""
    m, conv = _message_row(store, user, message_id)
    if m["thread"] is not None:
        m, conv = _message_row(store, user, m["thread"])
    replies = store.select("chat_messages", "thread=?", (m["id"],), order="at, id")
    people = _people(store)
    decorated = _decorate_messages(store, user, [m] + replies, people)
    return {"parent": decorated[0], "replies": decorated[1:], "conversation": _decorate(store, user, conv, people)}


def pinned(store: Store, user: str, conv_id: int) -> list[dict]:
    _require(store, user, conv_id)
    rows = store.select("chat_messages", "conversation=? AND pinned=1 AND deleted=0", (conv_id,), order="at, id")
    return _decorate_messages(store, user, rows)


def _reply_stats(store: Store, actor: str, parent_id: int) -> None:
    row = store.one("SELECT count(*) AS n, max(at) AS last FROM chat_messages WHERE thread=?", (parent_id,))
    store.update("chat_messages", parent_id, actor, reply_count=row["n"], last_reply_at=row["last"])


def _drive_items(store: Store, user: str, ids: Iterable[int]) -> list[dict]:
    items = []
    for i in dict.fromkeys(ids):
        try:
            item = drive.get(store, user, int(i))
        except (NotFound, ValueError, TypeError):
            raise Invalid("That file doesn't exist in Drive, or you don't have access to it.", "drive") from None
        items.append(item)
    return items


def _share_with_members(store: Store, caller: Caller, conv: dict, items: list[dict]) -> None:
    """Sharing a Drive file in a conversation lets its members view it (when the poster may share it)."""
    members = member_ids(store, conv["id"])
    for item in items:
        if drive.RANK[drive.role_of(store, caller.user, item)] < drive.RANK[drive.Role.EDITOR]:
            continue
        lacking = [p for p in members if drive.role_of(store, p, item) is None]
        if lacking:
            drive.share(store, caller, item["id"], lacking, drive.Role.VIEWER.value, notify=False)


def _uploads(store: Store, user: str, local: Iterable[int], uploads: Iterable[tuple]) -> list[dict]:
    """Files from the computer: the in-app picker's ids (``local``) and uploaded (name, bytes, mime)."""
    out = []
    for lid in dict.fromkeys(local):
        try:
            f = local_files.get(store, user, int(lid))
        except (NotFound, ValueError, TypeError):
            raise Invalid("That file isn't on this computer.", "local") from None
        out.append({"name": f["name"], "mime": f["mime"], "size": f["size"], "blob": f["blob"]})
    for name, data, mime in uploads:
        name = " ".join((name or "").split())
        if not name:
            raise Invalid("The file needs a name.", "file")
        if len(data) > MAX_UPLOAD:
            raise Invalid("Files can be at most 1 GB.", "file")
        out.append({"name": name, "mime": mime or guess_mime(name), "size": len(data), "data": data})
    return out


def post_message(store: Store, caller: Caller, conversation: int, text: str, *, thread: int | None = None,
                 drive_items: Iterable[int] = (), also_channel: bool = False, local: Iterable[int] = (),
                 uploads: Iterable[tuple] = ()) -> int:
    """Post in a conversation (``thread``: reply to that message's thread). Returns the message id.
    Files: ``drive_items`` (Drive ids), ``local`` (ids of files on the user's computer) and
    ``uploads`` ((name, bytes, mime) triples), stored with the message."""
    conv = _require(store, caller.user, conversation)
    _require_member(store, caller.user, conv)
    if conv["archived"]:
        raise Invalid("This channel has been archived: nobody can post in it.", "text")
    text = _clean_text(text)
    items = _drive_items(store, caller.user, drive_items)
    ups = _uploads(store, caller.user, local, uploads)
    if not text.strip() and not items and not ups:
        raise Invalid("Write a message first.", "text")
    if len(text) > MAX_TEXT:
        raise Invalid(f"Messages can be at most {MAX_TEXT:,} characters.", "text")
    parent = None
    if thread is not None:
        parent = store.get("chat_messages", thread)
        if parent is None or parent["conversation"] != conv["id"]:
            raise NotFound("That thread doesn't exist.")
        if parent["thread"] is not None:                      # a reply's thread is its parent's
            parent = store.get("chat_messages", parent["thread"])
        if parent["deleted"] and not parent["reply_count"]:
            raise NotFound("That thread doesn't exist.")
    now = store.now_iso()
    with store.transaction():
        mid = store.insert("chat_messages", caller.actor, conversation=conv["id"],
                           thread=parent["id"] if parent else None, author=caller.user, text=text,
                           mentions=mentions_in(store, text), at=now,
                           also_channel=bool(also_channel and parent))
        for item in items:
            store.insert("chat_files", caller.actor, message=mid, item=item["id"])
        for up in ups:
            blob = up.get("blob") or put_blob(store, up["data"], up["mime"], actor=caller.actor)
            store.insert("chat_files", caller.actor, message=mid, item=None, name=up["name"], mime=up["mime"],
                         size=up["size"], blob=blob)
        if parent is not None:
            _reply_stats(store, caller.actor, parent["id"])
        row = _member_row(store, conv["id"], caller.user)
        if (row["last_read"] or 0) < mid:
            store.update("chat_members", row["id"], caller.actor, last_read=mid)
        _share_with_members(store, caller, conv, items)
    return mid


def _own_message(store: Store, caller: Caller, message_id: int, verb: str) -> tuple[dict, dict]:
    m, conv = _message_row(store, caller.user, message_id)
    if m["deleted"]:
        raise NotFound(MSG_NOT_FOUND)
    if m["author"] != caller.user:
        raise Forbidden(f"You can only {verb} your own messages.")
    _require_member(store, caller.user, conv)
    _require_open(conv)
    return m, conv


def edit_message(store: Store, caller: Caller, message_id: int, text: str) -> bool:
    """Change the text of one's own message; returns False when nothing changed."""
    m, _ = _own_message(store, caller, message_id, "edit")
    text = _clean_text(text)
    has_files = store.scalar("SELECT count(*) FROM chat_files WHERE message=?", (message_id,))
    if not text.strip() and not has_files:
        raise Invalid("A message can't be empty. To remove it, delete the message.", "text")
    if len(text) > MAX_TEXT:
        raise Invalid(f"Messages can be at most {MAX_TEXT:,} characters.", "text")
    if text == m["text"]:
        return False
    store.update("chat_messages", message_id, caller.actor, text=text, mentions=mentions_in(store, text),
                 edited_at=store.now_iso())
    return True


def delete_message(store: Store, caller: Caller, message_id: int) -> str:
    """Delete one's own message. A message with replies stays as "This message was deleted."
    (returns ``"tombstone"``); otherwise it is removed (``"removed"``)."""
    m, _ = _own_message(store, caller, message_id, "delete")
    with store.transaction():
        for r in store.all("SELECT id FROM chat_reactions WHERE message=?", (message_id,)):
            store.delete("chat_reactions", r["id"], caller.actor)
        for f in store.all("SELECT id FROM chat_files WHERE message=?", (message_id,)):
            store.delete("chat_files", f["id"], caller.actor)
        for f in store.all("SELECT id FROM chat_saved WHERE message=?", (message_id,)):
            store.delete("chat_saved", f["id"], caller.actor)
        if m["thread"] is None and m["reply_count"]:
            store.update("chat_messages", message_id, caller.actor, deleted=True, text="", mentions=[], pinned=False)
            return "tombstone"
        store.delete("chat_messages", message_id, caller.actor)
        if m["thread"] is not None:
            parent = store.get("chat_messages", m["thread"])
            if parent is not None:
                _reply_stats(store, caller.actor, parent["id"])
                if parent["deleted"] and not store.scalar("SELECT count(*) FROM chat_messages WHERE thread=?",
                                                          (parent["id"],)):
                    store.delete("chat_messages", parent["id"], caller.actor)
    return "removed"


def react(store: Store, caller: Caller, message: int, emoji: str) -> bool:
    """Toggle the caller's reaction; True if they now have reacted with ``emoji``."""
    m, conv = _message_row(store, caller.user, message)
    if m["deleted"]:
        raise NotFound(MSG_NOT_FOUND)
    _require_member(store, caller.user, conv)
    _require_open(conv, "emoji")
    emoji = as_emoji(emoji)
    if not emoji or len(emoji) > 16 or re.search(r"\s", emoji):
        raise Invalid("Choose an emoji to react with.", "emoji")
    row = store.one("SELECT id FROM chat_reactions WHERE message=? AND person=? AND emoji=?",
                    (message, caller.user, emoji))
    if row is not None:
        store.delete("chat_reactions", row["id"], caller.actor)
        return False
    store.insert("chat_reactions", caller.actor, message=message, person=caller.user, emoji=emoji)
    return True


def pin(store: Store, caller: Caller, message_id: int, pinned_: bool = True) -> None:
    """Pin a message to its conversation (or un-pin it)."""
    m, conv = _message_row(store, caller.user, message_id)
    if m["deleted"]:
        raise NotFound(MSG_NOT_FOUND)
    _require_member(store, caller.user, conv)
    _require_open(conv, "pinned")
    store.update("chat_messages", message_id, caller.actor, pinned=bool(pinned_))
