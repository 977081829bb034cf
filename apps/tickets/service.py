"""Service desk service layer: incidents, catalog requests, changes, journal, history, knowledge.

Everything the GUI routes, co-workers, oracles and checks do goes through
here. Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and
record ``caller.actor``. A record is named by its number ("INC0010421") or
its row id; ``kind`` is ``incident``, ``request`` or ``change``.

Rules (ServiceNow's, as the world's triage KB states them):

- priority = impact × urgency: P1 High×High; P2 High×Medium or Medium×High;
  P3 Medium×Medium; P4 anything with Low. Never set by hand.
- SLA (resolution target from opened): P1 4h, P2 8h, P3 72h, P4 120h;
  breached when the world clock (or the resolve time) is past the due time.
- incident states New → In Progress → On Hold → Resolved → Closed, with the
  transitions in ``INCIDENT_TRANSITIONS`` and the fields each state needs in
  ``requirements``; Closed is final. Every refusal is an ``Invalid`` naming
  the rule, and nothing is written.
- "Assigned to" must be a member of the assignment group.
- every changed field writes a ``tk_history`` row (who, from, to, when).

Visibility: Lumen staff (people of the signed-in world user's organisation)
see and work everything. Anyone else (an external directory person) sees only
incidents they are the caller of and requests they are requested for
(anything else is a 404), may comment on them and order from the catalog.
"""
from __future__ import annotations

import math
import re
from datetime import datetime, timedelta

from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store, parse_iso, utc_iso
from apps.core.text import CONTROL, bounded, tidy

KINDS = {"incident": ("tk_incidents", "INC", "Incident"),
         "request": ("tk_requests", "REQ", "Request"),
         "change": ("tk_changes", "CHG", "Change")}
PREFIX_KIND = {"INC": "incident", "REQ": "request", "CHG": "change"}

LEVELS = ("High", "Medium", "Low")
LEVEL_LABELS = {"High": "1 - High", "Medium": "2 - Medium", "Low": "3 - Low"}
PRIORITY_LABELS = {1: "1 - Critical", 2: "2 - High", 3: "3 - Moderate", 4: "4 - Low"}
SLA_HOURS = {1: 4, 2: 8, 3: 72, 4: 120}
CATEGORIES = ("Pipelines", "Infrastructure", "Performance", "Invoices", "Billing", "SSO", "Login", "Access", "Other")
CATEGORY_GROUP = {"Pipelines": "Pipeline Ops", "Infrastructure": "Platform Infra", "Performance": "Platform Infra",
                  "Invoices": "Billing Ops", "Billing": "Billing Ops", "SSO": "Identity & Access",
                  "Login": "Identity & Access", "Access": "Identity & Access"}

INCIDENT_STATES = ("New", "In Progress", "On Hold", "Resolved", "Closed")
INCIDENT_TRANSITIONS = {
    "New": ("In Progress", "On Hold", "Resolved"),
    "In Progress": ("On Hold", "Resolved"),
    "On Hold": ("In Progress", "Resolved"),
    "Resolved": ("In Progress", "Closed"),
    "Closed": (),
}
OPEN_INCIDENT = ("New", "In Progress", "On Hold")
ON_HOLD_REASONS = ("Awaiting Caller", "Awaiting Change", "Awaiting Problem", "Awaiting Vendor")
RESOLUTION_CODES = ("Solution provided", "Workaround provided", "Known error", "Duplicate", "Resolved by caller",
                    "Resolved by change", "Resolved by request", "User error", "No resolution provided")

REQUEST_STATES = ("New", "In Progress", "On Hold", "Closed Complete", "Closed Incomplete", "Cancelled")
REQUEST_TRANSITIONS = {
    "New": ("In Progress", "On Hold", "Closed Complete", "Closed Incomplete", "Cancelled"),
    "In Progress": ("On Hold", "Closed Complete", "Closed Incomplete", "Cancelled"),
    "On Hold": ("In Progress", "Closed Complete", "Closed Incomplete", "Cancelled"),
    "Closed Complete": (), "Closed Incomplete": (), "Cancelled": (),
}
REQUEST_ALIASES = {"open": "New", "submitted": "New", "pending approval": "New", "approved": "New",
                   "work in progress": "In Progress", "fulfilled": "Closed Complete", "complete": "Closed Complete",
                   "completed": "Closed Complete", "closed": "Closed Complete", "resolved": "Closed Complete",
                   "closed skipped": "Closed Incomplete", "rejected": "Cancelled", "closed rejected": "Cancelled",
                   "closed cancelled": "Cancelled", "canceled": "Cancelled"}

