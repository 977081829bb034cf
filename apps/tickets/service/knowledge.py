"""The knowledge base: listing and reading articles, attaching them to records."""
from __future__ import annotations

import re

from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store
from apps.tickets.service.base import KINDS, _now, _staff, _visible
from apps.tickets.service.people import person_name


def kb_list(store: Store, user: str, q: str = "", category: str = "") -> list[dict]:
    """Published articles, best matches first for a query (title over body), else newest first."""
    rows = store.select("tk_kb", "state='Published'", order="published DESC, number")
    if category:
        rows = [r for r in rows if r["category"].lower() == category.lower()]
    terms = [t for t in re.split(r"\W+", (q or "").lower()) if t]
    if not terms:
        out = rows
    else:
        scored = []
        for r in rows:
            title, body, num = r["title"].lower(), r["body"].lower(), r["number"].lower()
            if not all(t in title or t in body or t in num or t in r["category"].lower() for t in terms):
                continue
            score = sum(3 for t in terms if t in title) + sum(1 for t in terms if t in body) + \
                (10 if q.strip().lower() == num else 0)
            scored.append((-score, r["number"], r))
        out = [r for _, _, r in sorted(scored, key=lambda x: (x[0], x[1]))]
    for r in out:
        r["author_name"] = person_name(store, r["author"])
        r["snippet"] = _snippet(r["body"])
    return out


def _snippet(md: str, width: int = 180) -> str:
    text = re.sub(r"[#*_`>\[\]()]|^\s*[-\d.]+\s", " ", md or "", flags=re.M)
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + "…"


def kb_categories(store: Store) -> list[tuple[str, int]]:
    return [(r[0], r[1]) for r in store.all("SELECT category, count(*) FROM tk_kb WHERE state='Published' "
                                              "GROUP BY category ORDER BY category")]


def kb_get(store: Store, user: str, ref: int | str) -> dict:
    if as_id(ref) is not None:
        row = store.get("tk_kb", as_id(ref))
    else:
        row = store.decode("tk_kb", store.one("SELECT * FROM tk_kb WHERE number=?", (str(ref).strip().upper(),)))
    if row is None:
        raise NotFound(f"No knowledge article {ref}.")
    row["author_name"] = person_name(store, row["author"])
    return row


def attached_kb(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    row = _visible(store, user, kind, ref)
    out = []
    for link in store.select("tk_kb_links", "record_table=? AND record=?", (kind, row["id"]), order="id"):
        art = store.get("tk_kb", link["kb"])
        if art:
            out.append({**art, "link_id": link["id"], "attached_by": link["by"],
                        "attached_by_name": person_name(store, link["by"]), "attached_at": link["at"]})
    return out


def attach_kb(store: Store, caller: Caller, kind: str, ref: int | str, kb_ref: int | str) -> int:
    """Attach a knowledge article to a record ("Attached knowledge"); a work note records it."""
    row = _visible(store, caller.user, kind, ref)
    _staff(store, caller, "attach knowledge")
    art = kb_get(store, caller.user, kb_ref)
    if store.one("SELECT 1 FROM tk_kb_links WHERE kb=? AND record_table=? AND record=?", (art["id"], kind, row["id"])):
        raise Invalid(f"{art['number']} is already attached to {row['number']}.", "kb")
    with store.transaction():
        now = _now(store)
        lid = store.insert("tk_kb_links", caller.actor, kb=art["id"], record_table=kind, record=row["id"],
                           by=caller.user, at=now)
        store.insert("tk_history", caller.actor, record_table=kind, record=row["id"], field="Knowledge", old="",
                     new=f"{art['number']} attached", by=caller.user, via=caller.actor, at=now)
        store.update(KINDS[kind][0], row["id"], caller.actor, updated_at=now)
    return lid


def detach_kb(store: Store, caller: Caller, kind: str, ref: int | str, kb_ref: int | str) -> None:
    row = _visible(store, caller.user, kind, ref)
    _staff(store, caller, "detach knowledge")
    art = kb_get(store, caller.user, kb_ref)
    link = store.one("SELECT id FROM tk_kb_links WHERE kb=? AND record_table=? AND record=?",
                     (art["id"], kind, row["id"]))
    if link is None:
        raise NotFound(f"{art['number']} is not attached to {row['number']}.")
    with store.transaction():
        now = _now(store)
        store.delete("tk_kb_links", link[0], caller.actor)
        store.insert("tk_history", caller.actor, record_table=kind, record=row["id"], field="Knowledge",
                     old=f"{art['number']} attached", new="", by=caller.user, via=caller.actor, at=now)
