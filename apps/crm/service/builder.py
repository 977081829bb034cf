"""Saved reports (the report builder): a report type (one object), columns, filters, one grouping
and a sort, stored in ``crm_reports`` and run against the records, as Salesforce's Lightning report
builder saves them. The canned pipeline report is in ``reports``.

A definition is ``{object, columns, filters, group_by, sort}``: ``columns`` are field names of the
object (``name`` first by default), ``filters`` ``[{field, op, value}]`` as list views take them
(dates take ``THIS_QUARTER``…, owner takes ``me``), ``group_by`` one field (or "" for a tabular
report), ``sort`` a field name with ``-`` first for descending. Picklists group and sort in their
picklist order (Prospecting → … → Closed Lost), as Salesforce does.
"""
from __future__ import annotations

import csv
import io

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.crm.service.base import _check_obj, _get, _require_user
from apps.crm.service.fields import LABEL, LABEL_PLURAL, field, filter_fields
from apps.crm.service.views import clean_filters, picklist_order, select_records

MAX_NAME = 80
GROUP_TYPES = ("picklist", "user", "account", "contact", "text")
SUM_FIELD = {"opportunities": "amount", "accounts": "arr"}
DEFAULT_COLUMNS = {
    "opportunities": ["name", "account", "stage", "amount", "close_date", "owner"],
    "accounts": ["name", "type", "industry", "arr", "owner"],
    "contacts": ["name", "account", "title", "email", "owner"],
    "leads": ["name", "company", "status", "source", "owner"],
}


def report_fields(obj: str) -> list[dict]:
    """The fields a report of ``obj`` can show, filter, group and sort by: those its list views filter by."""
    return filter_fields(_check_obj(obj))


def column_label(obj: str, name: str) -> str:
    """A report column's heading (a contact's or lead's name is "Contact Name", "Lead Name")."""
    return f"{LABEL[obj]} Name" if name == "name" and obj in ("contacts", "leads") else field(obj, name)["label"]


def group_fields(obj: str) -> list[dict]:
    return [f for f in report_fields(obj) if f["type"] in GROUP_TYPES and f["name"] != "name"]


def report_types() -> list[dict]:
    return [{"object": o, "label": LABEL_PLURAL[o]} for o in DEFAULT_COLUMNS]


def clean_definition(store: Store, user: str, obj: str, columns=None, filters=None, group_by: str = "",
                     sort: str = "") -> dict:
    """A checked definition; raises ``Invalid`` naming the bad part (object, columns, filters, group_by, sort)."""
    if obj not in DEFAULT_COLUMNS:
        raise Invalid("Choose a report type: opportunities, accounts, contacts or leads.", "object")
    names = [f["name"] for f in report_fields(obj)]
    cols = []
    for c in columns if columns is not None else DEFAULT_COLUMNS[obj]:
        c = str(c or "").strip()
        if c not in names:
            raise Invalid(f"“{c}” isn't a field of {LABEL_PLURAL[obj]} that a report can show.", "columns")
        if c not in cols:
            cols.append(c)
    if not cols:
        raise Invalid("Add at least one column.", "columns")
    group_by = str(group_by or "").strip()
    if group_by and group_by not in [f["name"] for f in group_fields(obj)]:
        raise Invalid(f"Can't group {LABEL_PLURAL[obj]} by “{group_by}”.", "group_by")
    sort = str(sort or "").strip()
    if sort and sort.lstrip("-") not in names:
        raise Invalid(f"Can't sort by “{sort.lstrip('-')}”.", "sort")
    return {"object": obj, "columns": cols, "filters": clean_filters(store, user, obj, filters or []),
            "group_by": group_by, "sort": sort}


def _shown(obj: str, r: dict, name: str):
    """A field's value as a report shows it (references by name)."""
    t = (field(obj, name) or {"type": "text"})["type"]
    if t == "user":
        return r.get(name + "_name") or ""
    if t in ("account", "contact"):
        return r.get(t + "_name") or ""
    return r.get(name)


