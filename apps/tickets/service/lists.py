"""Record lists: columns, conditions, quick filters, counts, and bulk updates."""
from __future__ import annotations

import math
import re

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.tickets.service.base import (EDITABLE, KINDS, LABELS, STATES, _check_kind, _or, _staff, _visible, can_see,
                                       decorate)
from apps.tickets.service.editing import update
from apps.tickets.service.people import is_staff, user_groups
from apps.tickets.service.query import holds
from apps.tickets.service.query import parse_query as _parse_query

LIST_COLUMNS = {
    "incident": ("number", "opened_at", "short_description", "caller_id", "priority", "state", "category",
                 "assignment_group", "assigned_to", "sla_due"),
    "request": ("number", "opened_at", "short_description", "requested_for", "state", "assignment_group",
                "assigned_to"),
    "change": ("number", "short_description", "type", "risk", "state", "planned_start", "planned_end",
               "assignment_group", "assigned_to"),
}
OPERATORS = ("is", "is not", "contains", "does not contain", "starts with", "is empty", "is not empty",
             "greater than", "less than")
QUICK = {"mine": "Assigned to me", "open": "Open", "unassigned": "Unassigned", "p1": "P1", "breached": "SLA breached",
         "my_groups": "My groups' work", "all": "All"}


GROUPABLE = ("state", "priority", "category", "assignment_group", "assigned_to", "caller_id", "type", "risk",
             "requested_for", "impact", "urgency", "business_service", "cmdb_ci")
TIMES = ("opened_at", "sla_due", "planned_start", "planned_end", "updated_at")


def available_columns(kind: str) -> list[str]:
    """Every column a list can show (Personalize list columns)."""
    cols = list(LIST_COLUMNS[kind]) + [f for f, _ in filter_fields(kind)]
    return list(dict.fromkeys(c for c in cols if c not in ("on_hold_reason", "resolution_code")))


def list_columns(store: Store, user: str, kind: str) -> tuple[str, ...]:
    """The user's personalized columns of a list, else the default ones."""
    row = store.one("SELECT id FROM tk_list_prefs WHERE user=? AND kind=?", (user, kind))
    if row:
        cols = [c for c in store.get("tk_list_prefs", row[0])["columns"] if c in available_columns(kind)]
        if cols:
            return tuple(cols)
    return LIST_COLUMNS[kind]


def set_list_columns(store: Store, caller: Caller, kind: str, columns: list[str]) -> tuple[str, ...]:
    """Personalize a list's columns (in this order) for the user; an empty list restores the default."""
    _check_kind(kind)
    avail = available_columns(kind)
    bad = [c for c in columns if c not in avail]
    if bad:
        raise Invalid(f"“{bad[0]}” is not a column of the {KINDS[kind][2].lower()} list.", "col")
    cols = list(dict.fromkeys(columns))
    if cols and "number" not in cols:
        raise Invalid("The Number column can't be removed: it opens the record.", "col")
    with store.transaction():
        row = store.one("SELECT id FROM tk_list_prefs WHERE user=? AND kind=?", (caller.user, kind))
        if row:
            store.update("tk_list_prefs", row[0], caller.actor, columns=cols)
        else:
            store.insert("tk_list_prefs", caller.actor, user=caller.user, kind=kind, columns=cols)
    return list_columns(store, caller.user, kind)


def cell_value(r: dict, field: str) -> str:
    """A decorated record's display value of a field (what Show Matching / Filter Out match)."""
    return _cell(r, field)[1]


def filter_fields(kind: str) -> list[tuple[str, str]]:
    cols = ["number"] + [f for f in EDITABLE[kind] if f not in ("description", "resolution_notes", "justification",
                                                                  "implementation_plan", "backout_plan",
                                                                  "close_notes")]
    if kind == "incident":
        cols += ["priority", "opened_at", "sla_due"]
    else:
        cols += ["opened_at"]
    seen, out = set(), []
    for c in cols:
        if c not in seen:
            seen.add(c)
            out.append((c, LABELS.get(c, c)))
    return out


