"""List views: the built-in and saved views, filters (cleaning, describing, matching), sorting, paging."""
from __future__ import annotations

from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.crm.schema import LEAD_STATUSES
from apps.crm.service.base import _all, _check_obj, _get, _people_names, _require_user, _search_text, person_id
from apps.crm.service.fields import DATE_RANGES, OPS, field, filter_fields, ops_for
from apps.crm.service.values import date_range, parse_date

BUILTIN_VIEWS = {
    "accounts": [
        {"id": "all", "name": "All Accounts", "filters": [], "sort": "name"},
        {"id": "mine", "name": "My Accounts", "filters": [{"field": "owner", "op": "equals", "value": "me"}],
         "sort": "name"},
        {"id": "customers", "name": "Customers", "filters": [{"field": "type", "op": "equals", "value": "Customer"}],
         "sort": "-arr"},
    ],
    "contacts": [
        {"id": "all", "name": "All Contacts", "filters": [], "sort": "name"},
        {"id": "mine", "name": "My Contacts", "filters": [{"field": "owner", "op": "equals", "value": "me"}],
         "sort": "name"},
    ],
    "leads": [
        {"id": "open", "name": "All Open Leads",
         "filters": [{"field": "status", "op": "not_in", "value": "Converted,Unqualified"}], "sort": "-created_at"},
        {"id": "mine", "name": "My Open Leads",
         "filters": [{"field": "owner", "op": "equals", "value": "me"},
                     {"field": "status", "op": "not_in", "value": "Converted,Unqualified"}], "sort": "-created_at"},
        {"id": "all", "name": "All Leads", "filters": [], "sort": "-created_at"},
    ],
    "opportunities": [
        {"id": "all", "name": "All Opportunities", "filters": [], "sort": "close_date"},
        {"id": "open", "name": "All Open Opportunities",
         "filters": [{"field": "stage", "op": "not_in", "value": "Closed Won,Closed Lost"}], "sort": "close_date"},
        {"id": "mine", "name": "My Open Opportunities",
         "filters": [{"field": "owner", "op": "equals", "value": "me"},
                     {"field": "stage", "op": "not_in", "value": "Closed Won,Closed Lost"}], "sort": "close_date"},
        {"id": "quarter", "name": "Closing This Quarter",
         "filters": [{"field": "close_date", "op": "equals", "value": "THIS_QUARTER"}], "sort": "close_date"},
        {"id": "won", "name": "Closed Won", "filters": [{"field": "stage", "op": "equals", "value": "Closed Won"}],
         "sort": "-close_date"},
    ],
}


def list_views(store: Store, user: str, obj: str) -> list[dict]:
    """The views in the list-view picker: the standard ones, then the user's saved ones (``id`` = row id)."""
    _require_user(store, user)
    _check_obj(obj)
    saved = [{"id": str(v["id"]), "name": v["name"], "filters": v["filters"], "sort": v["sort"], "saved": True}
             for v in store.select("crm_views", "object=? AND owner=?", (obj, user), order="name, id")]
    return [dict(v, saved=False) for v in BUILTIN_VIEWS[obj]] + saved


def get_view(store: Store, user: str, obj: str, view_id: str | None) -> dict:
    views = list_views(store, user, obj)
    if not view_id:
        return views[0]
    v = next((x for x in views if x["id"] == str(view_id)), None)
    if v is None:
        raise NotFound("That list view doesn't exist.")
    return v


