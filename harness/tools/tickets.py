"""Service desk tools: find and read incidents, requests and changes, comment, work notes, update (one
or many), attach knowledge, order from the service catalog.

A record is named by its number (INC0010421, REQ…, CHG…) or row id; the
number says its kind, else ``kind`` does (default incident).
"""
from __future__ import annotations

from typing import Any, Literal

from apps.core.errors import Invalid

from apps.core.store.db import Caller, Store
from apps.tickets import service as tk
from harness.tools.registry import read, write

Kind = Literal["incident", "request", "change"]
Quick = Literal["mine", "open", "unassigned", "p1", "breached", "my_groups", "all"]


def _kind(ref: str | int, kind: Kind | None) -> str:
    return kind or tk.kind_of(str(ref)) or "incident"


def get(store: Store, user: str, ref: str | int, kind: Kind | None = None) -> dict:
    """One record with every field (state, priority, SLA, assignment, caller…) and its activity stream,
    newest first: comments, work notes and field changes."""
    k = _kind(ref, kind)
    return {"record": tk.get(store, user, k, ref), "activity": tk.activity(store, user, k, ref)}


def list_records(store: Store, user: str, kind: Kind = "incident", quick: Quick | None = None, q: str = "",
                 conditions: list[str] = (), sort: str = "", desc: bool | None = None, page: int = 1,
                 per_page: int = 20, query: str = "", group: str = "") -> dict:
    """A list of incidents, requests or changes: a quick filter, conditions, a text search, a sort and
    a page. Returns rows, total and pages."""
    conds = [tk.parse_condition(c, kind) for c in conditions]
    return tk.list_records(store, user, kind, conditions=conds, quick=quick or "", q=q, sort=sort, desc=desc,
                           page=page, per_page=per_page, query=query, group=group)


def update(store: Store, caller: Caller, ref: str | int, fields: dict[str, str] | None = None, work_note: str = "",
           comment: str = "", kind: Kind | None = None) -> dict:
    """Change fields of a record and/or add a work note or comment, in one save, with ServiceNow's rules
    (state transitions and the fields each state needs, e.g. Resolved needs a resolution code and notes;
    Assigned to must be in the assignment group; priority comes from impact × urgency). Returns the
    record and the changed fields."""
    return tk.update(store, caller, _kind(ref, kind), ref, work_note=work_note, comment=comment, **(fields or {}))


def add_comment(store: Store, caller: Caller, ref: str | int, text: str, kind: Kind | None = None) -> int:
    """Add a comment (visible to the customer) to a record. Returns the entry's id."""
    return tk.add_comment(store, caller, _kind(ref, kind), ref, text)


def add_work_note(store: Store, caller: Caller, ref: str | int, text: str, kind: Kind | None = None) -> int:
    """Add a work note (internal: staff only) to a record. Returns the entry's id."""
    return tk.add_work_note(store, caller, _kind(ref, kind), ref, text)


def create_incident(store: Store, caller: Caller, short_description: str, caller_id: str | None = None,
                    fields: dict[str, str] | None = None, work_note: str = "", comment: str = "") -> dict:
    """Open an incident (state New unless given; impact and urgency Low unless given). Returns the record."""
    return tk.create_incident(store, caller, short_description=short_description, caller_id=caller_id,
                              work_note=work_note, comment=comment, **(fields or {}))


def catalog(store: Store, user: str, q: str = "", category: str = "") -> list[dict]:
    """The service catalog: items you can order (name, category, description) with their request
    form's questions (`fields`: name, label, type, choices, required)."""
    return tk.catalog(store, user, category=category, q=q)


def submit_request(store: Store, caller: Caller, item: str | int, variables: dict[str, Any],
                   requested_for: str | None = None) -> dict:
    """Order a catalog item: fill in its form (the `fields` of tickets.catalog, by name) and submit it,
    for yourself or (staff) for someone else. Returns the new request (REQ…)."""
    return tk.submit_request(store, caller, item, variables, requested_for)


def attach_kb(store: Store, caller: Caller, ref: str | int, article: str | int, kind: Kind | None = None) -> list[dict]:
    """Attach a knowledge article to a record (“Attached knowledge”); a work note records it. Returns the
    record's attached articles."""
    k = _kind(ref, kind)
    tk.attach_kb(store, caller, k, ref, article)
    return [{"number": a["number"], "title": a["title"]} for a in tk.attached_kb(store, caller.user, k, ref)]


def bulk_update(store: Store, caller: Caller, refs: list[str | int], fields: dict[str, str],
                kind: Kind | None = None) -> list[dict]:
    """Set the same fields on several records at once, as the list's bulk update does; each record is
    checked on its own (a refused one stays unchanged). Returns one result per record: number, ok,
    error."""
    if not refs:
        raise Invalid("Give at least one record.", "refs")
    return tk.bulk_update(store, caller, _kind(refs[0], kind), list(refs), **fields)


