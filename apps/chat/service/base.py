"""What the chat service's modules share: kinds and limits, names and mentions, people, and
conversation access (visibility, membership, the decorated conversation and messages).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Store
from apps.core.text import tidy
from apps.drive import service as drive

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


def _require_open(conv: dict, field: str = "text") -> None:
    """An archived channel is read-only."""
    if conv["archived"]:
        raise Invalid("This channel has been archived: nothing in it can change.", field)


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


# ---------------------------------------------------------------- messages
def _decorate_messages(store: Store, user: str, rows: list[dict], people: dict | None = None) -> list[dict]:
    """Messages with author name, grouped reactions, Drive files and thread summary (a few queries)."""
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
        if f["item"] is None:                 # uploaded from the computer: stored with the message
            files.setdefault(f["message"], []).append({"id": f["id"], "item_id": None, "item": None, "upload": {
                "name": f["name"], "mime": f["mime"], "size": f["size"]}})
            continue
        try:
            item = drive.get(store, user, f["item"])
        except (NotFound, Forbidden):
            pass
        files.setdefault(f["message"], []).append({"id": f["id"], "item_id": f["item"], "item": item,
                                                   "upload": None})
    saved = {r["message"] for r in store.all(
        f"SELECT message FROM chat_saved WHERE person=? AND message IN ({marks})", [user, *ids])}
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
        m["saved"] = m["id"] in saved
        out.append(m)
    return out
