"""Suggesting mode's service functions: read a document's suggestions, suggest an edit, accept or reject
one or all (Tools → Review suggested edits). The routes, tools and oracles call these.

Who may do what, as in Docs: anyone who can comment may suggest; an editor accepts or rejects; the
person who suggested an edit may also reject (withdraw) it.
"""
from __future__ import annotations

import apps.docs.history as H
import apps.docs.suggest as S
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.docs import service
from apps.drive import service as drive
from apps.drive.service import RANK, Role

Status = S.Status


def suggestions(store: Store, user: str, doc_id: int, status: str | None = Status.PENDING) -> list[dict]:
    """The document's suggestions (``status`` None: every one, decided ones too), in document order for
    pending ones: id, author, kind (insert | delete), text, the block's position (``index``, 0-based),
    its text (``block_text``), ``start`` / ``end`` in it, status, who decided, when suggested."""
    doc = service.get(store, user, doc_id)
    rows = S.block_rows(store, doc_id)
    where = {rid: i for i, rid in enumerate(rows)}
    if status is not None and status not in set(Status):
        raise Invalid(f"Unknown status “{status}”: pending, accepted or rejected.", "status")
    recs = store.select("docs_suggestions", "doc=?" + (" AND status=?" if status else ""),
                        (doc_id, status) if status else (doc_id,), order="id")
    out = []
    for r in recs:
        i = where.get(r["block"])
        out.append({"id": r["id"], "author": r["author"], "kind": r["kind"], "text": r["text"], "index": i,
                    "block_text": doc["blocks"][i]["text"] if i is not None else None,
                    "start": r["start"], "end": r["end"], "status": r["status"], "resolved_by": r["resolved_by"],
                    "created_at": r["created_at"]})
    return sorted(out, key=lambda s: (s["index"] is None, s["index"] or 0, s["start"], s["id"]))


def cards(suggestions: list[dict], pair: bool = False) -> list[dict]:
    """The margin's cards: one per suggestion, or (``pair``) as Docs shows them, a deletion and an
    insertion by the same person at the same place as one "Replace" card, accepted or rejected together.
    A card: ``ids``, ``kind`` (insert | delete | replace), ``old`` / ``new`` text, ``author``,
    ``created_at``. (The editor shows one card per suggestion: published task oracles count them.)"""
    out, used = [], set()
    for s in suggestions:
        if s["id"] in used:
            continue
        def fits(d: dict, i: dict) -> bool:
            return d["kind"] == "delete" and i["kind"] == "insert" and d["author"] == i["author"] \
                and d["index"] == i["index"] and i["start"] in (d["start"], d["end"]) and d["status"] == i["status"]
        partner = next((o for o in suggestions if pair and o["id"] not in used and o["id"] != s["id"]
                        and (fits(s, o) or fits(o, s))), None)
        used.add(s["id"])
        if partner:
            used.add(partner["id"])
            d, i = (s, partner) if s["kind"] == "delete" else (partner, s)
            out.append({"ids": [d["id"], i["id"]], "kind": "replace", "old": d["text"], "new": i["text"],
                        "author": s["author"], "created_at": s["created_at"]})
        else:
            out.append({"ids": [s["id"]], "kind": s["kind"], "old": s["text"] if s["kind"] == "delete" else "",
                        "new": s["text"] if s["kind"] == "insert" else "", "author": s["author"],
                        "created_at": s["created_at"]})
    return out


