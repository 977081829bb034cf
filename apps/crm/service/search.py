"""Search across CRM objects, and the lookups the forms' reference fields use."""
from __future__ import annotations

from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Store
from apps.crm.service.base import _all, _require_user, _search_text, is_internal, users
from apps.crm.service.fields import SINGULAR
from apps.crm.service.values import money


SEARCHED = ("accounts", "contacts", "opportunities", "leads")


def search_records(store: Store, user: str, q: str, limit: int = 20, scope: str = "all") -> dict[str, list[dict]]:
    """Records matching every word of ``q``, per object (names first); ``scope`` one object (the
    others come back empty) or ``all``."""
    _require_user(store, user)
    if scope not in ("", "all", None) and scope not in SEARCHED:
        raise Invalid("Choose All or one object to search.", "scope")
    words = (q or "").lower().split()
    out: dict[str, list[dict]] = {}
    for obj in SEARCHED:
        found = []
        if words and scope in ("", "all", None, obj):
            for r in _all(store, obj):
                text = _search_text(obj, r)
                if all(w in text for w in words):
                    starts = r["name"].lower().startswith(words[0])
                    found.append((0 if starts else 1, r["name"].lower(), r["id"], r))
        found.sort(key=lambda x: x[:3])
        out[obj] = [x[3] for x in found[:limit]]
    return out


def _subtitle(obj: str, r: dict) -> str:
    if obj == "accounts":
        return " · ".join(x for x in ("Account", r.get("type"), r.get("city"), r.get("owner_name")) if x)
    if obj == "contacts":
        return " · ".join(x for x in ("Contact", r.get("title"), r.get("account_name"), r.get("email")) if x)
    if obj == "leads":
        return " · ".join(x for x in ("Lead", r.get("company"), r.get("status")) if x)
    return " · ".join(x for x in ("Opportunity", r.get("account_name"), r.get("stage"), money(r.get("amount"))) if x)


def search(store: Store, user: str, q: str, limit: int = 5) -> list[dict]:
    """For the workspace-wide search: [{title, subtitle, url, kind}] across accounts, contacts,
    opportunities and leads (at most ``limit`` in all). Empty for people outside the company."""
    if not is_internal(store, user) or not (q or "").strip():
        return []
    per = search_records(store, user, q, limit)
    out = []
    for obj in ("accounts", "contacts", "opportunities", "leads"):
        for r in per[obj]:
            out.append({"title": r["name"], "subtitle": _subtitle(obj, r), "url": r["url"], "kind": SINGULAR[obj]})
    # interleave fairly: keep the order above but cap the total
    return out[:limit]


def suggest(store: Store, user: str, q: str, scope: str = "all", limit: int = 7) -> list[dict]:
    """The global search's type-ahead: CRM records only (no mail, files…), of every object or of the
    ``scope`` object, names starting with the words first. Each {obj, id, title, subtitle, url}."""
    per = search_records(store, user, q, limit, scope)
    hits = [(0 if r["name"].lower().startswith((q or "").lower().strip()) else 1, i, obj, r)
            for obj in SEARCHED for i, r in enumerate(per[obj])]
    hits.sort(key=lambda h: (h[0], h[1]))
    return [{"obj": obj, "id": r["id"], "title": r["name"], "subtitle": _subtitle(obj, r), "url": r["url"]}
            for _, _, obj, r in hits[:limit]]


def lookup(store: Store, user: str, kind: str, q: str, account=None, limit: int = 8) -> list[dict]:
    """Suggestions for a lookup field: ``kind`` accounts | contacts | opportunities | leads | users
    (contacts optionally of an ``account``), or ``records`` (any of the four objects: ids like
    ``opportunity:12``). Each {id, label, sub, obj}."""
    _require_user(store, user)
    q = (q or "").strip().lower()
    if kind == "records":
        return [{"id": f"{SINGULAR[h['obj']]}:{h['id']}", "label": h["title"], "sub": h["subtitle"], "obj": h["obj"]}
                for h in suggest(store, user, q, "all", limit)] if q else []
    if kind == "users":
        rows = [p for p in users(store) if not q or q in p["name"].lower() or q in p["email"]]
        return [{"id": p["slug"], "label": p["name"], "sub": p["title"] or p["email"]} for p in rows[:limit]]
    if kind not in ("accounts", "contacts", "opportunities", "leads"):
        raise NotFound("No such lookup.")
    rows = _all(store, kind)
    if kind == "contacts" and account not in (None, ""):
        try:
            acc = int(account)
            rows = [r for r in rows if r["account"] == acc]
        except ValueError:
            pass
    if q:
        rows = [r for r in rows if q in r["name"].lower()]
    rows.sort(key=lambda r: (not r["name"].lower().startswith(q), r["name"].lower(), r["id"]))
    return [{"id": str(r["id"]), "label": r["name"], "obj": kind,
             "sub": (r.get("city") or r.get("industry") or "") if kind == "accounts" else
             (r.get("company") or "") if kind == "leads" else (r.get("account_name") or "")} for r in rows[:limit]]