def run_definition(store: Store, user: str, definition: dict) -> dict:
    """Run a definition: {object, columns: [{name, label}], rows (decorated records), values (one dict a
    row: id + each column, references as names), groups [{key, label, count, sum, rows}], count, sum,
    sum_field}."""
    _require_user(store, user)
    d = clean_definition(store, user, definition.get("object"), definition.get("columns"),
                         definition.get("filters"), definition.get("group_by", ""), definition.get("sort", ""))
    obj, cols = d["object"], d["columns"]
    rows = select_records(store, user, obj, view="all", filters=d["filters"], sort=d["sort"] or "name")["rows"]
    sf = SUM_FIELD.get(obj)
    groups = []
    if d["group_by"]:
        gb = d["group_by"]
        by: dict = {}
        for r in rows:
            k = r.get(gb) or ""
            g = by.setdefault(k, {"key": k, "label": _shown(obj, r, gb) or "-", "count": 0, "sum": 0, "rows": []})
            g["count"] += 1
            g["sum"] += (r.get(sf) or 0) if sf else 0
            g["rows"].append(r)
        order = picklist_order(obj, gb)
        if order is not None:
            groups = sorted(by.values(), key=lambda g: (g["key"] == "", order.get(g["key"], len(order))))
        else:
            groups = sorted(by.values(), key=lambda g: (g["key"] == "", g["label"].lower()))
    return {**d, "columns": [{"name": c, "label": column_label(obj, c)} for c in cols], "rows": rows,
            "values": [{"id": r["id"], **{c: _shown(obj, r, c) for c in cols}} for r in rows], "groups": groups,
            "count": len(rows), "sum": sum((r.get(sf) or 0) for r in rows) if sf else None, "sum_field": sf}


def _clean_name(name: str) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise Invalid("Enter a report name.", "name")
    if len(name) > MAX_NAME:
        raise Invalid(f"Report names can be at most {MAX_NAME} characters.", "name")
    return name


def save_report(store: Store, caller: Caller, name: str, obj: str, columns=None, filters=None, group_by: str = "",
                sort: str = "", description: str = "", report_id=None) -> int:
    """Save a new report, or (``report_id``) change one of the caller's. Names are unique among the
    caller's reports. Returns the report's id."""
    _require_user(store, caller.user)
    name = _clean_name(name)
    description = str(description or "").strip()
    if len(description) > 255:
        raise Invalid("The description can be at most 255 characters.", "description")
    d = clean_definition(store, caller.user, obj, columns, filters, group_by, sort)
    mine = store.select("crm_reports", "owner=?", (caller.user,))
    current = get_report(store, caller.user, report_id) if report_id not in (None, "") else None
    if any(r["name"].lower() == name.lower() and (current is None or r["id"] != current["id"]) for r in mine):
        raise Invalid(f"You already have a report named “{name}”.", "name")
    fields = dict(name=name, description=description, object=d["object"], columns=d["columns"],
                  filters=d["filters"], group_by=d["group_by"], sort=d["sort"])
    if current is not None:
        store.update("crm_reports", current["id"], caller.actor, **fields, modified_at=store.now_iso())
        return current["id"]
    now = store.now_iso()
    return store.insert("crm_reports", caller.actor, **fields, owner=caller.user, created_at=now, modified_at=now)


def get_report(store: Store, user: str, report_id) -> dict:
    """One of the user's saved reports (another user's is not found)."""
    _require_user(store, user)
    return _get(store, "crm_reports", report_id, "That report doesn't exist or has been deleted.", owner=user)


def list_reports(store: Store, user: str) -> list[dict]:
    """The user's saved reports, newest change first, each with its ``type`` label."""
    _require_user(store, user)
    rows = store.select("crm_reports", "owner=?", (user,), order="modified_at DESC, id DESC")
    return [dict(r, type=LABEL_PLURAL.get(r["object"], r["object"])) for r in rows]


def run_report(store: Store, user: str, report_id) -> dict:
    r = get_report(store, user, report_id)
    return {**run_definition(store, user, r), "report": r}


def delete_report(store: Store, caller: Caller, report_id) -> dict:
    """Delete one of the caller's reports; returns it as it was."""
    r = get_report(store, caller.user, report_id)
    store.delete("crm_reports", r["id"], caller.actor)
    return r


def export_csv(result: dict) -> str:
    """A run report as CSV ("Details Only", as Salesforce's export): a header row of column labels, then
    one row per record; references by name."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([c["label"] for c in result["columns"]])
    for v in result["values"]:
        w.writerow(["" if v[c["name"]] is None else v[c["name"]] for c in result["columns"]])
    return buf.getvalue()