def cmdb(store: Store, user: str, q: str = "", services: bool = False, service: str = "") -> list[dict]:
    """The CMDB: configuration items (name, class, business service, environment, support group), or with
    `services` the business services; the names a record's `cmdb_ci` and `business_service` take."""
    sid = tk.resolve_ci(store, service, "business_service") if service else None
    return [{"name": r["name"], "class": r["sys_class"], "service": r["service_name"], "environment": r["environment"],
             "support_group": tk.group_name(store, r["support_group"]), "description": r["description"]}
            for r in tk.cis(store, q, services=services, service=sid)]


REF = "The record's number (INC…, REQ…, CHG…) or id."
KIND = "incident, request or change (default: from the number, else incident)."
FIELDS = ("Field → value. Incidents: state (New, In Progress, On Hold, Resolved, Closed, Canceled) impact urgency "
          "(High, Medium, Low) category subcategory assignment_group assigned_to (person id) caller_id account "
          "business_service cmdb_ci (names from tickets.cmdb) "
          "short_description description on_hold_reason resolution_code resolution_notes. Requests: "
          "requested_for short_description state assignment_group assigned_to. Changes: type category "
          "short_description description justification implementation_plan backout_plan risk impact state "
          "requested_by assignment_group assigned_to business_service cmdb_ci planned_start planned_end close_code "
          "close_notes.")

TOOLS = [
    read(tk.search, "tickets.search",
         "Search the service desk: incidents, requests and changes by number or text, then knowledge "
         "articles. Each hit has a title (number · description), a subtitle and a kind.",
         args={"q": "A number or words.", "limit": "At most this many."}),
    read(list_records, "tickets.list",
         args={"kind": "incident, request or change.",
               "quick": "mine (assigned to the user), open, unassigned, p1, breached (SLA), my_groups, all.",
               "q": "Words to look for.",
               "conditions": "Conditions `field:operator:value`, all must hold; operators: is, is not, contains, "
                             "does not contain, starts with, is empty, is not empty, greater than, less than. "
                             "E.g. `state:is:In Progress`, `assignment_group:is:Billing Ops`.",
               "query": "An encoded query as ServiceNow writes it (sysparm_query): `^` AND, `^OR` OR with the "
                        "condition before, `^NQ` new criteria (OR-ed sets); operators = != LIKE NOT LIKE STARTSWITH "
                        "ISEMPTY ISNOTEMPTY > <. E.g. `state=New^ORstate=On Hold^NQassigned_to=hana.sato`.",
               "group": "Group the rows by this field (state, priority, category, assignment_group, …).",
               "sort": "A field to sort by (default priority for incidents, else number).",
               "desc": "Descending.", "page": "Page number.", "per_page": "Rows a page."}),
    read(get, "tickets.get", args={"ref": REF, "kind": KIND}),
    read(cmdb, "tickets.cmdb", args={"q": "Only names containing this.", "services": "Business services instead of CIs.",
                                     "service": "Only the CIs of this business service (its name)."}),
    read(tk.kb_list, "tickets.kb_search", "Published knowledge articles, best matches first (or newest first).",
         args={"q": "Words to look for.", "category": "Only this category."}),
    read(tk.kb_get, "tickets.kb_get", "A knowledge article with its full text (Markdown).",
         args={"ref": "The article's number (KB…) or id."}, types={"ref": str | int}),
    read(catalog, "tickets.catalog", args={"q": "Only items whose name or description contains this.",
                                           "category": "Only this category."}),
    write(update, "tickets.update", args={"ref": REF, "fields": FIELDS, "work_note": "An internal work note.",
                                          "comment": "A comment for the customer.", "kind": KIND}),
    write(add_comment, "tickets.comment", args={"ref": REF, "text": "The comment.", "kind": KIND}),
    write(add_work_note, "tickets.work_note", args={"ref": REF, "text": "The work note.", "kind": KIND}),
    write(create_incident, "tickets.create_incident",
          args={"short_description": "One line saying what is wrong.",
                "caller_id": "Who reported it (a person id; default the user).", "fields": FIELDS,
                "work_note": "An internal work note.", "comment": "A comment for the customer."}),
    write(bulk_update, "tickets.bulk_update",
          args={"refs": "The records' numbers (all of one kind) or ids.", "fields": FIELDS, "kind": KIND}),
    write(attach_kb, "tickets.attach_kb",
          args={"ref": REF, "article": "The knowledge article's number (KB…) or id.", "kind": KIND}),
    write(submit_request, "tickets.submit_request",
          args={"item": "The catalog item's name (e.g. `New laptop`) or id.",
                "variables": "Answers by field name, e.g. {\"model\": \"MacBook Pro 14\", \"justification\": \"…\"}.",
                "requested_for": "Who it is for (a person id; default you)."}),
]