def suggest(store: Store, caller: Caller, doc_id: int, index: int, start: int, end: int, text: str = "") -> list[int]:
    """Suggest replacing ``start``–``end`` of block ``index`` (0-based) with ``text``, as typing over a
    selection in Suggesting mode does: a deletion when the range is not empty, an insertion when
    ``text`` is not empty. Returns the new suggestions' ids."""
    doc = service.get(store, caller.user, doc_id)
    service._require(doc, Role.COMMENTER)
    blocks = doc["blocks"]
    if not 0 <= index < len(blocks):
        raise Invalid("There is no such paragraph in the document.", "index")
    length = len(blocks[index]["text"])
    if not (0 <= start <= end <= length):
        raise Invalid(f"The range {start}–{end} is outside the paragraph (it has {length} characters).", "start")
    text = (text or "").replace("\r", "")
    if start == end and not text:
        raise Invalid("Suggest some text to insert, or a range to delete.", "text")
    rows = S.block_rows(store, doc_id)
    out = []
    with store.transaction():
        was = S.editor_html(store, doc_id, blocks)
        base = {"doc": doc_id, "block": rows[index], "author": caller.user, "status": Status.PENDING,
                "created_at": store.now_iso()}
        if end > start:
            out.append(store.insert("docs_suggestions", caller.actor, kind="delete", start=start, end=end,
                                    text=blocks[index]["text"][start:end], **base))
        if text:
            out.append(store.insert("docs_suggestions", caller.actor, kind="insert", start=end, end=end, text=text,
                                    **base))
        drive.touch(store, caller, doc["item"]["id"])
        H.record(store, caller, doc, was)
    return out


def _suggestion(store: Store, suggestion_id: int) -> dict:
    s = store.get("docs_suggestions", suggestion_id)
    if s is None:
        raise NotFound("That suggestion doesn't exist.")
    return s


def accept(store: Store, caller: Caller, suggestion_id: int) -> None:
    """Accept one suggestion: its insertion or deletion becomes the document's text."""
    s = _suggestion(store, suggestion_id)
    decide(store, caller, s["doc"], [suggestion_id], True)


def reject(store: Store, caller: Caller, suggestion_id: int) -> None:
    """Reject one suggestion: the document's text stays as it was."""
    s = _suggestion(store, suggestion_id)
    decide(store, caller, s["doc"], [suggestion_id], False)


def accept_all(store: Store, caller: Caller, doc_id: int) -> int:
    """Accept every pending suggestion. Returns how many."""
    return decide(store, caller, doc_id, [s["id"] for s in S.pending(store, doc_id)], True)


def reject_all(store: Store, caller: Caller, doc_id: int) -> int:
    """Reject every pending suggestion. Returns how many."""
    return decide(store, caller, doc_id, [s["id"] for s in S.pending(store, doc_id)], False)


def decide(store: Store, caller: Caller, doc_id: int, ids: list[int], accepted: bool) -> int:
    doc = service.get(store, caller.user, doc_id)
    service._require(doc, Role.COMMENTER)
    pend = {s["id"]: s for s in S.pending(store, doc_id)}
    for sid in ids:
        s = pend.get(sid)
        if s is None:
            raise Invalid("That suggestion was already accepted or rejected.", "suggestion")
        if RANK[doc["role"]] < RANK[Role.EDITOR] and not (not accepted and s["author"] == caller.user):
            raise Forbidden("Only editors can accept or reject suggestions.")
    if not ids:
        return 0
    chosen = set(ids)
    blocks = doc["blocks"]
    rows = S.block_rows(store, doc_id)
    grouped = S.by_index(store, doc_id, rows)
    new, placed = list(blocks), {}
    for i, group in grouped.items():
        if accepted and chosen & {s["id"] for s in group}:
            new[i], moved = S.apply(blocks[i], group, chosen)
            placed.update({sid: (i, se) for sid, se in moved.items()})
    with store.transaction():
        was = S.editor_html(store, doc_id, blocks)
        changed = accepted and service.write_blocks(store, caller.actor, doc_id, new)
        after = S.block_rows(store, doc_id)
        for sid in ids:
            store.update("docs_suggestions", sid, caller.actor, status=Status.ACCEPTED if accepted else Status.REJECTED,
                         resolved_by=caller.user)
        for i, group in grouped.items():
            for s in group:
                if s["id"] in chosen or not accepted or not chosen & {g["id"] for g in group}:
                    continue
                if s["id"] in placed:
                    start, end = placed[s["id"]][1]
                    store.update("docs_suggestions", s["id"], caller.actor, block=after[i], start=start, end=end)
                else:                              # a deletion whose text an accepted deletion took
                    store.delete("docs_suggestions", s["id"], caller.actor)
        if changed:
            service.DOCS.bump(store, caller, doc)
        else:
            drive.touch(store, caller, doc["item"]["id"])
        H.record(store, caller, doc, was)
    return len(ids)