CHANGE_STATES = ("New", "Assess", "Scheduled", "Implement", "Review", "Closed", "Canceled")
CHANGE_TRANSITIONS = {
    "New": ("Assess", "Canceled"),
    "Assess": ("Scheduled", "New", "Canceled"),
    "Scheduled": ("Implement", "Assess", "Canceled"),
    "Implement": ("Review", "Canceled"),
    "Review": ("Closed",),
    "Closed": (), "Canceled": (),
}
CHANGE_TYPES = ("Normal", "Standard", "Emergency")
RISKS = ("Low", "Moderate", "High")
CLOSE_CODES = ("Successful", "Successful with issues", "Unsuccessful")

FINAL_STATES = {"incident": ("Closed",), "request": ("Closed Complete", "Closed Incomplete", "Cancelled"),
                "change": ("Closed", "Canceled")}
DONE_STATES = {"incident": ("Resolved", "Closed"), "request": FINAL_STATES["request"],
               "change": FINAL_STATES["change"]}
STATES = {"incident": INCIDENT_STATES, "request": REQUEST_STATES, "change": CHANGE_STATES}
TRANSITIONS = {"incident": INCIDENT_TRANSITIONS, "request": REQUEST_TRANSITIONS, "change": CHANGE_TRANSITIONS}

LABELS = {"caller_id": "Caller", "account": "Account", "category": "Category", "subcategory": "Subcategory",
          "impact": "Impact", "urgency": "Urgency", "priority": "Priority", "state": "State",
          "assignment_group": "Assignment group", "assigned_to": "Assigned to",
          "short_description": "Short description", "description": "Description", "on_hold_reason": "On hold reason",
          "resolution_code": "Resolution code", "resolution_notes": "Resolution notes",
          "requested_for": "Requested for", "type": "Type", "risk": "Risk", "planned_start": "Planned start date",
          "planned_end": "Planned end date", "close_code": "Close code", "close_notes": "Close notes",
          "justification": "Justification", "implementation_plan": "Implementation plan",
          "backout_plan": "Backout plan", "requested_by": "Requested by", "number": "Number",
          "opened_at": "Opened", "sla_due": "SLA due", "updated_at": "Updated", "item": "Item",
          "kb": "Knowledge"}

EDITABLE = {
    "incident": ("caller_id", "account", "category", "subcategory", "impact", "urgency", "state", "assignment_group",
                 "assigned_to", "short_description", "description", "on_hold_reason", "resolution_code",
                 "resolution_notes"),
    "request": ("requested_for", "short_description", "state", "assignment_group", "assigned_to"),
    "change": ("type", "category", "short_description", "description", "justification", "implementation_plan",
               "backout_plan", "risk", "impact", "state", "requested_by", "assignment_group", "assigned_to",
               "planned_start", "planned_end", "close_code", "close_notes"),
}
MAX_LINE = 160
MAX_TEXT = 20_000
NUMBER_RE = re.compile(r"^(INC|REQ|CHG|KB)\d{4,}$", re.I)


# ---------------------------------------------------------------- rules
def priority_of(impact: str, urgency: str) -> int:
    """P1 High×High; P2 High×Medium or Medium×High; P3 Medium×Medium; P4 anything with Low."""
    if "Low" in (impact, urgency):
        return 4
    if impact == urgency == "High":
        return 1
    if impact == urgency == "Medium":
        return 3
    return 2


def sla_due(opened_at: str, priority: int) -> str:
    return utc_iso(parse_iso(opened_at) + timedelta(hours=SLA_HOURS[priority]))


def breached(store: Store, rec: dict) -> bool:
    """Past the SLA due time: at resolution for a resolved incident, else now (world clock)."""
    if not rec.get("sla_due"):
        return False
    end = rec.get("resolved_at") or (store.now_iso() if rec.get("state") not in ("Resolved", "Closed") else None)
    if end is None:
        return False
    return parse_iso(end) > parse_iso(rec["sla_due"])


def requirements(kind: str, state: str) -> tuple[tuple[str, ...], str]:
    """The fields a state needs, and the rule as the user reads it."""
    if kind == "incident":
        return {
            "In Progress": (("assignment_group", "assigned_to"),
                            "In Progress needs an Assignment group and someone in it as Assigned to."),
            "On Hold": (("on_hold_reason",), "On Hold needs an On hold reason."),
            "Resolved": (("resolution_code", "resolution_notes"),
                         "Resolved needs a Resolution code and Resolution notes."),
            "Closed": (("resolution_code", "resolution_notes"),
                       "Closed needs a Resolution code and Resolution notes."),
        }.get(state, ((), ""))
    if kind == "request":
        return {"In Progress": (("assignment_group", "assigned_to"),
                                "In Progress needs an Assignment group and someone in it as Assigned to.")
                }.get(state, ((), ""))
    return {
        "Assess": (("assignment_group",), "Assess needs an Assignment group."),
        "Scheduled": (("assignment_group", "assigned_to", "planned_start", "planned_end"),
                      "Scheduled needs an Assignment group, Assigned to and a planned start and end date."),
        "Implement": (("assignment_group", "assigned_to", "planned_start", "planned_end"),
                      "Implement needs an Assignment group, Assigned to and a planned start and end date."),
        "Review": (("assigned_to",), "Review needs Assigned to."),
        "Closed": (("close_code", "close_notes"), "Closed needs a Close code and Close notes."),
    }.get(state, ((), ""))


