"""Chat service layer: conversations, messages, threads, reactions, pins, search.

Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and record
``caller.actor``. Visibility: a public channel is visible to everyone in the
workspace (they can preview it and join); a private channel, a DM or a group
DM only to its members — to anyone else it is ``NotFound``, as if it did not
exist. Writing in a conversation needs membership (``Forbidden``). Bad input
raises ``Invalid`` and writes nothing.

Read markers (``chat_members.last_read``) hold the id of the newest message a
member has seen; unread counts are over top-level messages (thread replies
count only when also sent to the channel) written by someone else.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store, utc_iso
from apps.core.text import tidy

CHANNEL, DM, GROUP = "channel", "dm", "group"
KINDS = (CHANNEL, DM, GROUP)
MAX_NAME = 80
MAX_TEXT = 40_000
MAX_TOPIC = 250
MAX_GROUP = 9                       # people in a group DM, you included
EMOJIS = ("👍", "❤️", "😂", "🎉", "👀", "🙏", "✅", "🔥")   # the quick reaction picker
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# "@priya.raman" — not inside an address ("alex@meridianshaw.com") nor a word.
MENTION_RE = re.compile(r"(?<![\w@.])@([a-z0-9][a-z0-9._-]*[a-z0-9]|[a-z0-9])")
BROADCAST = ("here", "channel", "everyone")
NOT_FOUND = "That conversation doesn't exist, or you don't have access to it."
MSG_NOT_FOUND = "That message doesn't exist or was deleted."


# ---------------------------------------------------------------- names and text
def channel_name_error(name: str) -> str | None:
    """Slack's rules for a channel name, as the message a person sees (None when fine)."""
    if not name:
        return "Please fill in a name for the channel."
    if len(name) > MAX_NAME:
        return f"Channel names can't be longer than {MAX_NAME} characters."
    if re.search(r"\s", name):
        suggestion = re.sub(r"\s+", "-", name.strip().lower())
        return f"Channel names can't contain spaces. Try “{suggestion}”."
    if name != name.lower():
        return f"Channel names must be lowercase. Try “{name.lower()}”."
    if not NAME_RE.match(name):
        return ("Channel names can only contain lowercase letters, numbers, hyphens and underscores, "
                "and must start with a letter or number.")
    return None


def mentions_in(store: Store, text: str) -> list[str]:
    """Person ids mentioned as ``@person.id`` (directory people only), in order of appearance."""
    out: list[str] = []
    for slug in MENTION_RE.findall(text or ""):
        if slug not in out and directory.person(store, slug) is not None:
            out.append(slug)
    return out


def _clean_text(text: str | None) -> str:
    return tidy(text or "")


def _people(store: Store) -> dict[str, dict]:
    return {r["slug"]: dict(r) for r in store.all("SELECT slug, name, email, title, org FROM people")}


def _name(people: dict, slug: str) -> str:
    p = people.get(slug)
    return p["name"] if p else slug


def _resolve_people(store: Store, entries: Iterable[str], field: str = "people") -> list[str]:
    slugs = []
    for who in entries:
        who = (who or "").strip().lstrip("@")
        if not who:
            continue
        p = directory.person(store, who) or directory.by_email(store, who)
        if p is None:
            raise Invalid(f"“{who}” isn't in your organisation's directory.", field)
        if p["slug"] not in slugs:
            slugs.append(p["slug"])
    return slugs


# ---------------------------------------------------------------- conversations
def _conv(store: Store, conv_id: int) -> dict | None:
    return store.get("chat_conversations", conv_id)


def _member_row(store: Store, conv_id: int, user: str):
    return store.one("SELECT * FROM chat_members WHERE conversation=? AND person=?", (conv_id, user))


def is_member(store: Store, conv_id: int, user: str) -> bool:
    return _member_row(store, conv_id, user) is not None


def _visible(store: Store, user: str, conv: dict) -> bool:
    if conv["kind"] == CHANNEL and not conv["private"]:
        return True
    return is_member(store, conv["id"], user)


def _require(store: Store, user: str, conv_id: int) -> dict:
    conv = _conv(store, conv_id) if conv_id is not None else None
    if conv is None or not _visible(store, user, conv):
        raise NotFound(NOT_FOUND)
    return conv


