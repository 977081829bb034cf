"""Docs from world files: ``<Title>.gdoc.md`` in the Drive tree (see worlds/README.md).

Markdown becomes blocks; front-matter comments are anchored to the first
occurrence of their ``anchor`` text; front-matter suggestions (a colleague's
pending suggested edits) replace the first occurrence of ``find`` with
``replace`` — only what differs becomes the suggestion, a deletion and/or an
insertion, as typing over the text in Suggesting mode does.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, validation_message
from apps.docs import blocks as B


class ReplySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    author: str
    date: str
    text: str


class CommentSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    author: str
    date: str
    anchor: str
    text: str
    replies: list[ReplySpec] = []
    resolved: bool = False


class SuggestionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    author: str
    date: str
    find: str                  # text within one paragraph, as it stands
    replace: str               # what the suggestion would make it ("" suggests deleting it)


class FrontMatter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    comments: list[CommentSpec] = []
    suggestions: list[SuggestionSpec] = []


def _difference(find: str, replace: str) -> tuple[int, int, str]:
    """The part of ``find`` a suggestion changes (start, end within it) and what it becomes."""
    p = 0
    while p < min(len(find), len(replace)) and find[p] == replace[p]:
        p += 1
    q = 0
    while q < min(len(find), len(replace)) - p and find[-1 - q] == replace[-1 - q]:
        q += 1
    # whole words, as a person selects a figure and types over it ("$2,750" → "$2,600", not "75" → "60")
    if p < len(find) - q and p < len(replace) - q:          # a replacement, not a bare insertion or deletion
        while p > 0 and not find[p - 1].isspace():
            p -= 1
        while q > 0 and not find[len(find) - q].isspace():
            q -= 1
    return p, len(find) - q, replace[p:len(replace) - q]


def split_front_matter(text: str, path: Path) -> tuple[dict, str]:
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        raise WorldError(f"{path}: front matter starts with --- but never ends")
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as e:
        raise WorldError(f"{path}: invalid front matter: {e}") from None
    return meta, text[end + 4:].lstrip("\n")


def seed(store: Store, world: World) -> None:
    """Documents arrive through Drive's seed (``import_file``); nothing else to do."""


def import_file(store: Store, world: World, path: Path, item_id: int) -> int:
    meta, body = split_front_matter(path.read_text(encoding="utf-8"), path)
    try:
        fm = FrontMatter.model_validate(meta)
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None
    blocks = B.from_markdown(body)
    doc_id = store.insert("docs_documents", SYSTEM, item=item_id, revision=1)
    for i, c in enumerate(fm.comments):
        where = f"{path}: comments.{i}"
        for who in [c.author] + [r.author for r in c.replies]:
            if who not in world.people:
                raise WorldError(f"{where}: unknown person {who!r}")
        at = next(((b, b["text"].find(c.anchor)) for b in blocks if c.anchor in b["text"]), None)
        if at is None:
            raise WorldError(f"{where}.anchor: {c.anchor!r} is not in the document")
        cid = store.insert("docs_comments", SYSTEM, doc=doc_id, author=c.author, text=c.text.strip(), quote=c.anchor,
                           resolved=c.resolved, resolved_by=c.author if c.resolved else None,
                           created_at=utc_iso(world.local_time(c.date, f"{where}.date")))
        b, start = at
        b["marks"] = B._normalize_marks(b["marks"] + [[start, start + len(c.anchor), "comment", str(cid)]],
                                        len(b["text"]))
        for j, r in enumerate(c.replies):
            store.insert("docs_replies", SYSTEM, comment=cid, author=r.author, text=r.text.strip(),
                         created_at=utc_iso(world.local_time(r.date, f"{where}.replies.{j}.date")))
    rows = [store.insert("docs_blocks", SYSTEM, doc=doc_id, seq=i + 1, type=b["type"], level=b["level"],
                         text=b["text"], marks=b["marks"]) for i, b in enumerate(blocks)]
    for i, sg in enumerate(fm.suggestions):
        where = f"{path}: suggestions.{i}"
        if sg.author not in world.people:
            raise WorldError(f"{where}: unknown person {sg.author!r}")
        at = next(((n, b["text"].find(sg.find)) for n, b in enumerate(blocks) if sg.find and sg.find in b["text"]), None)
        if at is None:
            raise WorldError(f"{where}.find: {sg.find!r} is not in one paragraph of the document")
        start, end, text = _difference(sg.find, sg.replace)
        if start == end and not text:
            raise WorldError(f"{where}.replace: the same as find, so nothing is suggested")
        n, offset = at
        base = {"doc": doc_id, "block": rows[n], "author": sg.author, "status": "pending",
                "created_at": utc_iso(world.local_time(sg.date, f"{where}.date"))}
        if end > start:
            store.insert("docs_suggestions", SYSTEM, kind="delete", start=offset + start, end=offset + end,
                         text=sg.find[start:end], **base)
        if text:
            store.insert("docs_suggestions", SYSTEM, kind="insert", start=offset + end, end=offset + end, text=text,
                         **base)
    return doc_id