def transition_error(kind: str, number: str, old: str, new: str) -> str | None:
    """Why ``old`` → ``new`` is not allowed (None when it is)."""
    if old == new or new in TRANSITIONS[kind].get(old, ()):
        return None
    noun = KINDS[kind][2].lower()
    allowed = TRANSITIONS[kind].get(old, ())
    if old in FINAL_STATES[kind]:
        why = f"{old} is final: nothing leaves {old}."
    elif kind == "incident" and new == "Closed":
        why = "Only a Resolved incident can be closed: resolve it first."
    elif kind == "incident" and new == "New":
        why = "An incident can't go back to New once work has started."
    elif kind == "incident" and old == "Resolved":
        why = "A Resolved incident can only be reopened (In Progress) or closed."
    elif kind == "change" and new in CHANGE_STATES and old in CHANGE_STATES and \
            CHANGE_STATES.index(new) > CHANGE_STATES.index(old) and new != "Canceled":
        why = f"A change moves one step at a time: from {old} the next state is {allowed[0]}."
    else:
        why = f"From {old} a {noun} can move to {_or(allowed)}."
    return f"{number} can't move from {old} to {new}. {why}"


def _or(items) -> str:
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# ---------------------------------------------------------------- people, CRM, groups
def is_staff(store: Store, user: str) -> bool:
    """People of the world user's organisation work the desk; others are customers."""
    me = directory.person(store, user)
    home = directory.person(store, store.meta("default_user") or "")
    return bool(me and home and me["org"] == home["org"])


def _has_table(store: Store, name: str, column: str = "slug") -> bool:
    if name not in store.tables:
        return False
    return column in store.tables[name].by_name


def crm_contact(store: Store, slug: str) -> dict | None:
    if not slug or not _has_table(store, "crm_contacts"):
        return None
    return store.decode("crm_contacts", store.one("SELECT * FROM crm_contacts WHERE slug=?", (slug,)))


def crm_account(store: Store, slug: str) -> dict | None:
    if not slug or not _has_table(store, "crm_accounts"):
        return None
    return store.decode("crm_accounts", store.one("SELECT * FROM crm_accounts WHERE slug=?", (slug,)))


def _contact_name(c: dict) -> str:
    if c.get("name"):
        return c["name"]
    return " ".join(x for x in (c.get("first_name"), c.get("last_name")) if x) or c.get("slug", "")


def person_name(store: Store, slug: str) -> str:
    if not slug:
        return ""
    p = directory.person(store, slug)
    if p:
        return p["name"]
    c = crm_contact(store, slug)
    return _contact_name(c) if c else slug


def caller_info(store: Store, slug: str) -> dict:
    """Display facts of a caller: a directory person or a CRM contact."""
    p = directory.person(store, slug) if slug else None
    if p:
        return {"id": slug, "name": p["name"], "email": p["email"], "title": p.get("title") or "", "crm": False}
    c = crm_contact(store, slug)
    if c:
        return {"id": slug, "name": _contact_name(c), "email": c.get("email") or "", "title": c.get("title") or "",
                "crm": True, "account": _account_slug(store, c.get("account"))}
    return {"id": slug, "name": slug, "email": "", "title": "", "crm": False}


def _account_slug(store: Store, value: object) -> str:
    if isinstance(value, int) and _has_table(store, "crm_accounts"):
        row = store.one("SELECT slug FROM crm_accounts WHERE id=?", (value,))
        return row[0] if row else ""
    return str(value or "")


def account_name(store: Store, slug: str) -> str:
    if not slug:
        return ""
    a = crm_account(store, slug)
    if a:
        return a.get("name") or slug
    o = directory.org(store, slug)
    return o["name"] if o else slug


def resolve_person(store: Store, who: str, field: str) -> str:
    """A directory person slug from a slug, an email or a full name."""
    raw = (who or "").strip()
    if not raw:
        return ""
    p = directory.person(store, raw) or (directory.by_email(store, raw) if "@" in raw else None)
    if p is None:
        p = store.decode("people", store.one("SELECT * FROM people WHERE lower(name)=?", (raw.lower(),)))
    if p is None:
        raise Invalid(f"“{raw}” is not a person in the directory.", field)
    return p["slug"]