def _require_member(store: Store, user: str, conv: dict) -> None:
    if not is_member(store, conv["id"], user):
        raise Forbidden(f"You're not a member of #{conv['name']}. Join the channel first."
                        if conv["kind"] == CHANNEL else NOT_FOUND)


def member_ids(store: Store, conv_id: int) -> list[str]:
    return [r["person"] for r in store.all(
        "SELECT m.person FROM chat_members m LEFT JOIN people p ON p.slug=m.person"
        " WHERE m.conversation=? ORDER BY p.name, m.person", (conv_id,))]


def _latest_id(store: Store, conv_id: int) -> int:
    return store.scalar("SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation=?", (conv_id,))


def _title(conv: dict, members: list[str], user: str, people: dict) -> str:
    if conv["kind"] == CHANNEL:
        return conv["name"]
    others = [m for m in members if m != user]
    if not others:
        return f"{_name(people, user)} (you)"
    return ", ".join(_name(people, m) for m in others)


def _decorate(store: Store, user: str, conv: dict, people: dict | None = None) -> dict:
    people = people if people is not None else _people(store)
    conv = dict(conv)
    members = member_ids(store, conv["id"])
    conv["members"] = members
    conv["member_count"] = len(members)
    conv["is_member"] = user in members
    conv["title"] = _title(conv, members, user, people)
    conv["others"] = [m for m in members if m != user] or [user]
    conv["pinned_count"] = store.scalar(
        "SELECT count(*) FROM chat_messages WHERE conversation=? AND pinned=1 AND deleted=0", (conv["id"],))
    conv["created_by_name"] = _name(people, conv["created_by"]) if conv["created_by"] else ""
    return conv


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


# ---------------------------------------------------------------- messages
def _decorate_messages(store: Store, user: str, rows: list[dict], people: dict | None = None) -> list[dict]:
    """Messages with author name, grouped reactions, Drive files and thread summary (a few queries)."""
    from apps.drive import service as drive
    people = people if people is not None else _people(store)
    if not rows:
        return []
    ids = [m["id"] for m in rows]
    marks = ",".join("?" * len(ids))
    reactions: dict[int, list] = {}
    for r in store.all(f"SELECT * FROM chat_reactions WHERE message IN ({marks}) ORDER BY id", ids):
        groups = reactions.setdefault(r["message"], [])
        g = next((x for x in groups if x["emoji"] == r["emoji"]), None)
        if g is None:
            g = {"emoji": r["emoji"], "people": [], "names": [], "mine": False}
            groups.append(g)
        g["people"].append(r["person"])
        g["names"].append(_name(people, r["person"]))
        g["mine"] = g["mine"] or r["person"] == user
    files: dict[int, list] = {}
    for f in store.all(f"SELECT * FROM chat_files WHERE message IN ({marks}) ORDER BY id", ids):
        item = None
        try:
            item = drive.get(store, user, f["item"])
        except (NotFound, Forbidden):
            pass
        files.setdefault(f["message"], []).append({"id": f["id"], "item_id": f["item"], "item": item})
    repliers: dict[int, list] = {}
    for r in store.all(f"SELECT thread, author FROM chat_messages WHERE thread IN ({marks}) ORDER BY id", ids):
        lst = repliers.setdefault(r["thread"], [])
        if r["author"] not in lst:
            lst.append(r["author"])
    out = []
    for m in rows:
        m = dict(m)
        m["author_name"] = _name(people, m["author"])
        m["reactions"] = [{**g, "count": len(g["people"])} for g in reactions.get(m["id"], [])]
        m["files"] = files.get(m["id"], [])
        m["repliers"] = repliers.get(m["id"], [])[:5]
        m["mine"] = m["author"] == user
        out.append(m)
    return out


def messages(store: Store, user: str, conv_id: int) -> list[dict]:
    """The conversation's timeline, oldest first: top-level messages and replies also sent to it."""
    _require(store, user, conv_id)
    rows = store.select("chat_messages", "conversation=? AND (thread IS NULL OR also_channel=1)", (conv_id,),
                        order="at, id")
    return _decorate_messages(store, user, rows)


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
        "files": [f["item"] for f in store.all("SELECT item FROM chat_files WHERE message=? ORDER BY id",
                                               (message_id,))],
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
    from apps.drive import service as drive
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
    from apps.drive import service as drive
    members = member_ids(store, conv["id"])
    for item in items:
        if drive.RANK[drive.role_of(store, caller.user, item)] < drive.RANK[drive.Role.EDITOR]:
            continue
        lacking = [p for p in members if drive.role_of(store, p, item) is None]
        if lacking:
            drive.share(store, caller, item["id"], lacking, drive.Role.VIEWER.value, notify=False)