def clean_filters(store: Store, user: str, obj: str, filters) -> list[dict]:
    """Validate ``[{field, op, value}]``; raises ``Invalid`` naming the bad filter."""
    out = []
    for i, flt in enumerate(filters or []):
        fname, op, value = flt.get("field"), flt.get("op") or "equals", str(flt.get("value") or "").strip()
        f = field(obj, fname) if fname else None
        if f is None or (fname not in [x["name"] for x in filter_fields(obj)]):
            raise Invalid(f"Filter {i + 1}: choose a field to filter by.", "filters")
        if op not in ops_for(f["type"]):
            raise Invalid(f"Filter {i + 1}: “{OPS.get(op, op)}” doesn't work with {f['label']}.", "filters")
        if f["type"] in ("date", "datetime"):
            if value.upper().replace(" ", "_") in DATE_RANGES:
                value = value.upper().replace(" ", "_")
            else:
                value = parse_date(value, "filters")
        elif f["type"] in ("int", "currency", "percent"):
            try:
                float(value.replace(",", "").replace("$", ""))
            except ValueError:
                raise Invalid(f"Filter {i + 1}: {f['label']} needs a number.", "filters") from None
        elif f["type"] == "user":
            if value.lower() != "me":
                value = person_id(store, value, "filters", user)
            else:
                value = "me"
        elif f["type"] == "picklist":
            vals = [v.strip() for v in value.split(",") if v.strip()] if op in ("in", "not_in") else [value]
            bad = [v for v in vals if v not in f["choices"] and not (fname == "status" and v == "Converted")]
            if bad or not vals:
                raise Invalid(f"Filter {i + 1}: “{', '.join(bad) or value}” isn't a {f['label']} value.", "filters")
        elif not value:
            raise Invalid(f"Filter {i + 1}: enter a value for {f['label']}.", "filters")
        out.append({"field": fname, "op": op, "value": value})
    return out


def describe_filter(store: Store, obj: str, flt: dict) -> str:
    f = field(obj, flt["field"]) or {"label": flt["field"], "type": "text"}
    v = flt["value"]
    if v in DATE_RANGES:
        v = DATE_RANGES[v]
    elif f["type"] == "user":
        v = "me" if v == "me" else (directory.person(store, v) or {"name": v})["name"]
    elif flt["op"] in ("in", "not_in"):
        v = ", ".join(x.strip() for x in v.split(","))
    return f"{f['label']} {OPS.get(flt['op'], flt['op'])} {v}"


def _cmp_value(obj: str, r: dict, fname: str):
    f = field(obj, fname) or {"type": "text"}
    if fname == "name":
        return (r["name"] or "").lower()
    if f["type"] == "account":
        return (r.get("account_name") or "").lower()
    if f["type"] == "contact":
        return (r.get("contact_name") or "").lower()
    if f["type"] == "user":
        return r.get(fname)
    if f["type"] in ("int", "currency", "percent"):
        return r.get(fname)
    if f["type"] == "datetime":
        return r.get(fname)
    v = r.get(fname)
    return v.lower() if isinstance(v, str) else v


def picklist_order(obj: str, fname: str) -> dict | None:
    """A picklist's values → their position (Salesforce sorts picklists in the order they are defined,
    e.g. Stage Prospecting → … → Closed Won → Closed Lost), or None for other fields."""
    f = field(obj, fname)
    if not f or f["type"] != "picklist":
        return None
    values = LEAD_STATUSES if (obj, fname) == ("leads", "status") else f["choices"]
    return {v: i for i, v in enumerate(values)}


def matches_filter(store: Store, user: str, obj: str, r: dict, flt: dict) -> bool:
    f = field(obj, flt["field"])
    op, value = flt["op"], flt["value"]
    v = _cmp_value(obj, r, flt["field"])
    t = f["type"]
    if t == "user":
        want = user if value == "me" else value
        return (v == want) == (op == "equals")
    if t in ("date", "datetime"):
        if not v:
            return False
        d = v[:10] if t == "date" else store.local(v).date().isoformat()
        rng = date_range(store, value)
        lo, hi = (rng[0].isoformat(), rng[1].isoformat()) if rng else (value, value)
        return {"equals": lo <= d <= hi, "lt": d < lo, "le": d <= hi, "gt": d > hi, "ge": d >= lo}[op]
    if t in ("int", "currency", "percent"):
        num = float(value.replace(",", "").replace("$", ""))
        if v is None:
            return op == "not_equals"
        return {"equals": v == num, "not_equals": v != num, "lt": v < num, "gt": v > num, "le": v <= num,
                "ge": v >= num}[op]
    sv = (v or "").lower() if isinstance(v, str) or v is None else str(v).lower()
    val = value.lower()
    if op == "equals":
        return sv == val
    if op == "not_equals":
        return sv != val
    if op == "contains":
        return val in sv
    if op == "starts_with":
        return sv.startswith(val)
    vals = [x.strip().lower() for x in value.split(",")]
    return (sv in vals) == (op == "in")