def resolve_caller(store: Store, who: str, field: str = "caller_id") -> str:
    """A caller: a directory person or a CRM contact (slug, email or name)."""
    raw = (who or "").strip()
    if not raw:
        raise Invalid("Enter a Caller.", field)
    try:
        return resolve_person(store, raw, field)
    except Invalid:
        pass
    if _has_table(store, "crm_contacts"):
        if crm_contact(store, raw):
            return raw
        for c in store.select("crm_contacts"):
            if raw.lower() in ((c.get("email") or "").lower(), _contact_name(c).lower()):
                return c["slug"]
    raise Invalid(f"“{raw}” is not a person in the directory or a CRM contact.", field)


def resolve_account(store: Store, value: str, field: str = "account") -> str:
    raw = (value or "").strip()
    if not raw:
        return ""
    if _has_table(store, "crm_accounts"):
        if crm_account(store, raw):
            return raw
        row = store.one("SELECT slug FROM crm_accounts WHERE lower(name)=?", (raw.lower(),))
        if row:
            return row[0]
        raise Invalid(f"“{raw}” is not a CRM account.", field)
    if directory.org(store, raw):
        return raw
    row = store.one("SELECT slug FROM orgs WHERE lower(name)=?", (raw.lower(),))
    return row[0] if row else raw


def groups(store: Store) -> list[dict]:
    out = []
    for grp in store.select("tk_groups", order="name"):
        grp["members"] = members(store, grp["id"])
        grp["member_names"] = {m: person_name(store, m) for m in grp["members"]}
        out.append(grp)
    return out


def members(store: Store, group_id: int | None) -> list[str]:
    if not group_id:
        return []
    rows = store.all("SELECT m.person FROM tk_group_members m JOIN people p ON p.slug=m.person "
                     "WHERE m.group_id=? ORDER BY p.name", (group_id,))
    return [r[0] for r in rows]


def group_by(store: Store, value: object, field: str = "assignment_group") -> int | None:
    """A group id from its id or name ("" / None = no group)."""
    if value in (None, ""):
        return None
    if as_id(value) is not None:
        row = store.get("tk_groups", as_id(value))
        if row:
            return row["id"]
    else:
        row = store.one("SELECT id FROM tk_groups WHERE lower(name)=?", (str(value).strip().lower(),))
        if row:
            return row[0]
    raise Invalid(f"“{value}” is not an assignment group.", field)


def group_name(store: Store, group_id: int | None) -> str:
    if not group_id:
        return ""
    row = store.get("tk_groups", group_id)
    return row["name"] if row else ""


def user_groups(store: Store, user: str) -> list[int]:
    return [r[0] for r in store.all("SELECT group_id FROM tk_group_members WHERE person=?", (user,))]


# ---------------------------------------------------------------- text and values
def _text(value: object, field: str, limit: int = MAX_TEXT, one_line: bool = False) -> str:
    if value is None:
        return ""
    return bounded(tidy(str(value), one_line=one_line), limit, field, LABELS.get(field, field))


def _choice(value: object, choices, field: str, aliases: dict | None = None) -> str:
    raw = str(value or "").strip()
    for c in choices:
        if raw.lower() == c.lower():
            return c
    if field in ("impact", "urgency"):
        m = re.match(r"^\s*([123])\b", raw)
        if m:
            return LEVELS[int(m.group(1)) - 1]
    if aliases and raw.lower() in aliases:
        return aliases[raw.lower()]
    label = LABELS.get(field, field)
    if not raw:
        raise Invalid(f"Choose a {label}.", field)
    raise Invalid(f"“{raw}” is not a valid {label}: choose {_or(choices)}.", field)


def _time(store: Store, value: object, field: str) -> str | None:
    """UTC ISO from a world-local date-time (ISO string or datetime); "" → None."""
    if value in (None, ""):
        return None
    if isinstance(value, str):
        s = value.strip()
        if s.endswith("Z"):
            try:
                return utc_iso(parse_iso(s))
            except ValueError:
                pass
        try:
            value = datetime.fromisoformat(s.replace(" ", "T"))
        except ValueError:
            raise Invalid(f"“{s}” is not a date and time (use YYYY-MM-DD HH:MM).", field) from None
    if isinstance(value, datetime):
        dt = value.replace(tzinfo=store.tz) if value.tzinfo is None else value
        return utc_iso(dt)
    raise Invalid(f"{LABELS.get(field, field)} is not a date and time.", field)


def _now(store: Store) -> str:
    return store.now_iso()


