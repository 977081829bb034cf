"""Docs from world files: ``<Title>.gdoc.md`` in the Drive tree (see worlds/README.md).

Markdown becomes blocks; front-matter comments are anchored to the first
occurrence of their ``anchor`` text.
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


class FrontMatter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    comments: list[CommentSpec] = []


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
    for i, b in enumerate(blocks):
        store.insert("docs_blocks", SYSTEM, doc=doc_id, seq=i + 1, type=b["type"], level=b["level"],
                     text=b["text"], marks=b["marks"])
    return doc_id