def _cell(r: dict, field: str) -> tuple[object, str]:
    """(raw, display) of a decorated record's field for filters and sorting."""
    raw = r.get(field)
    disp = {"assignment_group": r.get("group_name"), "assigned_to": r.get("assigned_name"),
            "caller_id": r.get("caller_name"), "account": r.get("account_name"),
            "requested_for": r.get("requested_for_name"), "requested_by": r.get("requested_by_name"),
            "priority": r.get("priority_label"), "business_service": r.get("service_name"),
            "cmdb_ci": r.get("ci_name")}.get(field)
    return raw, str(disp if disp is not None else ("" if raw is None else raw))


def _matches(r: dict, field: str, op: str, value: str) -> bool:
    raw, disp = _cell(r, field)
    raw_s = "" if raw is None else str(raw)
    v = (value or "").strip().lower()
    cands = {raw_s.lower(), disp.lower()}
    if field == "priority" and v:
        m = re.match(r"^p?([1-4])", v)
        if m:
            v = m.group(1)
    if op == "is":
        return v in cands
    if op == "is not":
        return v not in cands
    if op == "contains":
        return any(v in c for c in cands)
    if op == "does not contain":
        return not any(v in c for c in cands)
    if op == "starts with":
        return any(c.startswith(v) for c in cands)
    if op == "is empty":
        return not raw_s
    if op == "is not empty":
        return bool(raw_s)
    if op in ("greater than", "less than"):
        a, b = raw_s, v
        try:
            a, b = float(a), float(b)
        except ValueError:
            pass
        try:
            return a > b if op == "greater than" else a < b
        except TypeError:
            return False
    return False


def parse_condition(text: str, kind: str) -> tuple[str, str, str]:
    """"field:operator:value" (as in a list URL) → a validated condition."""
    parts = (text or "").split(":", 2)
    if len(parts) < 2:
        raise Invalid(f"“{text}” is not a condition (field:operator:value).", "f")
    field, op = parts[0].strip(), parts[1].strip()
    value = parts[2] if len(parts) > 2 else ""
    fields = dict(filter_fields(kind))
    if field not in fields:
        raise Invalid(f"“{field}” is not a field you can filter {KINDS[kind][2].lower()}s on.", "f")
    if op not in OPERATORS:
        raise Invalid(f"“{op}” is not an operator: use {_or(OPERATORS)}.", "f")
    return field, op, value


def parse_query(text: str, kind: str) -> list:
    """An encoded query (``sysparm_query``) for a list of ``kind``, each condition validated."""
    return _parse_query(text, kind, parse_condition)