# ---------------------------------------------------------------- records
def kind_of(ref: str) -> str | None:
    m = NUMBER_RE.match(str(ref or "").strip())
    return PREFIX_KIND.get(m.group(1).upper()) if m else None


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise NotFound(f"No such record type {kind!r}.")
    return KINDS[kind][0]


def _row(store: Store, kind: str, ref: int | str) -> dict:
    table = _check_kind(kind)
    if as_id(ref) is not None:
        row = store.get(table, as_id(ref))
    else:
        row = store.decode(table, store.one(f"SELECT * FROM {table} WHERE number=?", (str(ref).strip().upper(),)))
    if row is None:
        raise NotFound(f"No {KINDS[kind][2].lower()} {ref}.")
    return row


def can_see(store: Store, user: str, kind: str, row: dict) -> bool:
    if is_staff(store, user):
        return True
    if kind == "incident":
        return row["caller_id"] == user
    if kind == "request":
        return user in (row["requested_for"], row["opened_by"])
    return False


def _visible(store: Store, user: str, kind: str, ref: int | str) -> dict:
    row = _row(store, kind, ref)
    if not can_see(store, user, kind, row):
        raise NotFound(f"No {KINDS[kind][2].lower()} {ref}.")
    return row


def _staff(store: Store, caller: Caller, what: str = "change service desk records") -> None:
    if not is_staff(store, caller.user):
        raise Forbidden(f"Only the service desk can {what}.")


def decorate(store: Store, kind: str, row: dict) -> dict:
    """A record with display values: names, labels, priority, SLA and breach."""
    r = dict(row)
    r["kind"] = kind
    r["kind_label"] = KINDS[kind][2]
    r["group_name"] = group_name(store, r.get("assignment_group"))
    r["assigned_name"] = person_name(store, r.get("assigned_to") or "")
    r["open"] = r["state"] not in DONE_STATES[kind]
    r["final"] = r["state"] in FINAL_STATES[kind]
    if kind == "incident":
        r["caller"] = caller_info(store, r["caller_id"])
        r["caller_name"] = r["caller"]["name"]
        r["account_name"] = account_name(store, r["account"])
        r["priority_label"] = PRIORITY_LABELS[r["priority"]]
        r["breached"] = breached(store, r)
        r["title"] = r["short_description"]
    elif kind == "request":
        item = store.get("tk_catalog", r["item"]) if r.get("item") else None
        r["item_name"] = item["name"] if item else ""
        r["item_fields"] = item["fields"] if item else []
        r["requested_for_name"] = person_name(store, r["requested_for"])
        r["title"] = r["short_description"] or r["item_name"]
    else:
        r["requested_by_name"] = person_name(store, r["requested_by"])
        r["title"] = r["short_description"]
    return r


def get(store: Store, user: str, kind: str, ref: int | str) -> dict:
    """One record (decorated) the user can see; NotFound otherwise."""
    return decorate(store, kind, _visible(store, user, kind, ref))


def get_incident(store: Store, user: str, ref: int | str) -> dict:
    return get(store, user, "incident", ref)


def get_request(store: Store, user: str, ref: int | str) -> dict:
    return get(store, user, "request", ref)


def get_change(store: Store, user: str, ref: int | str) -> dict:
    return get(store, user, "change", ref)


def next_number(store: Store, kind: str) -> str:
    table, prefix, _ = KINDS[kind]
    best = 0
    for (num,) in store.all(f"SELECT number FROM {table}"):
        digits = re.sub(r"\D", "", num or "")
        if digits:
            best = max(best, int(digits))
    start = {"incident": 10001, "request": 2001, "change": 301}[kind]
    return f"{prefix}{max(best + 1, start):07d}"


# ---------------------------------------------------------------- validation of a record's fields
def _display(store: Store, field: str, value: object) -> str:
    if value in (None, ""):
        return ""
    if field == "assignment_group":
        return group_name(store, value)
    if field in ("assigned_to", "caller_id", "requested_for", "requested_by"):
        return person_name(store, value)
    if field == "account":
        return account_name(store, value)
    if field == "priority":
        return PRIORITY_LABELS.get(value, str(value))
    if field in ("impact", "urgency"):
        return LEVEL_LABELS.get(value, value)
    if field in ("planned_start", "planned_end"):
        return store.local(value).strftime("%Y-%m-%d %H:%M")
    return str(value)