def select_records(store: Store, user: str, obj: str, *, view: str | None = None, filters=None, q: str = "",
                   sort: str | None = None) -> dict:
    """Every record of a list view, unpaged: the view's filters plus ``filters`` (each {field, op,
    value}; dates take ``THIS_QUARTER`` etc.; owner takes ``me``), a search ``q`` within the list,
    ``sort`` (a column name, ``-`` prefix for descending; default the view's; picklists in their
    picklist order). Returns {rows, view, filters, all_filters, sort}. Saved reports run through it too."""
    _require_user(store, user)
    _check_obj(obj)
    v = get_view(store, user, obj, view)
    extra = clean_filters(store, user, obj, filters or [])
    allf = list(v["filters"]) + extra
    rows = _all(store, obj)
    rows = [r for r in rows if all(matches_filter(store, user, obj, r, f) for f in allf)]
    q = " ".join((q or "").lower().split())
    if q:
        rows = [r for r in rows if all(w in _search_text(obj, r) for w in q.split())]
    sort = sort or v["sort"] or "name"
    desc = sort.startswith("-")
    key_name = sort.lstrip("-")
    if field(obj, key_name) is None:
        raise Invalid(f"Can't sort by “{key_name}”.", "sort")
    names = _people_names(store)
    order = picklist_order(obj, key_name)

    def sk(r):
        val = _cmp_value(obj, r, key_name)
        if (field(obj, key_name) or {}).get("type") == "user":
            val = names.get(val, val or "").lower()
        elif order is not None and val not in (None, ""):
            val = order.get(r.get(key_name), len(order))
        return (val is None or val == "", val if val is not None else "")
    rows.sort(key=lambda r: r["id"])
    rows.sort(key=lambda r: r["name"].lower())
    if desc:
        nonnull = [r for r in rows if not sk(r)[0]]
        nulls = [r for r in rows if sk(r)[0]]
        nonnull.sort(key=lambda r: sk(r)[1], reverse=True)
        rows = nonnull + nulls
    else:
        rows.sort(key=sk)
    return {"rows": rows, "view": v, "filters": extra, "all_filters": allf, "sort": sort}


def list_records(store: Store, user: str, obj: str, *, view: str | None = None, filters=None, q: str = "",
                 sort: str | None = None, page: int = 1, per_page: int = 50) -> dict:
    """A list view, a page at a time (``select_records`` for what it lists). Returns {rows, total,
    page, pages, view, filters, all_filters, sort, first, last}."""
    sel = select_records(store, user, obj, view=view, filters=filters, q=q, sort=sort)
    rows = sel["rows"]
    total = len(rows)
    per_page = max(1, min(int(per_page or 50), 200))
    pages = max(1, (total + per_page - 1) // per_page)
    page = max(1, min(int(page or 1), pages))
    chunk = rows[(page - 1) * per_page: page * per_page]
    return {**sel, "rows": chunk, "total": total, "page": page, "pages": pages,
            "first": (page - 1) * per_page + 1 if total else 0, "last": (page - 1) * per_page + len(chunk)}


def save_view(store: Store, caller: Caller, obj: str, name: str, filters=None, sort: str = "") -> int:
    """Save a list view (name unique among the caller's views of that object)."""
    _require_user(store, caller.user)
    _check_obj(obj)
    name = " ".join((name or "").split())
    if not name:
        raise Invalid("Enter a name for the list view.", "name")
    if len(name) > 40:
        raise Invalid("List view names can be at most 40 characters.", "name")
    taken = [v["name"].lower() for v in list_views(store, caller.user, obj)]
    if name.lower() in taken:
        raise Invalid(f"You already have a list view named “{name}”.", "name")
    clean = clean_filters(store, caller.user, obj, filters or [])
    sort = (sort or "").strip()
    if sort and field(obj, sort.lstrip("-")) is None:
        raise Invalid(f"Can't sort by “{sort}”.", "sort")
    return store.insert("crm_views", caller.actor, object=obj, name=name, owner=caller.user, filters=clean,
                        sort=sort, created_at=store.now_iso())


def delete_view(store: Store, caller: Caller, view_id) -> None:
    _require_user(store, caller.user)
    v = _get(store, "crm_views", view_id, "That list view doesn't exist.", owner=caller.user)
    store.delete("crm_views", v["id"], caller.actor)
