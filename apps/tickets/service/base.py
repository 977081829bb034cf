"""What the service desk's modules share: kinds, states, transitions and the other vocabularies; the
rules (priority, SLA, what each state needs, which transitions are allowed); text and value cleaning;
reading records with their visibility; writing a journal entry.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store, parse_iso, utc_iso
from apps.core.text import bounded, tidy
from apps.tickets.service.cmdb import ci_name
from apps.tickets.service.people import account_name, caller_info, group_name, is_staff, person_name

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

INCIDENT_STATES = ("New", "In Progress", "On Hold", "Resolved", "Closed", "Canceled")
INCIDENT_TRANSITIONS = {
    "New": ("In Progress", "On Hold", "Resolved", "Canceled"),
    "In Progress": ("On Hold", "Resolved", "Canceled"),
    "On Hold": ("In Progress", "Resolved", "Canceled"),
    "Resolved": ("In Progress", "Closed"),
    "Closed": (), "Canceled": (),
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

FINAL_STATES = {"incident": ("Closed", "Canceled"), "request": ("Closed Complete", "Closed Incomplete", "Cancelled"),
                "change": ("Closed", "Canceled")}
DONE_STATES = {"incident": ("Resolved", "Closed", "Canceled"), "request": FINAL_STATES["request"],
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
          "kb": "Knowledge", "business_service": "Service", "cmdb_ci": "Configuration item"}

EDITABLE = {
    "incident": ("caller_id", "account", "category", "subcategory", "business_service", "cmdb_ci", "impact",
                 "urgency", "state", "assignment_group", "assigned_to", "short_description", "description", "on_hold_reason", "resolution_code",
                 "resolution_notes"),
    "request": ("requested_for", "short_description", "state", "assignment_group", "assigned_to"),
    "change": ("type", "category", "short_description", "description", "justification", "implementation_plan",
               "backout_plan", "risk", "impact", "state", "requested_by", "assignment_group", "assigned_to",
               "business_service", "cmdb_ci", "planned_start", "planned_end", "close_code", "close_notes"),
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
    if rec.get("state") == "Canceled":
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


# ---------------------------------------------------------------- text and values
def _text(value: object, field: str, limit: int = MAX_TEXT, one_line: bool = False) -> str:
    if value is None:
        return ""
    return bounded(tidy(str(value), one_line=one_line), limit, field, LABELS.get(field, field))


def clean_choice(value: object, choices, field: str, aliases: dict | None = None) -> str:
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
    if kind != "request":
        r["service_name"] = ci_name(store, r.get("business_service"))
        r["ci_name"] = ci_name(store, r.get("cmdb_ci"))
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


# ---------------------------------------------------------------- journal entries
def _journal(store: Store, caller: Caller, kind: str, record: int, entry_kind: str, text: str, now: str) -> int:
    return store.insert("tk_journal", caller.actor, record_table=kind, record=record, kind=entry_kind,
                        author=caller.user, at=now, text=text)