def _clean(store: Store, kind: str, old: dict, fields: dict) -> dict:
    """Validate ``fields`` against ``old`` (the record before, {} for new): the full new values."""
    unknown = sorted(set(fields) - set(EDITABLE[kind]))
    if unknown:
        raise Invalid(f"{unknown[0]!r} can't be set on a{'n' if kind == 'incident' else ''} {kind}.", unknown[0])
    new = dict(old)
    errors: dict[str, str] = {}

    def attempt(field, fn):
        if field in fields:
            try:
                new[field] = fn(fields[field])
            except Invalid as e:
                errors[field] = e.message

    line = lambda f: (lambda v: _text(v, f, MAX_LINE, one_line=True))   # noqa: E731
    text = lambda f: (lambda v: _text(v, f))                             # noqa: E731
    attempt("short_description", line("short_description"))
    for f in ("description", "resolution_notes", "justification", "implementation_plan", "backout_plan",
              "close_notes"):
        attempt(f, text(f))
    attempt("subcategory", line("subcategory"))
    attempt("caller_id", lambda v: resolve_caller(store, v))
    attempt("account", lambda v: resolve_account(store, v))
    attempt("category", lambda v: _choice(v or "Other", CATEGORIES, "category"))
    if kind == "incident":
        attempt("impact", lambda v: _choice(v, LEVELS, "impact"))
        attempt("urgency", lambda v: _choice(v, LEVELS, "urgency"))
    else:
        attempt("impact", lambda v: _choice(v, LEVELS, "impact"))
    attempt("state", lambda v: _choice(v, STATES[kind], "state", REQUEST_ALIASES if kind == "request" else None))
    attempt("on_hold_reason", lambda v: _choice(v, ON_HOLD_REASONS, "on_hold_reason") if v else "")
    attempt("resolution_code", lambda v: _choice(v, RESOLUTION_CODES, "resolution_code") if v else "")
    attempt("type", lambda v: _choice(v, CHANGE_TYPES, "type"))
    attempt("risk", lambda v: _choice(v, RISKS, "risk"))
    attempt("close_code", lambda v: _choice(v, CLOSE_CODES, "close_code") if v else "")
    attempt("assignment_group", lambda v: group_by(store, v))
    attempt("assigned_to", lambda v: resolve_person(store, v, "assigned_to"))
    attempt("requested_for", lambda v: resolve_person(store, v, "requested_for"))
    attempt("requested_by", lambda v: resolve_person(store, v, "requested_by"))
    attempt("planned_start", lambda v: _time(store, v, "planned_start"))
    attempt("planned_end", lambda v: _time(store, v, "planned_end"))
    if errors:
        raise Invalid(next(iter(errors.values())), next(iter(errors)), errors)

    number = old.get("number") or "The new record"
    # The group changed and the old assignee is not in it: ServiceNow clears Assigned to.
    if "assignment_group" in fields and "assigned_to" not in fields and new.get("assigned_to") \
            and new["assigned_to"] not in members(store, new.get("assignment_group")):
        new["assigned_to"] = ""
    if new.get("assigned_to"):
        if not new.get("assignment_group"):
            errors["assignment_group"] = "Choose an Assignment group before Assigned to."
        elif new["assigned_to"] not in members(store, new["assignment_group"]):
            errors["assigned_to"] = (f"{person_name(store, new['assigned_to'])} is not a member of "
                                     f"{group_name(store, new['assignment_group'])}: Assigned to must be someone "
                                     f"in the assignment group.")
    if kind == "change" and new.get("planned_start") and new.get("planned_end") \
            and new["planned_end"] <= new["planned_start"]:
        errors["planned_end"] = "The planned end date must be after the planned start date."
    if not new.get("short_description") and kind != "request":
        errors["short_description"] = "Enter a Short description."
    if errors:
        raise Invalid(next(iter(errors.values())), next(iter(errors)), errors)

    old_state, state = old.get("state"), new.get("state")
    if old and old_state != state:
        why = transition_error(kind, number, old_state, state)
        if why:
            raise Invalid(why, "state")
    needed, rule = requirements(kind, state)
    missing = [f for f in needed if not new.get(f)]
    if kind == "change" and state in ("Scheduled", "Implement") and new.get("risk") == "High":
        missing += [f for f in ("implementation_plan", "backout_plan") if not new.get(f)]
        if any(f in missing for f in ("implementation_plan", "backout_plan")):
            rule = rule + " A High risk change also needs an Implementation plan and a Backout plan."
    if missing:
        raise Invalid(f"{number}: {rule}", missing[0], {f: rule for f in missing})
    if kind == "incident":
        new["priority"] = priority_of(new["impact"], new["urgency"])
        if state != "On Hold":
            new["on_hold_reason"] = ""
    return new