def post_message(store: Store, caller: Caller, conversation: int, text: str, *, thread: int | None = None,
                 drive_items: Iterable[int] = (), also_channel: bool = False) -> int:
    """Post in a conversation (``thread``: reply to that message's thread). Returns the message id."""
    conv = _require(store, caller.user, conversation)
    _require_member(store, caller.user, conv)
    if conv["archived"]:
        raise Invalid("This channel has been archived: nobody can post in it.", "text")
    text = _clean_text(text)
    items = _drive_items(store, caller.user, drive_items)
    if not text.strip() and not items:
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
    emoji = (emoji or "").strip()
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
    store.update("chat_messages", message_id, caller.actor, pinned=bool(pinned_))


# ---------------------------------------------------------------- channels and DMs
def create_channel(store: Store, caller: Caller, name: str, *, private: bool = False, topic: str = "",
                   purpose: str = "", members: Iterable[str] = ()) -> int:
    name = (name or "").strip()
    name = name[1:] if name.startswith("#") else name
    error = channel_name_error(name)
    if error:
        raise Invalid(error, "name")
    if store.scalar("SELECT 1 FROM chat_conversations WHERE kind='channel' AND name=?", (name,)):
        raise Invalid(f"That name is already taken by a channel. Try another, like “{name}-2”.", "name")
    topic, purpose = _short(topic, "topic"), _short(purpose, "purpose")
    people = _resolve_people(store, members)
    with store.transaction():
        cid = store.insert("chat_conversations", caller.actor, kind=CHANNEL, name=name, topic=topic,
                           purpose=purpose, private=bool(private), created_by=caller.user,
                           created_at=store.now_iso())
        for p in [caller.user] + [p for p in people if p != caller.user]:
            store.insert("chat_members", caller.actor, conversation=cid, person=p, last_read=0)
    return cid


def _short(text: str, field: str) -> str:
    text = " ".join((text or "").split())
    if len(text) > MAX_TOPIC:
        raise Invalid(f"The {field} can be at most {MAX_TOPIC} characters.", field)
    return text


def open_dm(store: Store, caller: Caller, people: list[str]) -> int:
    """The DM with one person (or yourself) or the group DM with several; created if new."""
    others = [p for p in _resolve_people(store, people) if p != caller.user]
    everyone = sorted({caller.user, *others})
    if len(everyone) > MAX_GROUP:
        raise Invalid(f"A group conversation can have at most {MAX_GROUP} people, you included.", "people")
    kind = GROUP if len(everyone) > 2 else DM
    for row in store.all("SELECT c.id FROM chat_conversations c JOIN chat_members m ON m.conversation=c.id"
                         " WHERE c.kind IN ('dm', 'group') AND m.person=? ORDER BY c.id", (caller.user,)):
        if sorted(member_ids(store, row["id"])) == everyone:
            return row["id"]
    with store.transaction():
        cid = store.insert("chat_conversations", caller.actor, kind=kind, name=None, private=True,
                           created_by=caller.user, created_at=store.now_iso())
        for p in everyone:
            store.insert("chat_members", caller.actor, conversation=cid, person=p, last_read=0)
    return cid


def _channel_for_change(store: Store, caller: Caller, conv_id: int) -> dict:
    conv = _require(store, caller.user, conv_id)
    _require_member(store, caller.user, conv)
    return conv


def join(store: Store, caller: Caller, conv_id: int) -> bool:
    """Join a public channel; False if already a member."""
    conv = _require(store, caller.user, conv_id)
    if conv["kind"] != CHANNEL:
        raise Invalid("Only channels can be joined.", "conversation")
    if conv["archived"]:
        raise Invalid("This channel has been archived.", "conversation")
    if is_member(store, conv_id, caller.user):
        return False
    store.insert("chat_members", caller.actor, conversation=conv_id, person=caller.user,
                 last_read=_latest_id(store, conv_id))
    return True


def leave(store: Store, caller: Caller, conv_id: int) -> None:
    conv = _require(store, caller.user, conv_id)
    if conv["kind"] != CHANNEL:
        raise Invalid("You can't leave a direct message; close it instead.", "conversation")
    row = _member_row(store, conv_id, caller.user)
    if row is None:
        raise Invalid(f"You're not a member of #{conv['name']}.", "conversation")
    store.delete("chat_members", row["id"], caller.actor)


