"""CRM tools: search and read records, list views (and saving them), update fields, convert leads,
log activity and notes, and saved reports (build, save, run).

Objects are ``accounts``, ``contacts``, ``leads`` and ``opportunities``; a
record is named by its id, its slug, or (accounts, opportunities) its exact
name. Only the company's staff see the CRM.
"""
from __future__ import annotations

from typing import Any, Literal

from apps.core.errors import Invalid as crm_invalid
from apps.core.store.db import Caller, Store
from apps.crm import service as crm
from harness.tools.registry import read, write

Object = Literal["accounts", "contacts", "leads", "opportunities"]
Related = Literal["account", "contact", "lead", "opportunity"]


def get(store: Store, user: str, obj: Object, record: str | int) -> dict:
    """One record with every field, the names behind its references, and its activity timeline
    (`upcoming` open tasks and meetings, `past` calls, meetings, closed tasks and notes)."""
    rid = crm.resolve(store, obj, record, "record")
    return {**crm.get(store, user, obj, rid), "timeline": crm.timeline(store, user, obj, rid)}


def update(store: Store, caller: Caller, obj: Object, record: str | int, fields: dict[str, Any]) -> dict:
    """Change fields of a record, validated as in the edit form (picklists, dates YYYY-MM-DD, amounts,
    owner as a person id; an opportunity's stage sets its probability). Returns the changed field names
    and the record."""
    rid = crm.resolve(store, obj, record, "record")
    changed = crm.update(store, caller, obj, rid, **fields)
    return {"changed": changed, "record": crm.get(store, caller.user, obj, rid)}


def create(store: Store, caller: Caller, obj: Object, fields: dict[str, Any]) -> dict:
    """Create a record from field values (the required fields of the object's form; the owner defaults
    to the user). Returns the new record."""
    return crm.get(store, caller.user, obj, crm.create(store, caller, obj, **fields))


def set_stage(store: Store, caller: Caller, opportunity: str | int, stage: str, loss_reason: str | None = None) -> dict:
    """Move an opportunity to a stage (Prospecting, Qualification, Discovery, Proposal, Negotiation,
    Closed Won, Closed Lost). Closed Lost needs a loss reason; Closed Won an amount above 0."""
    rid = crm.resolve(store, "opportunities", opportunity, "opportunity")
    return {"changed": crm.set_stage(store, caller, rid, stage, loss_reason),
            "record": crm.get(store, caller.user, "opportunities", rid)}


def log_activity(store: Store, caller: Caller, related_type: Related, related: str | int,
                 kind: Literal["call", "task", "meeting"], subject: str, body: str = "", at: str | None = None,
                 due: str | None = None, status: Literal["Open", "Completed"] | None = None,
                 who: str | None = None) -> int:
    """Log a call or a meeting on a record, or create a task for someone. Returns the activity's id."""
    rid = crm.resolve(store, crm.PLURAL[related_type], related, "related")
    return crm.log_activity(store, caller, related_type, rid, kind, subject, body, at=at, due=due, status=status,
                            who=who)


def add_note(store: Store, caller: Caller, related_type: Related, related: str | int, title: str,
             body: str = "") -> int:
    """Add a note to a record. Returns the note's id."""
    rid = crm.resolve(store, crm.PLURAL[related_type], related, "related")
    return crm.add_note(store, caller, related_type, rid, title, body)


def convert_lead(store: Store, caller: Caller, lead: str | int, account: str | int | None = None,
                 account_name: str | None = None, contact: str | int | None = None,
                 create_opportunity: bool = True, opportunity_name: str | None = None, close_date: str | None = None,
                 stage: str = "Qualification", amount: int | float | None = None, owner: str | None = None) -> dict:
    """Convert a lead, as the Convert button does: into a new account (default: named after the
    lead's company) or an existing one, a new contact from the lead (or an existing contact of that
    account), and optionally a new opportunity. The lead becomes Converted. Returns the lead and the
    ids of the account, contact and opportunity."""
    rid = crm.resolve(store, "leads", lead, "lead")
    out = crm.convert_lead(store, caller, rid, account=account, account_name=account_name, contact=contact,
                           create_opportunity=create_opportunity, opportunity_name=opportunity_name,
                           close_date=close_date, stage=stage, amount=amount, owner=owner)
    return {**out, "lead": crm.get(store, caller.user, "leads", rid)}