def _write_changes(store: Store, caller: Caller, kind: str, old: dict, new: dict, now: str) -> list[str]:
    """Update the row and write one history row per changed field (display values)."""
    table = KINDS[kind][0]
    t = store.table(table)
    values = {k: v for k, v in new.items() if k in t.by_name and k != t.key and old.get(k) != v}
    if not set(values) - {"updated_at"}:
        return []
    changed = store.update(table, old["id"], caller.actor, **values)
    for f in changed:
        if f in ("updated_at", "sla_due", "resolved_at", "closed_at"):
            continue
        store.insert("tk_history", caller.actor, record_table=kind, record=old["id"], field=LABELS.get(f, f),
                     old=_display(store, f, old.get(f)), new=_display(store, f, new.get(f)),
                     by=caller.user, via=caller.actor, at=now)
    return changed


def _stamp(store: Store, kind: str, old: dict, new: dict, now: str) -> None:
    """Derived fields: SLA due, resolved/closed times, updated."""
    if kind == "incident":
        new["sla_due"] = sla_due(new["opened_at"], new["priority"])
        if new["state"] in ("Resolved", "Closed") and not new.get("resolved_at"):
            new["resolved_at"] = now
        if new["state"] not in ("Resolved", "Closed"):
            new["resolved_at"] = None
    if new["state"] in FINAL_STATES[kind] and not new.get("closed_at"):
        new["closed_at"] = now
    new["updated_at"] = now


def update(store: Store, caller: Caller, kind: str, ref: int | str, *, work_note: str = "", comment: str = "",
           **fields) -> dict:
    """Change fields of a record (and add a work note / comment in the same save).

    Validates everything first (Invalid names the rule; nothing is written), then
    writes the fields that differ with a history row each. Returns
    ``{"record": decorated record, "changed": [field names]}``."""
    row = _visible(store, caller.user, kind, ref)
    if fields:
        _staff(store, caller)
    work_note, comment = _text(work_note, "work_note"), _text(comment, "comment")
    if work_note:
        _staff(store, caller, "add work notes")
    with store.transaction():
        new = _clean(store, kind, row, fields) if fields else dict(row)
        if row["state"] in FINAL_STATES[kind]:
            diff = [f for f in EDITABLE[kind] if new.get(f) != row.get(f)]
            if diff:
                raise Invalid(f"{row['number']} is {row['state']}: a {row['state'].lower()} "
                              f"{KINDS[kind][2].lower()} can't be changed.", diff[0])
        now = _now(store)
        changed: list[str] = []
        if fields:
            _stamp(store, kind, row, new, now)
            changed = _write_changes(store, caller, kind, row, new, now)
        for entry_kind, text in (("work_note", work_note), ("comment", comment)):
            if text:
                _journal(store, caller, kind, row["id"], entry_kind, text, now)
                if not changed or "updated_at" not in changed:
                    store.update(KINDS[kind][0], row["id"], caller.actor, updated_at=now)
    return {"record": get(store, caller.user, kind, row["id"]), "changed": [c for c in changed if c not in ("updated_at", "sla_due", "resolved_at", "closed_at")]}


def update_incident(store: Store, caller: Caller, ref: int | str, **fields) -> dict:
    return update(store, caller, "incident", ref, **fields)


def update_request(store: Store, caller: Caller, ref: int | str, **fields) -> dict:
    return update(store, caller, "request", ref, **fields)


def update_change(store: Store, caller: Caller, ref: int | str, **fields) -> dict:
    return update(store, caller, "change", ref, **fields)


def _create(store: Store, caller: Caller, kind: str, defaults: dict, fields: dict, extra: dict) -> dict:
    now = _now(store)
    with store.transaction():
        new = _clean(store, kind, {}, {**defaults, **fields})
        new.update(extra)
        new["number"] = next_number(store, kind)
        new["opened_at"] = now
        _stamp(store, kind, {}, new, now)
        t = store.table(KINDS[kind][0])
        pk = store.insert(t.name, caller.actor, **{k: v for k, v in new.items() if k in t.by_name})
        for f in ("state", "impact", "urgency", "priority", "risk", "assignment_group", "assigned_to"):
            if f in t.by_name and new.get(f) not in (None, ""):
                store.insert("tk_history", caller.actor, record_table=kind, record=pk, field=LABELS[f], old="",
                             new=_display(store, f, new[f]), by=caller.user, via=caller.actor, at=now)
    return get(store, caller.user, kind, pk)


def create_incident(store: Store, caller: Caller, *, short_description: str, caller_id: str | None = None,
                    work_note: str = "", comment: str = "", **fields) -> dict:
    """Open an incident (state New unless given). ``caller_id`` defaults to the acting user."""
    _staff(store, caller, "open incidents for others") if caller_id not in (None, "", caller.user) else None
    defaults = {"impact": "Low", "urgency": "Low", "category": "Other", "state": "New"}
    rec = _create(store, caller, "incident", defaults,
                  {"short_description": short_description, "caller_id": caller_id or caller.user, **fields},
                  {"opened_by": caller.user})
    if work_note or comment:
        update(store, caller, "incident", rec["id"], work_note=work_note, comment=comment)
        rec = get(store, caller.user, "incident", rec["id"])
    return rec


