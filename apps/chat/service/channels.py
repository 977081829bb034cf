"""Channels and DMs: creating, joining, leaving, inviting, topic and purpose, renaming and archiving;
the pickers' candidates."""
from __future__ import annotations

from collections.abc import Iterable

from apps.chat.service.base import (CHANNEL, DM, GROUP, MAX_GROUP, MAX_TOPIC, _latest_id, _member_row, _name,
                                    _people, _require, _require_member, _require_open, _resolve_people,
                                    channel_name_error, is_member, member_ids)
from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.drive import service as drive


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
    _require_open(conv, "people")
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
    _require_open(_channel_for_change(store, caller, conv_id), "topic")
    store.update("chat_conversations", conv_id, caller.actor, topic=_short(topic, "topic"))


def set_purpose(store: Store, caller: Caller, conv_id: int, purpose: str) -> None:
    _require_open(_channel_for_change(store, caller, conv_id), "purpose")
    store.update("chat_conversations", conv_id, caller.actor, purpose=_short(purpose, "purpose"))


def rename_channel(store: Store, caller: Caller, conv_id: int, name: str) -> bool:
    """Rename a channel you are in (Slack's name rules; names are unique). False when unchanged."""
    conv = _channel_for_change(store, caller, conv_id)
    if conv["kind"] != CHANNEL:
        raise Invalid("Only channels have a name.", "name")
    if conv["archived"]:
        raise Invalid("This channel has been archived: unarchive it to change its name.", "name")
    name = (name or "").strip()
    name = name[1:] if name.startswith("#") else name
    error = channel_name_error(name)
    if error:
        raise Invalid(error, "name")
    if name == conv["name"]:
        return False
    if store.scalar("SELECT 1 FROM chat_conversations WHERE kind='channel' AND name=? AND id<>?", (name, conv_id)):
        raise Invalid(f"That name is already taken by a channel. Try another, like “{name}-2”.", "name")
    store.update("chat_conversations", conv_id, caller.actor, name=name)
    return True


def archive_channel(store: Store, caller: Caller, conv_id: int, archived: bool = True) -> bool:
    """Archive a channel you are in (read-only, gone from the sidebar) or unarchive it.
    False when it already was so."""
    conv = _require(store, caller.user, conv_id)
    if conv["kind"] != CHANNEL:
        raise Invalid("Only channels can be archived.", "archived")
    _require_member(store, caller.user, conv)
    if bool(conv["archived"]) == bool(archived):
        return False
    store.update("chat_conversations", conv_id, caller.actor, archived=bool(archived))
    return True


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
    if q.strip():
        try:
            return [i for i in drive.search(store, user, q) if i["kind"] != drive.FOLDER][:limit]
        except Invalid:                      # a half-typed operator ("before:2026-0") finds no files
            return []
    out = []
    for it in store.select("drive_items", "trashed=0 AND kind<>'folder'", order="modified_at DESC, id DESC"):
        if drive.role_of(store, user, it) is None or drive.is_trashed(store, it):
            continue
        out.append(drive._decorate(store, user, it))
        if len(out) >= limit:
            break
    return out