def save_view(store: Store, caller: Caller, obj: Object, name: str, filters: list[dict[str, Any]] | None = None,
              sort: str = "") -> dict:
    """Save a list view of one object under a name (only you see it), with its filters and sort, as the
    list's “Save as” does. Returns the view id and the rows it shows."""
    view_id = crm.save_view(store, caller, obj, name, filters, sort)
    rows = crm.list_records(store, caller.user, obj, view=str(view_id), per_page=200)
    return {"id": view_id, "name": name, "total": rows["total"], "rows": rows["rows"]}


def report(store: Store, caller: Caller, action: Literal["save", "run", "list"] = "run", report: str | int | None = None,
           name: str | None = None, obj: Object | None = None, columns: list[str] | None = None,
           filters: list[dict[str, Any]] | None = None, group_by: str = "", sort: str = "",
           description: str = "") -> dict:
    """Saved reports, as the Reports tab's report builder makes them: ``list`` your reports; ``save`` a
    report (a new one, or ``report`` to change one of yours) of one object with columns, filters, one
    grouping and a sort; ``run`` a saved report (or, without ``report``, the definition given) and get
    its rows (references by name), groups with count and sum, and totals."""
    if action == "list":
        return {"reports": crm.list_reports(store, caller.user)}
    if action == "save":
        rid = crm.save_report(store, caller, name or "", obj or "", columns, filters, group_by, sort, description,
                              report_id=_report_id(store, caller.user, report) if report not in (None, "") else None)
        res = crm.run_report(store, caller.user, rid)
    elif action == "run":
        if report not in (None, ""):
            res = crm.run_report(store, caller.user, _report_id(store, caller.user, report))
        else:
            res = crm.run_definition(store, caller.user, {"object": obj, "columns": columns, "filters": filters,
                                                           "group_by": group_by, "sort": sort})
    else:
        raise crm_invalid("Choose an action: list, save or run.", "action")
    out = {k: res[k] for k in ("object", "columns", "filters", "group_by", "sort", "count", "sum", "sum_field")}
    out["rows"] = res["values"]
    out["groups"] = [{"key": g["key"], "label": g["label"], "count": g["count"], "sum": g["sum"]} for g in res["groups"]]
    if "report" in res:
        out["report"] = {k: res["report"][k] for k in ("id", "name", "description")}
    return out


def _report_id(store: Store, user: str, report) -> int:
    """A saved report of the user's by id or exact name."""
    for r in crm.list_reports(store, user):
        if str(r["id"]) == str(report).strip() or r["name"].lower() == str(report).strip().lower():
            return r["id"]
    raise crm_invalid(f"You have no report “{report}”.", "report")


OBJ = "accounts, contacts, leads or opportunities."
RECORD = "The record's id, slug, or (accounts, opportunities) exact name."
FIELDS = ("Field name → value, e.g. {\"stage\": \"Proposal\", \"amount\": 48000, \"close_date\": \"2026-06-30\"}. "
          "Accounts: name type industry website phone city country employees arr owner csm description. "
          "Contacts: first_name last_name account title email phone owner. Leads: first_name last_name company "
          "title email phone source status industry locations owner description. Opportunities: name account "
          "type stage amount close_date owner next_step loss_reason contact description.")