def create_change(store: Store, caller: Caller, *, short_description: str, **fields) -> dict:
    """Open a change request (state New unless given)."""
    _staff(store, caller, "raise changes")
    defaults = {"type": "Normal", "risk": "Moderate", "impact": "Medium", "category": "Other", "state": "New",
                "requested_by": caller.user}
    return _create(store, caller, "change", defaults, {"short_description": short_description, **fields}, {})


# ---------------------------------------------------------------- journal, history, activity
def _journal(store: Store, caller: Caller, kind: str, record: int, entry_kind: str, text: str, now: str) -> int:
    return store.insert("tk_journal", caller.actor, record_table=kind, record=record, kind=entry_kind,
                        author=caller.user, at=now, text=text)


def add_journal(store: Store, caller: Caller, kind: str, ref: int | str, entry_kind: str, text: str) -> int:
    """Post a work note (``work_note``, internal) or a comment (``comment``, customer visible)."""
    if entry_kind not in ("work_note", "comment"):
        raise Invalid("A journal entry is a work_note or a comment.", "kind")
    row = _visible(store, caller.user, kind, ref)
    field = "work_note" if entry_kind == "work_note" else "comment"
    text = _text(text, field)
    if not text.strip():
        raise Invalid("Type a work note first." if entry_kind == "work_note" else "Type a comment first.", field)
    if entry_kind == "work_note":
        _staff(store, caller, "add work notes")
    with store.transaction():
        now = _now(store)
        jid = _journal(store, caller, kind, row["id"], entry_kind, text, now)
        store.update(KINDS[kind][0], row["id"], caller.actor, updated_at=now)
    return jid


def add_work_note(store: Store, caller: Caller, kind: str, ref: int | str, text: str) -> int:
    return add_journal(store, caller, kind, ref, "work_note", text)


def add_comment(store: Store, caller: Caller, kind: str, ref: int | str, text: str) -> int:
    return add_journal(store, caller, kind, ref, "comment", text)


def journal(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    """Journal entries, oldest first (customers see comments only)."""
    row = _visible(store, user, kind, ref)
    where = "record_table=? AND record=?" + ("" if is_staff(store, user) else " AND kind='comment'")
    out = []
    for j in store.select("tk_journal", where, (kind, row["id"]), order="at, id"):
        j["author_name"] = person_name(store, j["author"])
        out.append(j)
    return out


def history(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    row = _visible(store, user, kind, ref)
    out = []
    for h in store.select("tk_history", "record_table=? AND record=?", (kind, row["id"]), order="at, id"):
        h["by_name"] = person_name(store, h["by"])
        out.append(h)
    return out


def activity(store: Store, user: str, kind: str, ref: int | str) -> list[dict]:
    """The activity stream: journal entries and field changes (grouped per save), newest first.

    Each item: ``{type: work_note|comment|changes, by, by_name, at, text | changes: [{field, old, new}]}``."""
    items = []
    for j in journal(store, user, kind, ref):
        items.append({"type": j["kind"], "by": j["author"], "by_name": j["author_name"], "at": j["at"],
                      "text": j["text"], "seq": (j["at"], 1, j["id"])})
    groups_: dict[tuple, dict] = {}
    for h in history(store, user, kind, ref):
        g = groups_.get((h["at"], h["by"]))
        if g is None:
            g = groups_[(h["at"], h["by"])] = {"type": "changes", "by": h["by"], "by_name": h["by_name"],
                                               "at": h["at"], "changes": [], "seq": (h["at"], 0, h["id"])}
            items.append(g)
        g["changes"].append({"field": h["field"], "old": h["old"], "new": h["new"]})
    items.sort(key=lambda i: i["seq"], reverse=True)
    return items


# ---------------------------------------------------------------- knowledge
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


# ---------------------------------------------------------------- catalog and requests
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


# ---------------------------------------------------------------- lists
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
            "priority": r.get("priority_label")}.get(field)
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


def list_records(store: Store, user: str, kind: str, *, conditions: list[tuple[str, str, str]] = (),
                 quick: str = "", q: str = "", sort: str = "", desc: bool | None = None, page: int = 1,
                 per_page: int = 20) -> dict:
    """A list view: ``{rows, total, page, pages, sort, desc}``; conditions are AND-ed."""
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
    total = len(rows)
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    return {"rows": rows[(page - 1) * per_page: page * per_page], "total": total, "page": page, "pages": pages,
            "sort": sort, "desc": desc, "first": (page - 1) * per_page + 1 if total else 0,
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


# ---------------------------------------------------------------- search
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
