"""Suggestions (suggesting mode) under a document's blocks: reading, drawing, keeping the records equal to
what the editor shows, and applying them.

A pending suggestion names its block row and offsets into that block's text (``docs_suggestions``);
the block's text is the accepted text. The editor's HTML carries the suggestions as ``<ins>`` /
``<del data-suggestion>`` (``apps.docs.blocks.parse``), so every save says where each one now is.
Nothing here checks permissions: ``apps.docs.service`` and ``apps.docs.review`` do.
"""
from __future__ import annotations

from enum import StrEnum

import apps.docs.blocks as B
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store


class Status(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


KINDS = ("insert", "delete")


def pending(store: Store, doc_id: int) -> list[dict]:
    return store.select("docs_suggestions", "doc=? AND status=?", (doc_id, Status.PENDING), order="id")


def block_rows(store: Store, doc_id: int) -> list[int]:
    """The document's block row ids, in order (a suggestion's ``block`` is one of them)."""
    return [r["id"] for r in store.select("docs_blocks", "doc=?", (doc_id,), order="seq")]


def by_index(store: Store, doc_id: int, rows: list[int] | None = None) -> dict[int, list[dict]]:
    """Pending suggestions grouped by their block's position (what ``blocks.to_html`` draws)."""
    rows = block_rows(store, doc_id) if rows is None else rows
    where = {rid: i for i, rid in enumerate(rows)}
    out: dict[int, list[dict]] = {}
    for s in pending(store, doc_id):
        if s["block"] in where:
            out.setdefault(where[s["block"]], []).append(s)
    return out


def editor_html(store: Store, doc_id: int, blocks: list[dict]) -> str:
    """The editor's HTML: the blocks with their pending suggestions drawn in."""
    return B.to_html(blocks, by_index(store, doc_id))


def reconcile(store: Store, caller: Caller, doc_id: int, parsed: list[dict], rows: list[int]) -> dict[str, int]:
    """Make the pending suggestion records equal what the editor shows (``parsed``, from
    ``blocks.parse``; ``rows``: the block row at each position after the blocks were written).
    A suggestion the editor names by id moves with its text; one it names by a new tag becomes a
    record by the caller; one it no longer shows is gone (its text was deleted, or the suggester took
    it back). Returns the new records' ids by tag."""
    now = {s["id"]: s for s in pending(store, doc_id)}
    tags = {s["tag"]: s for s in now.values() if s["tag"]}
    seen: set[int] = set()
    made: dict[str, int] = {}
    for p in parsed:
        sid = str(p["id"])
        nid = as_id(sid)
        rec = now.get(nid) if nid is not None else tags.get(sid)
        values = {"block": rows[p["index"]], "kind": p["kind"], "start": p["start"], "end": p["end"], "text": p["text"]}
        if rec is not None and rec["id"] not in seen and rec["kind"] == p["kind"]:
            store.update("docs_suggestions", rec["id"], caller.actor, **values)
            seen.add(rec["id"])
        elif nid is None and sid not in made:
            made[sid] = store.insert("docs_suggestions", caller.actor, doc=doc_id, author=caller.user,
                                     status=Status.PENDING, created_at=store.now_iso(), tag=sid[:80], **values)
            seen.add(made[sid])
        # else: an id that is no longer pending (decided meanwhile), or one shown twice: not a suggestion
    for sid, rec in now.items():
        if sid not in seen:
            store.delete("docs_suggestions", sid, caller.actor)
    return made


def apply(block: dict, suggestions: list[dict], accept: set[int]) -> tuple[dict, dict[int, tuple[int, int]]]:
    """The block with the suggestions whose ids are in ``accept`` applied, and where each of the
    others now is (id → (start, end)); a deletion whose text is gone is left out."""
    text = block["text"]
    n = len(text)
    gone = [False] * n
    inserts: dict[int, list[dict]] = {}
    for s in suggestions:
        if s["id"] in accept and s["kind"] == "delete":
            for p in range(max(0, s["start"]), min(n, s["end"])):
                gone[p] = True
        elif s["id"] in accept:
            inserts.setdefault(min(max(0, s["start"]), n), []).append(s)
    out = ""
    before, after = [0] * (n + 1), [0] * (n + 1)
    for p in range(n + 1):
        before[p] = len(out)
        out += "".join(s["text"] for s in sorted(inserts.get(p, []), key=lambda s: s["id"]))
        after[p] = len(out)
        if p < n and not gone[p]:
            out += text[p]
    marks = [[after[min(m[0], n)], before[min(m[1], n)], m[2], m[3]] for m in block["marks"]]
    moved: dict[int, tuple[int, int]] = {}
    for s in suggestions:
        if s["id"] in accept:
            continue
        s0, e0 = min(max(0, s["start"]), n), min(max(0, s["end"]), n)
        if s["kind"] == "insert":
            moved[s["id"]] = (after[s0], after[s0])
        elif before[e0] > after[s0]:
            moved[s["id"]] = (after[s0], before[e0])
    return B.block(block["type"], out, block["level"], marks), moved


def accepted_all(blocks: list[dict], grouped: dict[int, list[dict]]) -> list[dict]:
    """The blocks as they would be with every suggestion accepted."""
    return [apply(b, grouped.get(i, []), {s["id"] for s in grouped.get(i, [])})[0] for i, b in enumerate(blocks)]
