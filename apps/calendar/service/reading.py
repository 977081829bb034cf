"""Reading: one event with its guests, the user's calendars, events in a window, free/busy, free
slots for a group, invitations, search.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta

from apps.calendar.service.base import (EVENT_COLORS, MY_COLOR, NO_TITLE, _event_row, _midnight, _wall, local_day,
                                        local_dt, person_id, person_name)
from apps.calendar.service.recurrence import occurrences, recurrence_text_for
from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Store, utc_iso


def guest_rows(store: Store, event_id: int) -> list[dict]:
    return store.select("cal_guests", "event=?", (event_id,))


def _can_see(ev: dict, user: str, guests: list[dict]) -> bool:
    return ev["visibility"] != "private" or ev["organizer"] == user or any(g["person"] == user for g in guests)


def get_event(store: Store, user: str, event_id: int, occ: str | None = None) -> dict:
    """One event the user can see, with its guests and their responses.

    ``guests`` lists the organizer first, then the guests in the order they
    were added: ``{person, name, email, response, note, organizer}``;
    ``counts`` is ``{"yes": n, "no": n, "maybe": n, "awaiting": n}``. With
    ``occ`` (an occurrence date of a recurring event) ``start``/``end`` are
    that occurrence's."""
    ev = _event_row(store, event_id)
    rows = guest_rows(store, event_id)
    if not _can_see(ev, user, rows):
        raise NotFound("That event doesn't exist, or you don't have access to it.")
    start, end = store.local(ev["start"]), store.local(ev["end"])
    if occ and ev["recurrence"]:
        d = local_day(occ, "occ")
        hits = [o for o in occurrences(store, ev, _midnight(store, d), _midnight(store, d + timedelta(days=1)))
                if o[0] == d.isoformat()]
        if not hits:
            raise NotFound("That event has no occurrence on that day.")
        start, end = hits[0][1], hits[0][2]
    else:
        occ = None
    guests = []
    for g in sorted(rows, key=lambda g: (g["person"] != ev["organizer"], g["id"])):
        p = directory.person(store, g["person"]) or {"name": g["person"], "email": ""}
        guests.append({"person": g["person"], "name": p["name"], "email": p["email"], "response": g["response"],
                       "note": g["note"] or "", "organizer": g["person"] == ev["organizer"]})
    counts = {"yes": 0, "no": 0, "maybe": 0, "awaiting": 0}
    for g in guests:
        counts[{"accepted": "yes", "declined": "no", "tentative": "maybe"}.get(g["response"], "awaiting")] += 1
    mine = next((g for g in guests if g["person"] == user), None)
    parent = store.get("cal_events", ev["series"]) if ev.get("series") else None
    return {**ev, "display_title": ev["title"] or NO_TITLE, "start": start, "end": end, "occ": occ,
            "recurring": bool(ev["recurrence"]), "recurrence_text": recurrence_text_for(ev, store),
            "in_series": bool(ev["recurrence"]) or parent is not None,
            "series_text": recurrence_text_for(parent, store) if parent else "",
            "guests": guests, "counts": counts, "organizer_name": person_name(store, ev["organizer"]),
            "my_response": mine["response"] if mine else None, "my_note": mine["note"] if mine else "",
            "is_guest": mine is not None, "can_edit": ev["organizer"] == user,
            "color_hex": EVENT_COLORS.get(ev["color"] or "", "")}


def calendars(store: Store, user: str) -> list[dict]:
    """The user's calendar, then the other calendars they added: ``{person, name, color, shown, mine}``."""
    rows = store.select("cal_calendars", "owner=?", (user,))
    own = next((r for r in rows if r["person"] == user), None)
    out = [{"person": user, "name": person_name(store, user), "color": (own or {}).get("color") or MY_COLOR,
            "shown": own["shown"] if own else True, "mine": True}]
    for r in rows:
        if r["person"] != user:
            out.append({"person": r["person"], "name": person_name(store, r["person"]), "color": r["color"],
                        "shown": bool(r["shown"]), "mine": False})
    return out


list_calendars = calendars


def _event_window_rows(store: Store, persons: list[str], start: datetime, end: datetime) -> list:
    if not persons:
        return []
    qs = ",".join("?" for _ in persons)
    return store.all(
        f"SELECT e.*, g.person AS cal_person, g.response AS cal_response FROM cal_events e "
        f"JOIN cal_guests g ON g.event=e.id WHERE g.person IN ({qs}) AND e.start < ? "
        f"AND (e.recurrence IS NOT NULL OR e.\"end\" > ?) ORDER BY e.start, e.id",
        (*persons, utc_iso(end), utc_iso(start)))


