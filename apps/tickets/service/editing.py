"""Validation of a record's fields, updating records (state changes, history rows, stamps) and
creating incidents and changes.
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.tickets.service.base import (CATEGORIES, CHANGE_TYPES, CLOSE_CODES, EDITABLE, FINAL_STATES, KINDS, LABELS,
                                       LEVEL_LABELS, LEVELS, MAX_LINE, ON_HOLD_REASONS, PRIORITY_LABELS,
                                       REQUEST_ALIASES, RESOLUTION_CODES, RISKS, STATES, clean_choice, _journal, _now,
                                       _staff, _text, _time, _visible, get, next_number, priority_of, requirements,
                                       sla_due, transition_error)
from apps.tickets.service.cmdb import ci_name, resolve_ci
from apps.tickets.service.people import (account_name, group_by, group_name, members, person_name, resolve_account,
                                         resolve_caller, resolve_person)


def _display(store: Store, field: str, value: object) -> str:
    if value in (None, ""):
        return ""
    if field == "assignment_group":
        return group_name(store, value)
    if field in ("assigned_to", "caller_id", "requested_for", "requested_by"):
        return person_name(store, value)
    if field == "account":
        return account_name(store, value)
    if field in ("cmdb_ci", "business_service"):
        return ci_name(store, value)
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
    attempt("category", lambda v: clean_choice(v or "Other", CATEGORIES, "category"))
    if kind == "incident":
        attempt("impact", lambda v: clean_choice(v, LEVELS, "impact"))
        attempt("urgency", lambda v: clean_choice(v, LEVELS, "urgency"))
    else:
        attempt("impact", lambda v: clean_choice(v, LEVELS, "impact"))
    attempt("state", lambda v: clean_choice(v, STATES[kind], "state", REQUEST_ALIASES if kind == "request" else None))
    attempt("on_hold_reason", lambda v: clean_choice(v, ON_HOLD_REASONS, "on_hold_reason") if v else "")
    attempt("resolution_code", lambda v: clean_choice(v, RESOLUTION_CODES, "resolution_code") if v else "")
    attempt("type", lambda v: clean_choice(v, CHANGE_TYPES, "type"))
    attempt("risk", lambda v: clean_choice(v, RISKS, "risk"))
    attempt("close_code", lambda v: clean_choice(v, CLOSE_CODES, "close_code") if v else "")
    attempt("assignment_group", lambda v: group_by(store, v))
    attempt("business_service", lambda v: resolve_ci(store, v, "business_service"))
    attempt("cmdb_ci", lambda v: resolve_ci(store, v, "cmdb_ci"))
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