def invite(store: Store, caller: Caller, conv_id: int, people: Iterable[str]) -> list[str]:
    """Add people to a channel the caller is in; returns who was added."""
    conv = _channel_for_change(store, caller, conv_id)
    if conv["kind"] != CHANNEL:
        raise Invalid("People can only be added to channels. Start a new group conversation instead.", "people")
    slugs = _resolve_people(store, people)
    if not slugs:
        raise Invalid("Add at least one person.", "people")
    latest = _latest_id(store, conv_id)
    added = []
    with store.transaction():
        for s in slugs:
            if not is_member(store, conv_id, s):
                store.insert("chat_members", caller.actor, conversation=conv_id, person=s, last_read=latest)
                added.append(s)
    return added


def set_topic(store: Store, caller: Caller, conv_id: int, topic: str) -> None:
    _channel_for_change(store, caller, conv_id)
    store.update("chat_conversations", conv_id, caller.actor, topic=_short(topic, "topic"))


def set_purpose(store: Store, caller: Caller, conv_id: int, purpose: str) -> None:
    _channel_for_change(store, caller, conv_id)
    store.update("chat_conversations", conv_id, caller.actor, purpose=_short(purpose, "purpose"))


def mention_candidates(store: Store, user: str, conv_id: int) -> list[dict]:
    """Members who can be @mentioned in a conversation (for the composer's autocomplete)."""
    _require(store, user, conv_id)
    people = _people(store)
    return [{"id": s, "name": _name(people, s), "title": (people.get(s) or {}).get("title") or ""}
            for s in member_ids(store, conv_id)]


def people_to_invite(store: Store, user: str, conv_id: int, q: str, limit: int = 8) -> list[dict]:
    """Directory people matching ``q`` who are not in the channel yet."""
    _require(store, user, conv_id)
    q = (q or "").strip().lower()
    if not q:
        return []
    inside = set(member_ids(store, conv_id))
    out = []
    for p in store.all("SELECT slug, name, email, title FROM people WHERE lower(name) LIKE ? OR email LIKE ?"
                       " OR slug LIKE ? ORDER BY name", (f"%{q}%", f"%{q}%", f"%{q}%")):
        if p["slug"] not in inside:
            out.append({"name": p["name"], "email": p["email"], "detail": p["title"], "slug": p["slug"]})
    return out[:limit]


def drive_choices(store: Store, user: str, q: str = "", limit: int = 40) -> list[dict]:
    """Drive files the user can see, for the "attach from Drive" picker (newest first, or matching ``q``)."""
    from apps.drive import service as drive
    if q.strip():
        return [i for i in drive.search(store, user, q) if i["kind"] != drive.FOLDER][:limit]
    out = []
    for it in store.select("drive_items", "trashed=0 AND kind<>'folder'", order="modified_at DESC, id DESC"):
        if drive.role_of(store, user, it) is None or drive.is_trashed(store, it):
            continue
        out.append(drive._decorate(store, user, it))
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------- search
class SearchError(Invalid):
    def __init__(self, message: str):
        super().__init__(message, "q")


TOKEN_RE = re.compile(r'(?P<op>[a-zA-Z]+):(?:"(?P<qv>[^"]*)"|(?P<v>\S+))|"(?P<phrase>[^"]*)"|(?P<word>\S+)')
OPERATORS = ("from", "in", "before", "after", "on", "during")