def events_between(store: Store, user: str, start: object, end: object,
                   calendars: list[str] | None = None) -> list[dict]:
    """Occurrences on the given people's calendars (default: the user's) overlapping [start, end).

    Each is ``{id, occ, title, start, end, all_day, calendar, response, mine, busy_only, location,
    organizer, recurring, color}``, sorted by start, longer first, then id. An event on the user's
    own calendar is not repeated for another calendar it is also on; events another person
    declined are not shown on their calendar."""
    ws, we = local_dt(store, start), local_dt(store, end, "end")
    cals = list(dict.fromkeys(calendars if calendars is not None else [user]))
    rows = _event_window_rows(store, cals, ws, we)
    own_ids = {r["id"] for r in rows if r["cal_person"] == user}
    colors = {c["person"]: c["color"] for c in list_calendars(store, user)}
    guests_of: dict[int, list[dict]] = {}
    out = []
    seen = set()
    for r in rows:
        if r["cal_person"] != user and (r["id"] in own_ids or r["cal_response"] == "declined"):
            continue                                # shown once; others' declined events aren't shown
        if (r["id"], r["cal_person"]) in seen:
            continue
        seen.add((r["id"], r["cal_person"]))
        ev = store.decode("cal_events", r)
        if ev["id"] not in guests_of:
            guests_of[ev["id"]] = guest_rows(store, ev["id"])
        visible = _can_see(ev, user, guests_of[ev["id"]])
        color = EVENT_COLORS.get(ev["color"] or "") if visible and r["cal_person"] == user else None
        for occ, s, e in occurrences(store, ev, ws, we):
            out.append({"id": ev["id"], "occ": occ, "title": (ev["title"] or NO_TITLE) if visible else "busy",
                        "start": s, "end": e, "all_day": bool(ev["all_day"]), "calendar": r["cal_person"],
                        "response": r["cal_response"], "mine": r["cal_person"] == user, "busy_only": not visible,
                        "location": ev["location"] if visible else "", "organizer": ev["organizer"],
                        "recurring": bool(ev["recurrence"]),
                        "color": color or colors.get(r["cal_person"]) or directory.color_for(r["cal_person"])})
    out.sort(key=lambda o: (o["start"], -(o["end"] - o["start"]).total_seconds(), o["id"], o["calendar"]))
    return out


def busy(store: Store, people: list[str], start: object, end: object, *,
         exclude: int | None = None) -> dict[str, list[tuple[datetime, datetime]]]:
    """Each person's busy intervals within [start, end): merged, clipped to the window, world-local.

    Every event the person is on counts (recurrences expanded; private ones too) except the ones
    they declined, all-day events and ``exclude`` (the event being edited)."""
    ws, we = local_dt(store, start), local_dt(store, end, "end")
    out = {}
    for who in people:
        slug = person_id(store, who, "people")
        spans = []
        for r in _event_window_rows(store, [slug], ws, we):
            if r["cal_response"] == "declined" or r["all_day"] or r["id"] == exclude:
                continue
            ev = store.decode("cal_events", r)
            for _, s, e in occurrences(store, ev, ws, we):
                spans.append((max(s, ws), min(e, we)))
        spans.sort()
        merged: list[list[datetime]] = []
        for s, e in spans:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        out[who] = [(s, e) for s, e in merged]
    return out


def find_times(store: Store, people: list[str], day_from: object, day_to: object, minutes: int, *,
               work_start: float = 9, work_end: float = 18, step: int = 30) -> list[tuple[datetime, datetime]]:
    """Slots of ``minutes`` when everyone is free: weekdays from ``day_from`` through ``day_to``,
    within working hours, starting every ``step`` minutes from ``work_start``, never before now.
    World-local aware datetimes, in order."""
    d0, d1 = local_day(day_from, "day_from"), local_day(day_to, "day_to")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0:
        raise Invalid("The meeting length must be a positive number of minutes.", "minutes")
    if step <= 0 or work_end <= work_start:
        raise Invalid("Working hours must end after they start.", "work_end")
    taken = sorted(s for spans in busy(store, people, _midnight(store, d0),
                                       _midnight(store, d1 + timedelta(days=1))).values() for s in spans)
    now = store.now()
    dur = timedelta(minutes=minutes)
    out = []
    d = d0
    while d <= d1:
        if d.weekday() < 5:
            base = datetime.combine(d, time(0))
            t, stop = base + timedelta(hours=work_start), base + timedelta(hours=work_end)
            while t + dur <= stop:
                s, e = _wall(t, store), _wall(t + dur, store)
                if s >= now and not any(bs < e and be > s for bs, be in taken):
                    out.append((s, e))
                t += timedelta(minutes=step)
        d += timedelta(days=1)
    return out


def invitations(store: Store, user: str) -> list[dict]:
    """Events the user is invited to and hasn't answered (not organised by them, not over)."""
    now = store.now()
    out = []
    for r in store.all("SELECT e.id FROM cal_events e JOIN cal_guests g ON g.event=e.id WHERE g.person=? "
                       "AND g.response='needs_action' AND e.organizer<>? ORDER BY e.start, e.id", (user, user)):
        ev = get_event(store, user, r["id"])
        if ev["recurring"]:
            upcoming = occurrences(store, store.get("cal_events", r["id"]), now, now + timedelta(days=800))
            if not upcoming:
                continue
            ev["next"] = upcoming[0]
        elif ev["end"] <= now:
            continue
        out.append(ev)
    return out


def search(store: Store, user: str, q: str) -> list[dict]:
    """Events on the user's calendar whose title, location or description contains ``q``."""
    q = (q or "").strip().lower()
    if not q:
        return []
    like = f"%{q}%"
    rows = store.all("SELECT e.id FROM cal_events e JOIN cal_guests g ON g.event=e.id WHERE g.person=? AND "
                     "(lower(e.title) LIKE ? OR lower(e.location) LIKE ? OR lower(e.description) LIKE ?) "
                     "ORDER BY e.start, e.id", (user, like, like, like))
    return [get_event(store, user, r["id"]) for r in rows]