TOOLS = [
    read(crm.search_records, "crm.search",
         "Records whose name (or email, company, city, stage…) contains every word of the query, per object.",
         args={"q": "Words to look for.", "limit": "At most this many per object.",
               "scope": "all, or one object to search: " + OBJ}),
    read(crm.list_records, "crm.list",
         "A list view of one object: a built-in or saved view (all, mine, …) plus filters, a search within "
         "the list, a sort and a page. Returns rows, total and pages.",
         args={"obj": OBJ, "view": "A view id (default: the object's first view, e.g. all).",
               "filters": "More filters: [{field, op, value}], op one of equals, not_equals, contains, "
                          "starts_with, lt, gt, le, ge, in, not_in; dates take THIS_QUARTER etc., owner takes me.",
               "q": "Words to look for within the list.", "sort": "A column name, `-` first for descending.",
               "page": "Page number.", "per_page": "Rows a page (at most 200)."},
         types={"obj": Object, "filters": list[dict[str, Any]] | None}),
    read(get, "crm.get", args={"obj": OBJ, "record": RECORD}),
    read(crm.my_tasks, "crm.my_tasks", "The user's open CRM tasks, soonest due first.",
         args={"limit": "At most this many."}),
    write(update, "crm.update", args={"obj": OBJ, "record": RECORD, "fields": FIELDS}),
    write(create, "crm.create", args={"obj": OBJ, "fields": FIELDS}),
    write(set_stage, "crm.set_stage", args={"opportunity": RECORD, "stage": "The stage.",
                                            "loss_reason": "Price, Competitor, No Decision, Product Gap or Timing."}),
    write(log_activity, "crm.log_activity",
          args={"related_type": "The kind of record.", "related": RECORD, "kind": "call, task or meeting.",
                "subject": "Subject line.", "body": "Comments.",
                "at": "Call or meeting: when, local YYYY-MM-DDTHH:MM (default now).",
                "due": "Task: due date YYYY-MM-DD.", "status": "Task: Open (default) or Completed.",
                "who": "Task: assigned to (a person id; default the user)."}),
    write(convert_lead, "crm.convert_lead",
          args={"lead": "The lead's id or slug.", "account": "An existing account to convert into (id, slug or "
                "name); leave out to create one.", "account_name": "The new account's name (default: the lead's "
                "company).", "contact": "An existing contact of that account (default: a new one from the lead).",
                "create_opportunity": "Also create an opportunity.",
                "opportunity_name": "The opportunity's name (default “<Company> – New Business”).",
                "close_date": "The opportunity's close date YYYY-MM-DD (default: the end of this quarter).",
                "stage": "Its stage: Prospecting, Qualification (default) or Discovery.",
                "amount": "Its amount.", "owner": "Owner of the new records (a person id; default the lead's)."}),
    write(save_view, "crm.save_view",
          args={"obj": OBJ, "name": "The view's name (at most 40 characters).",
                "filters": "[{field, op, value}], as for crm.list, e.g. [{\"field\": \"type\", \"op\": \"equals\", "
                           "\"value\": \"Renewal\"}, {\"field\": \"close_date\", \"op\": \"ge\", \"value\": "
                           "\"2026-04-01\"}].",
                "sort": "A column name, `-` first for descending."}),
    write(report, "crm.report",
          args={"action": "list (your saved reports), save (a report: needs name and obj) or run (a saved "
                          "report, or the definition given).",
                "report": "A saved report's id or exact name (run it; with save: change it).",
                "name": "The report's name (at most 80 characters).", "obj": "The report type: " + OBJ,
                "columns": "Field names shown, in order, e.g. [\"name\", \"account\", \"stage\", \"amount\"] "
                           "(default: the object's usual columns).",
                "filters": "[{field, op, value}], as for crm.list.",
                "group_by": "One field to group rows by (a picklist, owner, account…), or \"\" for none.",
                "sort": "A field name, `-` first for descending.", "description": "The report's description."},
          types={"obj": Object | None, "filters": list[dict[str, Any]] | None, "columns": list[str] | None}),
    write(add_note, "crm.add_note", args={"related_type": "The kind of record.", "related": RECORD,
                                          "title": "The note's title.", "body": "The note."}),
]
