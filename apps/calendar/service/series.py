"""Series: one occurrence of a recurring event on its own (an exception), "This and following events"
(the series ends the day before and a new one starts from that occurrence), and a guest's answer to
one occurrence or to the whole series — Google Calendar's three choices for a recurring event.

An exception is an event of its own with ``series`` (the recurring event's id) and ``series_day`` (the
date of the occurrence it replaces); that date is in the series' ``exdates``, so the occurrence shows
once. Exceptions are exported with the rest of the store.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta

from apps.calendar.service.base import DAYS
from apps.calendar.service.reading import guest_rows
from apps.calendar.service.recurrence import _rule_dates, clean_recurrence
from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store, utc_iso

SCOPES = ("this", "following", "all")
RSVP_SCOPES = ("this", "all")


def clean_scope(scope: object, allowed: tuple[str, ...] = SCOPES) -> str:
    if scope not in allowed:
        names = {"this": "this event", "following": "this and following events", "all": "all events"}
        raise Invalid("Apply the change to " + " or ".join(names[s] for s in allowed) + ".", "scope")
    return scope


def exceptions(store: Store, series_id: int) -> list[dict]:
    """The events that replace single occurrences of a series, by date."""
    return sorted(store.select("cal_events", "series=?", (series_id,)), key=lambda r: (r["series_day"] or "", r["id"]))


def make_exception(store: Store, caller: Caller, row: dict, day: str, s: datetime, e: datetime, all_day: bool,
                   fields: dict, people: list[str] | None = None) -> int:
    """Take the occurrence of ``row`` on ``day`` out of the series into an event of its own (same guests
    and answers; with ``people``, that guest list: kept guests keep their answers, new ones are invited).
    Call inside a transaction. Returns the new event's id."""
    rec = dict(row["recurrence"])
    rec["exdates"] = sorted(set(rec.get("exdates") or []) | {day})
    now = store.now_iso()
    store.update("cal_events", row["id"], caller.actor, recurrence=rec, updated_at=now)
    new_id = store.insert("cal_events", caller.actor, organizer=row["organizer"], start=utc_iso(s), end=utc_iso(e),
                          all_day=all_day, recurrence=None, series=row["id"], series_day=day, created_at=now,
                          updated_at=now, **fields)
    _copy_guests(store, caller, row, new_id, people)
    return new_id


def _copy_guests(store: Store, caller: Caller, row: dict, new_id: int, people: list[str] | None) -> None:
    have = set()
    for g in guest_rows(store, row["id"]):
        if people is None or g["person"] == row["organizer"] or g["person"] in people:
            store.insert("cal_guests", caller.actor, event=new_id, person=g["person"], response=g["response"],
                         note=g["note"] or "")
            have.add(g["person"])
    for p in people or ():
        if p not in have:
            store.insert("cal_guests", caller.actor, event=new_id, person=p, response="needs_action", note="")


def _before(rec: dict, first: date, day: date) -> dict:
    """The series' rule cut to end the day before ``day``."""
    r = {k: v for k, v in rec.items() if k != "count"}
    r["until"] = (day - timedelta(days=1)).isoformat()
    r["exdates"] = [x for x in rec.get("exdates") or [] if x < day.isoformat()]
    return clean_recurrence(r, first)


def shifted_rule(rec: dict, days: int, start: date) -> dict:
    """The rule of a series whose start moves by ``days`` to ``start``: its weekdays and the dates taken
    out move with it, and it ends no earlier than its new start."""
    r = dict(rec)
    if days and r.get("byday"):
        r["byday"] = [DAYS[(DAYS.index(c) + days) % 7] for c in r["byday"]]
    if days and r.get("exdates"):
        r["exdates"] = [(date.fromisoformat(x) + timedelta(days=days)).isoformat() for x in r["exdates"]]
    if r.get("until") and date.fromisoformat(r["until"]) < start:
        r["until"] = start.isoformat()
    return clean_recurrence(r, start)


def _from(rec: dict, first: date, day: date, new_day: date) -> dict:
    """The rule of the new series that starts on ``new_day`` in place of the occurrence on ``day``."""
    r = {**rec, "exdates": [x for x in rec.get("exdates") or [] if x >= day.isoformat()]}
    if rec.get("count"):
        before = 0
        for d in _rule_dates(rec, first):
            if d >= day:
                break
            before += 1
        r["count"] = max(1, rec["count"] - before)
    return shifted_rule(r, (new_day - day).days, new_day)


def split_following(store: Store, caller: Caller, row: dict, day: str, s: datetime, e: datetime, all_day: bool,
                    fields: dict, people: list[str] | None, recurrence: object) -> int | None:
    """"This and following events": the series ends the day before ``day`` and a new series with the
    changes starts at (s, e). Exceptions from ``day`` on move to the new series. Returns the new
    series' id, or None when ``day`` is the first occurrence (then it is the whole series)."""
    first = store.local(row["start"]).date()
    d = date.fromisoformat(day)
    if d <= first:
        return None
    rec = row["recurrence"]
    new_rec = _from(rec, first, d, s.date()) if recurrence is None else clean_recurrence(recurrence, s.date())
    shift = (s.date() - d).days
    now = store.now_iso()
    with store.transaction():
        store.update("cal_events", row["id"], caller.actor, recurrence=_before(rec, first, d), updated_at=now)
        new_id = store.insert("cal_events", caller.actor, organizer=row["organizer"], start=utc_iso(s),
                              end=utc_iso(e), all_day=all_day, recurrence=new_rec, created_at=now, updated_at=now,
                              **fields)
        _copy_guests(store, caller, row, new_id, people)
        for x in exceptions(store, row["id"]):
            if (x["series_day"] or "") >= day:
                moved = (date.fromisoformat(x["series_day"]) + timedelta(days=shift)).isoformat()
                store.update("cal_events", x["id"], caller.actor, series=new_id, series_day=moved)
    return new_id


def delete_following(store: Store, caller: Caller, row: dict, day: str) -> bool:
    """Delete the occurrences from ``day`` on (and their exceptions). False when ``day`` is the first
    occurrence (the caller deletes the whole series)."""
    first = store.local(row["start"]).date()
    d = date.fromisoformat(day)
    if d <= first:
        return False
    with store.transaction():
        store.update("cal_events", row["id"], caller.actor, recurrence=_before(row["recurrence"], first, d),
                     updated_at=store.now_iso())
        for x in exceptions(store, row["id"]):
            if (x["series_day"] or "") >= day:
                drop_event(store, caller, x["id"])
    return True


def drop_event(store: Store, caller: Caller, event_id: int) -> None:
    """Delete one event row and its guests (inside the caller's transaction)."""
    for g in guest_rows(store, event_id):
        store.delete("cal_guests", g["id"], caller.actor)
    store.delete("cal_events", event_id, caller.actor)


def series_of(store: Store, row: dict) -> dict:
    """The recurring event ``row`` belongs to: itself, or the series it is an exception of."""
    if row.get("series"):
        parent = store.get("cal_events", row["series"])
        if parent is not None:
            return parent
    return row


def answer_rows(store: Store, user: str, row: dict) -> list[dict]:
    """The user's guest rows on a whole series: the recurring event and each of its exceptions."""
    top = series_of(store, row)
    ids = [top["id"]] + [x["id"] for x in exceptions(store, top["id"])]
    out = []
    for eid in ids:
        out += [g for g in guest_rows(store, eid) if g["person"] == user]
    return out


__all__ = ["SCOPES", "RSVP_SCOPES", "answer_rows", "clean_scope", "delete_following", "drop_event", "exceptions",
           "make_exception", "series_of", "shifted_rule", "split_following"]
