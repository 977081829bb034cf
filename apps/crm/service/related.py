"""Related lists (an account's contacts and opportunities, stage history), activities (calls,
meetings, tasks), notes, and the timeline that shows them.
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.crm.schema import ACTIVITY_KINDS, TASK_STATUSES
from apps.crm.service.base import _decorate, _get, _people_names, _require_user, _text, get, person_id, record_title, url
from apps.crm.service.fields import MAX_LONG, PLURAL, RELATED_TYPES, SINGULAR, TABLE
from apps.crm.service.values import parse_date, parse_local_dt, today


# ---------------------------------------------------------------- related lists
def _related_key(store: Store, user: str, related_type: str, related_id) -> tuple[str, dict]:
    if related_type not in RELATED_TYPES:
        raise Invalid("Choose what the activity is about.", "related_type")
    obj = PLURAL[related_type]
    return obj, get(store, user, obj, related_id)


def _account_of(store: Store, obj: str, r: dict) -> int | None:
    if obj == "accounts":
        return r["id"]
    if obj in ("contacts", "opportunities"):
        return r["account"]
    return r.get("converted_account")


def contacts_of(store: Store, user: str, account_id) -> list[dict]:
    acc = get(store, user, "accounts", account_id)
    return [_decorate(store, "contacts", r) for r in store.select("crm_contacts", "account=?", (acc["id"],),
                                                                  order="last_name, first_name, id")]


def opportunities_of(store: Store, user: str, account_id) -> list[dict]:
    acc = get(store, user, "accounts", account_id)
    return [_decorate(store, "opportunities", r) for r in store.select("crm_opportunities", "account=?", (acc["id"],),
                                                                       order="close_date DESC, id")]


def opportunities_of_contact(store: Store, user: str, contact_id) -> list[dict]:
    """The opportunities that name this contact as their primary contact."""
    c = get(store, user, "contacts", contact_id)
    return [_decorate(store, "opportunities", r) for r in store.select("crm_opportunities", "contact=?", (c["id"],),
                                                                       order="close_date DESC, id")]


def stage_history(store: Store, user: str, opp_id) -> list[dict]:
    """Stage changes, newest first: from_stage, to_stage, amount, close_date, by (+by_name), at."""
    opp = get(store, user, "opportunities", opp_id)
    names = _people_names(store)
    out = []
    for h in store.select("crm_stage_history", "opportunity=?", (opp["id"],), order="at DESC, id DESC"):
        out.append({**h, "by_name": names.get(h["by"], h["by"])})
    return out


# ---------------------------------------------------------------- activities and notes
def log_activity(store: Store, caller: Caller, related_type: str, related_id, kind: str, subject: str,
                 body: str = "", *, at=None, due=None, status: str | None = None, who=None) -> int:
    """Log a call or a meeting (``at``: world-local date-time, default now) or create a task
    (``due`` date, ``status`` Open/Completed, ``who`` = assigned to, default the caller) on a record."""
    _require_user(store, caller.user)
    obj, rec = _related_key(store, caller.user, related_type, related_id)
    if obj == "leads" and rec["status"] == "Converted":
        raise Invalid("This lead has been converted; log activity on its contact instead.", None)
    if kind not in ACTIVITY_KINDS:
        raise Invalid("Choose Log a Call, New Task or New Event.", "kind")
    errors = {}
    try:
        subject = _text(subject, "subject", "Subject", True)
    except Invalid as e:
        errors["subject"] = e.message
    try:
        body = _text(body, "body", "Comments", False, MAX_LONG)
    except Invalid as e:
        errors["body"] = e.message
    values = {}
    try:
        values["who"] = person_id(store, who or caller.user, "who", caller.user)
    except Invalid as e:
        errors["who"] = e.message
    if kind == "task":
        try:
            values["due"] = parse_date(due, "due", required=False)
        except Invalid as e:
            errors["due"] = e.message
        st = status or "Open"
        if st not in TASK_STATUSES:
            errors["status"] = "A task's status is Open or Completed."
        values["status"] = st
        values["at"] = store.now_iso()
    else:
        try:
            values["at"] = parse_local_dt(store, at, "at") if at not in (None, "") else store.now_iso()
        except Invalid as e:
            errors["at"] = e.message
        values["status"] = "Completed"
        values["due"] = None
    if errors:
        first = next(iter(errors))
        raise Invalid(errors[first], first, errors)
    return store.insert("crm_activities", caller.actor, kind=kind, subject=subject, body=body,
                        related_type=related_type, related_id=rec["id"], created_by=caller.user,
                        account=_account_of(store, obj, rec), **values)


def _activity(store: Store, user: str, aid) -> dict:
    _require_user(store, user)
    return _get(store, "crm_activities", aid, "That activity doesn't exist or was deleted.")


def set_task_status(store: Store, caller: Caller, activity_id, status: str) -> None:
    a = _activity(store, caller.user, activity_id)
    if a["kind"] != "task":
        raise Invalid("Only tasks have a status.", "status")
    if status not in TASK_STATUSES:
        raise Invalid("A task's status is Open or Completed.", "status")
    store.update("crm_activities", a["id"], caller.actor, status=status)


def delete_activity(store: Store, caller: Caller, activity_id) -> None:
    a = _activity(store, caller.user, activity_id)
    store.delete("crm_activities", a["id"], caller.actor)


def add_note(store: Store, caller: Caller, related_type: str, related_id, title: str, body: str = "") -> int:
    _require_user(store, caller.user)
    obj, rec = _related_key(store, caller.user, related_type, related_id)
    if obj == "leads" and rec["status"] == "Converted":
        raise Invalid("This lead has been converted; add notes to its contact instead.", None)
    title = _text(title, "title", "Title", False)
    body = _text(body, "body", "Note", False, MAX_LONG)
    if not title and not body:
        raise Invalid("Write a title or some text for the note.", "title")
    now = store.now_iso()
    return store.insert("crm_notes", caller.actor, related_type=related_type, related_id=rec["id"],
                        title=title or body.split("\n")[0][:80], body=body, author=caller.user, at=now,
                        account=_account_of(store, obj, rec), modified_at=now)


def delete_note(store: Store, caller: Caller, note_id) -> None:
    _require_user(store, caller.user)
    n = _get(store, "crm_notes", note_id, "That note doesn't exist or was deleted.")
    store.delete("crm_notes", n["id"], caller.actor)


def _related_titles(store: Store, items: list[dict]) -> None:
    cache: dict = {}
    for it in items:
        k = (it["related_type"], it["related_id"])
        if k not in cache:
            obj = PLURAL[it["related_type"]]
            r = store.get(TABLE[obj], it["related_id"])
            cache[k] = (record_title(obj, r), url(obj, r["id"])) if r else ("(deleted)", "")
        it["related_title"], it["related_url"] = cache[k]


def timeline(store: Store, user: str, obj: str, rid) -> dict:
    """A record's activity timeline: ``upcoming`` (open tasks, future meetings; soonest first) and
    ``past`` (newest first), each item an activity or a note (``kind`` = "note"). An account's
    timeline includes activity on its contacts and opportunities."""
    rec = get(store, user, obj, rid)
    if obj == "accounts":
        acts = store.select("crm_activities", "account=? OR (related_type='account' AND related_id=?)",
                            (rec["id"], rec["id"]))
        notes = store.select("crm_notes", "account=? OR (related_type='account' AND related_id=?)",
                             (rec["id"], rec["id"]))
    else:
        acts = store.select("crm_activities", "related_type=? AND related_id=?", (SINGULAR[obj], rec["id"]))
        notes = store.select("crm_notes", "related_type=? AND related_id=?", (SINGULAR[obj], rec["id"]))
    names = _people_names(store)
    now = store.now_iso()
    t = today(store).isoformat()
    upcoming, past = [], []
    for a in acts:
        a = {**a, "who_name": names.get(a["who"], a["who"] or "")}
        if a["kind"] == "task":
            a["overdue"] = a["status"] == "Open" and bool(a["due"]) and a["due"] < t
            a["sort"] = a["due"] or a["at"][:10]
            (upcoming if a["status"] == "Open" else past).append(a)
        else:
            a["sort"] = a["at"]
            (upcoming if a["at"] > now else past).append(a)
    for n in notes:
        past.append({**n, "kind": "note", "subject": n["title"], "who": n["author"],
                     "who_name": names.get(n["author"], n["author"]), "sort": n["at"]})
    upcoming.sort(key=lambda a: (a["sort"], a["id"]))
    past.sort(key=lambda a: (a["sort"], a["kind"], a["id"]), reverse=True)
    _related_titles(store, upcoming + past)
    return {"upcoming": upcoming, "past": past}


def my_tasks(store: Store, user: str, limit: int = 8) -> list[dict]:
    """Open tasks assigned to ``user``, soonest due first."""
    _require_user(store, user)
    rows = store.select("crm_activities", "kind='task' AND status='Open' AND who=?", (user,),
                        order="coalesce(due, '9999'), id")[:limit]
    t = today(store).isoformat()
    for r in rows:
        r["overdue"] = bool(r["due"]) and r["due"] < t
    _related_titles(store, rows)
    return rows