def list_records(store: Store, user: str, kind: str, *, conditions: list[tuple[str, str, str]] = (),
                 quick: str = "", q: str = "", sort: str = "", desc: bool | None = None, page: int = 1,
                 per_page: int = 20, group: str = "", query: list | str = ()) -> dict:
    """A list view: ``{rows, total, page, pages, sort, desc}``; conditions are AND-ed, and with an encoded
    ``query`` (``sysparm_query`` text or parsed, see ``query.py``)."""
    table = _check_kind(kind)
    if quick and quick not in QUICK:
        raise Invalid(f"Unknown quick filter {quick!r}.", "quick")
    staff = is_staff(store, user)
    rows = []
    for row in store.select(table, order="id"):
        if not staff and not can_see(store, user, kind, row):
            continue
        rows.append(decorate(store, kind, row))
    mine_groups = set(user_groups(store, user))
    if quick == "mine":
        rows = [r for r in rows if r["assigned_to"] == user and r["open"]]
    elif quick == "open":
        rows = [r for r in rows if r["open"]]
    elif quick == "unassigned":
        rows = [r for r in rows if r["open"] and not r["assigned_to"]]
    elif quick == "p1":
        rows = [r for r in rows if r["open"] and r.get("priority") == 1]
    elif quick == "breached":
        rows = [r for r in rows if r.get("breached") and r["open"]]
    elif quick == "my_groups":
        rows = [r for r in rows if r["open"] and r.get("assignment_group") in mine_groups]
    for field, op, value in conditions:
        rows = [r for r in rows if _matches(r, field, op, value)]
    if isinstance(query, str):
        query = parse_query(query, kind)
    if query:
        rows = [r for r in rows if holds(query, lambda c, r=r: _matches(r, *c))]
    terms = [t for t in (q or "").lower().split() if t]
    if terms:
        def hay(r):
            return " ".join(str(x).lower() for x in (r["number"], r.get("title"), r.get("description", ""),
                                                     r.get("caller_name", ""), r.get("requested_for_name", ""),
                                                     r.get("account_name", ""), r.get("group_name"),
                                                     r.get("assigned_name"), r.get("item_name", "")))
        rows = [r for r in rows if all(t in hay(r) for t in terms)]
    cols = dict(filter_fields(kind))
    sort = sort if sort in cols or sort in LIST_COLUMNS[kind] else ("priority" if kind == "incident" else "number")
    if desc is None:
        desc = sort in ("number", "opened_at", "updated_at")

    def key(r):
        raw, disp = _cell(r, sort)
        if sort == "state":
            return (STATES[kind].index(r["state"]) if r["state"] in STATES[kind] else 99, "")
        if sort == "priority":
            return (r.get("priority") or 9, "")
        return (0 if raw not in (None, "") else 1, disp.lower() if isinstance(raw, str) or raw is None else raw)
    rows.sort(key=lambda r: r["number"], reverse=desc)
    rows.sort(key=key, reverse=desc)
    group_counts: dict[str, int] = {}
    if group:
        if group not in GROUPABLE or group not in cols:
            raise Invalid(f"A {KINDS[kind][2].lower()} list can't be grouped by {group!r}.", "group")
        for r in rows:
            r["_group_label"] = _cell(r, group)[1]
            group_counts[r["_group_label"]] = group_counts.get(r["_group_label"], 0) + 1

        def gkey(r):
            if group == "priority":
                return (r.get("priority") or 9, "")
            if group == "state":
                return (STATES[kind].index(r["state"]) if r["state"] in STATES[kind] else 99, "")
            return (0 if r["_group_label"] else 1, r["_group_label"].lower())
        rows.sort(key=gkey)
    total = len(rows)
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    return {"rows": rows[(page - 1) * per_page: page * per_page], "total": total, "page": page, "pages": pages,
            "sort": sort, "desc": desc, "group": group, "group_counts": group_counts, "first": (page - 1) * per_page + 1 if total else 0,
            "last": min(page * per_page, total)}


def counts(store: Store, user: str) -> dict:
    """Navigator badges."""
    inc = list_records(store, user, "incident", per_page=10_000)["rows"]
    return {"mine": sum(1 for r in inc if r["assigned_to"] == user and r["open"]),
            "open": sum(1 for r in inc if r["open"]),
            "unassigned": sum(1 for r in inc if r["open"] and not r["assigned_to"]),
            "p1": sum(1 for r in inc if r["open"] and r["priority"] == 1)}


def bulk_update(store: Store, caller: Caller, kind: str, refs: list, **fields) -> list[dict]:
    """Apply the same field values to several records, each validated on its own.

    Returns one result per record: ``{number, ok, error}``; a failure leaves that record unchanged."""
    if not refs:
        raise Invalid("Select at least one record.", "ids")
    fields = {k: v for k, v in fields.items() if v not in (None,)}
    if not fields:
        raise Invalid("Choose at least one field to update.", "fields")
    _staff(store, caller)
    results = []
    for ref in refs:
        try:
            row = _visible(store, caller.user, kind, ref)
        except NotFound as e:
            results.append({"number": str(ref), "ok": False, "error": e.message})
            continue
        try:
            out = update(store, caller, kind, row["id"], **fields)
            results.append({"number": row["number"], "ok": True, "error": "", "changed": out["changed"]})
        except (Invalid, Forbidden) as e:
            results.append({"number": row["number"], "ok": False, "error": e.message})
    return results
