"""The service catalog: items and their variables, and submitting a request."""
from __future__ import annotations

import math
from datetime import datetime

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store
from apps.core.text import CONTROL
from apps.tickets.service.base import MAX_LINE, MAX_TEXT, _now, _or, get, next_number
from apps.tickets.service.people import is_staff, resolve_person


def catalog(store: Store, user: str, category: str = "", q: str = "") -> list[dict]:
    rows = store.select("tk_catalog", "active=1", order="category, name")
    if category:
        rows = [r for r in rows if r["category"].lower() == category.lower()]
    if q.strip():
        ql = q.strip().lower()
        rows = [r for r in rows if ql in r["name"].lower() or ql in r["description"].lower()]
    return rows


def catalog_categories(store: Store) -> list[tuple[str, int]]:
    return [(r[0], r[1]) for r in store.all("SELECT category, count(*) FROM tk_catalog WHERE active=1 "
                                              "GROUP BY category ORDER BY category")]


def catalog_item(store: Store, user: str, ref: int | str) -> dict:
    if as_id(ref) is not None:
        row = store.get("tk_catalog", as_id(ref))
    else:
        row = store.decode("tk_catalog", store.one("SELECT * FROM tk_catalog WHERE lower(name)=?",
                                                   (str(ref).strip().lower(),)))
    if row is None or not row["active"]:
        raise NotFound(f"No catalog item {ref}.")
    return row


def clean_variables(item: dict, values: dict) -> dict:
    """The request form's answers, validated against the item's fields. Invalid lists every problem."""
    out: dict = {}
    errors: dict[str, str] = {}
    known = {f["name"] for f in item["fields"]}
    for name in sorted(set(values) - known):
        errors[name] = f"“{name}” is not a question on {item['name']}."
    for f in item["fields"]:
        name, label, typ = f["name"], f.get("label") or f["name"], f.get("type", "string")
        raw = values.get(name)
        if typ == "boolean":
            out[name] = str(raw).lower() in ("1", "true", "on", "yes") if raw not in (None, "") else False
            continue
        val = "" if raw is None else (raw if isinstance(raw, str) else str(raw))
        val = CONTROL.sub("", val).strip()
        if typ != "text":
            val = " ".join(val.split())
        if not val:
            if f.get("required"):
                errors[name] = f"{label} is required."
            out[name] = ""
            continue
        if len(val) > (MAX_TEXT if typ == "text" else MAX_LINE * 2):
            errors[name] = f"{label} is too long."
        elif typ == "choice":
            match = next((c for c in f.get("choices", []) if c.lower() == val.lower()), None)
            if match is None:
                errors[name] = f"“{val}” is not a choice for {label}: choose {_or(f.get('choices', []))}."
            val = match or val
        elif typ == "date":
            try:
                val = datetime.fromisoformat(val).date().isoformat()
            except ValueError:
                errors[name] = f"{label}: “{val}” is not a date (YYYY-MM-DD)."
        elif typ == "number":
            try:
                num = float(val)
                if not math.isfinite(num):
                    raise ValueError
                val = int(num) if num == int(num) else num
            except ValueError:
                errors[name] = f"{label}: “{val}” is not a number."
        out[name] = val
    if errors:
        first = next(iter(errors))
        raise Invalid(errors[first], first, errors)
    return out


def submit_request(store: Store, caller: Caller, item_ref: int | str, variables: dict,
                   requested_for: str | None = None) -> dict:
    """Order a catalog item: a REQ record (state New) with the form's variables."""
    item = catalog_item(store, caller.user, item_ref)
    try:
        rf = resolve_person(store, requested_for, "requested_for") if requested_for else caller.user
    except Invalid as e:
        raise Invalid(e.message, "requested_for", {"requested_for": e.message}) from None
    if rf != caller.user and not is_staff(store, caller.user):
        raise Forbidden("You can only request items for yourself.")
    vals = clean_variables(item, variables or {})
    gid = None
    if item.get("group_name"):
        row = store.one("SELECT id FROM tk_groups WHERE name=?", (item["group_name"],))
        gid = row[0] if row else None
    now = _now(store)
    with store.transaction():
        number = next_number(store, "request")
        pk = store.insert("tk_requests", caller.actor, number=number, item=item["id"], short_description=item["name"],
                          requested_for=rf, opened_by=caller.user, variables=vals, state="New",
                          assignment_group=gid, assigned_to="", opened_at=now, updated_at=now)
        store.insert("tk_history", caller.actor, record_table="request", record=pk, field="State", old="",
                     new="New", by=caller.user, via=caller.actor, at=now)
    return get(store, caller.user, "request", pk)
