"""Seed Chat from ``worlds/<w>/chat/*.yaml`` (one conversation per file; see worlds/README.md).

Errors name the file and the field. Messages go in in time order across all
conversations (and replies after their parent), so message ids follow time.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_yaml, validation_message

from apps.chat.service import BROADCAST, MAX_GROUP, MENTION_RE, channel_name_error


class ReplySpec(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    author: str = Field(alias="from")
    at: datetime | str
    text: str = ""
    reactions: dict[str, list[str]] = {}
    pinned: bool = False
    edited: bool = False
    files: list[str] = []
    also_send_to_channel: bool = False


class MessageSpec(ReplySpec):
    replies: list[ReplySpec] = []


class ConversationSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["channel", "dm", "group"]
    name: str | None = None
    topic: str = ""
    purpose: str = ""
    private: bool = False
    archived: bool = False
    created_by: str | None = None
    created: datetime | str | None = None
    members: list[str] = Field(min_length=1)
    last_read: datetime | str | None = None
    messages: list[MessageSpec] = []


def _when(world: World, value: datetime | str, where: str) -> datetime:
    return world.local_time(value, where)


def _person(world: World, slug: str, where: str) -> str:
    if slug not in world.people:
        raise WorldError(f"{where}: {slug!r} is not a person id in world.yaml")
    return slug


def _check_text(world: World, text: str, where: str) -> list[str]:
    mentions = []
    for slug in MENTION_RE.findall(text):
        if slug in world.people:
            if slug not in mentions:
                mentions.append(slug)
        elif "." in slug and slug not in BROADCAST:
            raise WorldError(f"{where}: mentions @{slug}, which is not a person id in world.yaml")
    return mentions


def _drive_item(store: Store, rel: str, where: str) -> int:
    from apps.drive import service as drive
    if not rel.startswith("drive/"):
        raise WorldError(f"{where}: {rel!r} must be a Drive path: drive/<owner>/<path>")
    owner, _, path = rel[len("drive/"):].partition("/")
    item = drive.find_path(store, owner, path)
    if item is None or item["kind"] == drive.FOLDER:
        raise WorldError(f"{where}: no Drive file {rel!r}")
    return item["id"]


def load(world: World) -> list[tuple]:
    """Validated specs: (path, spec) per file, sorted by file name."""
    folder = world.root / "chat"
    out = []
    names: dict[str, str] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        raw = load_yaml(path)
        try:
            spec = ConversationSpec.model_validate(raw)
        except ValidationError as e:
            raise WorldError(validation_message(path, e)) from None
        if spec.kind == "channel":
            if not spec.name:
                raise WorldError(f"{path}: name: a channel needs a name")
            err = channel_name_error(spec.name)
            if err:
                raise WorldError(f"{path}: name: {spec.name!r}: {err}")
            if path.stem != spec.name:
                raise WorldError(f"{path}: name: {spec.name!r} must match the file name ({path.stem}.yaml)")
            if spec.name in names:
                raise WorldError(f"{path}: name: #{spec.name} is already the channel in {names[spec.name]}")
            names[spec.name] = str(path)
        else:
            if spec.name:
                raise WorldError(f"{path}: name: only channels have a name (this is a {spec.kind})")
            if spec.private:
                raise WorldError(f"{path}: private: only channels can be private (DMs always are)")
        for i, m in enumerate(spec.members):
            _person(world, m, f"{path}: members.{i}")
        if len(set(spec.members)) != len(spec.members):
            raise WorldError(f"{path}: members: a person is listed twice")
        if spec.kind == "dm" and len(spec.members) > 2:
            raise WorldError(f"{path}: members: a dm has one or two people; use kind: group for more")
        if spec.kind == "group" and not 3 <= len(spec.members) <= MAX_GROUP:
            raise WorldError(f"{path}: members: a group DM has 3 to {MAX_GROUP} people")
        if spec.created_by is not None:
            _person(world, spec.created_by, f"{path}: created_by")
        out.append((path, spec))
    return out


def seed(store: Store, world: World) -> None:
    specs = load(world)
    convs: dict[str, int] = {}
    queue = []
    for path, spec in specs:
        first = None
        last = None
        for i, m in enumerate(spec.messages):
            where = f"{path}: messages.{i}"
            when = _when(world, m.at, f"{where}.at")
            if when >= world.start:
                raise WorldError(f"{where}.at: {m.at} is not before the world clock")
            if last is not None and when < last:
                raise WorldError(f"{where}.at: earlier than the message before it (messages must be in time order)")
            if m.also_send_to_channel:
                raise WorldError(f"{where}.also_send_to_channel: only thread replies can also be sent to the channel")
            last = when
            first = first or when
            queue.append((when, str(path), i, 0, path, spec, m, None))
            r_last = when
            for j, r in enumerate(m.replies):
                rwhere = f"{where}.replies.{j}"
                rwhen = _when(world, r.at, f"{rwhere}.at")
                if rwhen >= world.start:
                    raise WorldError(f"{rwhere}.at: {r.at} is not before the world clock")
                if rwhen < r_last:
                    raise WorldError(f"{rwhere}.at: earlier than the message before it in the thread")
                r_last = rwhen
                queue.append((rwhen, str(path), i, j + 1, path, spec, r, (str(path), i)))
        created = _when(world, spec.created, f"{path}: created") if spec.created else first or world.start
        if created > world.start or (first is not None and created > first):
            raise WorldError(f"{path}: created: {spec.created} is after the first message or the world clock")
        convs[str(path)] = store.insert(
            "chat_conversations", SYSTEM, kind=spec.kind, name=spec.name if spec.kind == "channel" else None,
            topic=" ".join(spec.topic.split()), purpose=" ".join(spec.purpose.split()),
            private=spec.private or spec.kind != "channel", archived=spec.archived,
            created_by=spec.created_by or spec.members[0], created_at=utc_iso(created))
    queue.sort(key=lambda q: q[:4])

    parents: dict[tuple, int] = {}
    for when, key, i, j, path, spec, m, parent_key in queue:
        where = f"{path}: messages.{i}" + (f".replies.{j - 1}" if j else "")
        author = _person(world, m.author, f"{where}.from")
        if spec.kind != "channel" and author not in spec.members:
            raise WorldError(f"{where}.from: {author!r} is not in this conversation's members")
        text = m.text.rstrip()
        mentions = _check_text(world, text, f"{where}.text")
        files = [_drive_item(store, f, f"{where}.files.{k}") for k, f in enumerate(m.files)]
        if not text.strip() and not files:
            raise WorldError(f"{where}.text: a message needs text or files")
        at = utc_iso(when)
        mid = store.insert("chat_messages", SYSTEM, conversation=convs[key],
                           thread=parents[parent_key] if parent_key else None, author=author, text=text,
                           mentions=mentions, at=at, edited_at=at if m.edited else None, pinned=m.pinned,
                           also_channel=bool(parent_key and m.also_send_to_channel))
        if not parent_key:
            parents[(key, i)] = mid
        else:
            store.update("chat_messages", parents[parent_key], SYSTEM,
                         reply_count=store.scalar("SELECT count(*) FROM chat_messages WHERE thread=?",
                                                  (parents[parent_key],)), last_reply_at=at)
        for emoji, who in m.reactions.items():
            if not emoji.strip():
                raise WorldError(f"{where}.reactions: empty emoji")
            for k, p in enumerate(who):
                _person(world, p, f"{where}.reactions.{emoji}.{k}")
                store.insert("chat_reactions", SYSTEM, message=mid, person=p, emoji=emoji)
        for item in files:
            store.insert("chat_files", SYSTEM, message=mid, item=item)

    user = world.spec.user
    for path, spec in specs:
        cid = convs[str(path)]
        latest = store.scalar("SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation=?", (cid,))
        for person in spec.members:
            marker = latest
            if person == user and spec.last_read is not None:
                t = _when(world, spec.last_read, f"{path}: last_read")
                marker = store.scalar("SELECT coalesce(max(id), 0) FROM chat_messages WHERE conversation=?"
                                      " AND at<=?", (cid, utc_iso(t)))
            store.insert("chat_members", SYSTEM, conversation=cid, person=person, last_read=marker)
