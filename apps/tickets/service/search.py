"""Search across incidents, requests, changes and knowledge articles."""
from __future__ import annotations

from apps.core.store.db import Store
from apps.tickets.service.base import kind_of
from apps.tickets.service.knowledge import kb_list
from apps.tickets.service.lists import list_records


def search(store: Store, user: str, q: str, limit: int = 5) -> list[dict]:
    """Workspace search: records by number or text, then knowledge articles.

    Each hit: ``{title, subtitle, url, kind}`` (kind ``incident``, ``request``, ``change`` or ``kb``)."""
    q = (q or "").strip()
    if not q:
        return []
    out: list[dict] = []
    exact = kind_of(q)
    for kind in ("incident", "request", "change"):
        if exact and exact != kind:
            continue
        res = list_records(store, user, kind, q=q, sort="number", desc=True, per_page=limit)["rows"]
        for r in res:
            bits = [r["state"]]
            if kind == "incident":
                bits = [r["priority_label"], r["state"], r["caller_name"]]
            elif kind == "request":
                bits = [r["state"], r["requested_for_name"]]
            else:
                bits = [r["state"], f"Risk {r['risk']}"]
            out.append({"title": f"{r['number']} · {r['title']}", "subtitle": " · ".join(b for b in bits if b),
                        "url": f"/tickets/{kind}/{r['number']}", "kind": kind})
    if not exact or q.upper().startswith("KB"):
        for a in kb_list(store, user, q)[:limit]:
            out.append({"title": f"{a['number']} · {a['title']}", "subtitle": f"Knowledge · {a['category']}",
                        "url": f"/tickets/kb/{a['number']}", "kind": "kb"})
    return out[:limit]