def _day(store: Store, value: str, op: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise SearchError(f"“{op}:{value}”: dates look like 2026-04-03.") from None


def _day_start_utc(store: Store, d: date) -> str:
    return utc_iso(datetime.combine(d, time(0, 0), tzinfo=store.tz))


def _person_for_search(store: Store, user: str, value: str) -> str:
    v = value.lstrip("@").strip().lower()
    if v == "me":
        return user
    p = directory.person(store, v) or directory.by_email(store, v)
    if p is not None:
        return p["slug"]
    matches = [r["slug"] for r in store.all("SELECT slug, name FROM people ORDER BY name")
               if v.replace(".", " ") in r["name"].lower() or r["name"].lower().split()[0] == v]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise SearchError(f"“from:{value}” matches several people; use their id, like from:@{matches[0]}.")
    raise SearchError(f"“from:{value}”: there is no one called “{value}” in the directory.")


def parse_query(store: Store, user: str, q: str) -> dict:
    """``from:@person`` ``in:#channel`` (or ``in:@person`` for a DM) ``before:`` ``after:`` ``on:``
    dates, "quoted phrases" and words (all must match)."""
    out = {"from": [], "in": [], "before": None, "after": None, "terms": []}
    for m in TOKEN_RE.finditer(q or ""):
        op = (m.group("op") or "").lower()
        if op in OPERATORS:
            value = m.group("qv") if m.group("qv") is not None else m.group("v")
            if op == "from":
                out["from"].append(_person_for_search(store, user, value))
            elif op == "in":
                if value.startswith("@"):
                    other = _person_for_search(store, user, value)
                    dm = _dm_between(store, user, other)
                    if dm is None:
                        raise SearchError(f"“in:{value}”: you have no direct messages with {value[1:]}.")
                    out["in"].append(dm)
                else:
                    conv = conversation_by_name(store, user, value)
                    if conv is None:
                        raise SearchError(f"“in:{value}”: there is no channel called #{value.lstrip('#')}.")
                    out["in"].append(conv["id"])
            else:
                d = _day(store, value, op)
                if op == "before":
                    out["before"] = _day_start_utc(store, d)
                elif op == "after":
                    out["after"] = _day_start_utc(store, d + timedelta(days=1))
                else:                                        # on: / during: one day
                    out["after"] = _day_start_utc(store, d)
                    out["before"] = _day_start_utc(store, d + timedelta(days=1))
        elif m.group("phrase") is not None:
            if m.group("phrase").strip():
                out["terms"].append(m.group("phrase").strip())
        else:
            out["terms"].append(m.group(0))
    return out


def _dm_between(store: Store, user: str, other: str) -> int | None:
    want = sorted({user, other})
    for row in store.all("SELECT c.id FROM chat_conversations c JOIN chat_members m ON m.conversation=c.id"
                         " WHERE c.kind='dm' AND m.person=? ORDER BY c.id", (user,)):
        if sorted(member_ids(store, row["id"])) == want:
            return row["id"]
    return None


def search(store: Store, user: str, q: str, limit: int = 100) -> list[dict]:
    """Messages the user can see matching ``q``, newest first (raises ``SearchError``)."""
    p = parse_query(store, user, q)
    if not (p["terms"] or p["from"] or p["in"] or p["before"] or p["after"]):
        return []
    where = ["m.deleted=0",
             "((c.kind='channel' AND c.private=0) OR EXISTS (SELECT 1 FROM chat_members x"
             " WHERE x.conversation=c.id AND x.person=?))"]
    params: list = [user]
    if p["from"]:
        where.append(f"m.author IN ({','.join('?' * len(p['from']))})")
        params += p["from"]
    if p["in"]:
        where.append(f"m.conversation IN ({','.join('?' * len(p['in']))})")
        params += p["in"]
    if p["before"]:
        where.append("m.at < ?")
        params.append(p["before"])
    if p["after"]:
        where.append("m.at >= ?")
        params.append(p["after"])
    people = _people(store)
    for t in p["terms"]:
        # A name matches the mentions written as @person.id, as the reader sees them.
        slugs = [s for s, row in people.items() if t.lower() in row["name"].lower()]
        alt = " OR ".join("lower(m.text) LIKE ?" for _ in slugs)
        where.append(f"(lower(m.text) LIKE ?{' OR ' + alt if alt else ''})")
        params += [f"%{t.lower()}%"] + [f"%@{s}%" for s in slugs]
    rows = store.all("SELECT m.* FROM chat_messages m JOIN chat_conversations c ON c.id=m.conversation"
                     f" WHERE {' AND '.join(where)} ORDER BY m.at DESC, m.id DESC LIMIT ?", (*params, limit))
    found = _decorate_messages(store, user, [store.decode("chat_messages", r) for r in rows], people)
    convs: dict[int, dict] = {}
    for m in found:
        if m["conversation"] not in convs:
            convs[m["conversation"]] = _decorate(store, user, _conv(store, m["conversation"]), people)
        m["conv"] = convs[m["conversation"]]
    return found


def search_terms(store: Store, user: str, q: str) -> list[str]:
    try:
        return parse_query(store, user, q)["terms"]
    except SearchError:
        return []
