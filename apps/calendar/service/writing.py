"""Writing: creating events, responding, editing and moving one occurrence, the following ones or the
series, deleting.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta

from apps.calendar.service.base import (EVENT_COLORS, MAX_NOTE, MAX_TEXT, MAX_TITLE, RSVP, VISIBILITIES,
                                        _event_row, _midnight, _text, _wall, local_day, local_dt, person_id)
from apps.calendar.service.reading import get_event, guest_rows
from apps.calendar.service.recurrence import clean_recurrence
from apps.calendar.service.series import (RSVP_SCOPES, answer_rows, clean_scope, delete_following, drop_event,
                                          exceptions, make_exception, shifted_rule, split_following)
from apps.core.errors import Forbidden, Invalid
from apps.core.store.db import Caller, Store, utc_iso


def _as_day(store: Store, value: object, field: str) -> date:
    if isinstance(value, datetime) and value.tzinfo is not None:
        return store.local(value).date()
    return local_day(value, field)


def clean_times(store: Store, start: object, end: object, all_day: bool) -> tuple[datetime, datetime]:
    """(start, end) as stored, validated: timed end after start; all-day ``end`` is the last day (inclusive)."""
    if all_day:
        d0 = _as_day(store, start, "start")
        d1 = d0 if end in (None, "") else _as_day(store, end, "end")
        if d1 < d0:
            raise Invalid("The event ends before it starts.", "end")
        return _midnight(store, d0), _midnight(store, d1 + timedelta(days=1))
    s = local_dt(store, start, "start")
    e = s + timedelta(hours=1) if end in (None, "") else local_dt(store, end, "end")
    if e <= s:
        raise Invalid("The event ends before it starts.", "end")
    return s, e


def _guest_list(store: Store, guests, organizer: str) -> list[str]:
    if isinstance(guests, str):
        guests = [guests]
    out = []
    for g in guests or ():
        if not str(g).strip():
            continue
        slug = person_id(store, str(g))
        if slug != organizer and slug not in out:
            out.append(slug)
    return out


def clean_fields(store: Store, *, title, location, description, visibility, color) -> dict:
    if visibility not in VISIBILITIES:
        raise Invalid("Visibility is “default” or “private”.", "visibility")
    color = color or ""
    if color not in EVENT_COLORS and color != "":
        raise Invalid(f"Unknown event colour {color!r}.", "color")
    return {"title": _text(title, "title", MAX_TITLE, one_line=True),
            "location": _text(location, "location", MAX_TITLE, one_line=True),
            "description": _text(description, "description", MAX_TEXT),
            "visibility": visibility, "color": color}


def create_event(store: Store, caller: Caller, *, title: str, start: object, end: object, all_day: bool = False,
                 location: str = "", description: str = "", guests=(), recurrence: dict | None = None,
                 visibility: str = "default", color: str = "") -> int:
    """A new event on the caller's calendar (the caller organises it and has accepted); guests are
    invited (``needs_action``). Returns its id. Nothing is written when the input is bad."""
    organizer = person_id(store, caller.user, "organizer")
    fields = clean_fields(store, title=title, location=location, description=description,
                     visibility=visibility, color=color)
    s, e = clean_times(store, start, end, bool(all_day))
    rec = clean_recurrence(recurrence, s.date())
    people = _guest_list(store, guests, organizer)
    now = store.now_iso()
    with store.transaction():
        eid = store.insert("cal_events", caller.actor, organizer=organizer, start=utc_iso(s), end=utc_iso(e),
                           all_day=bool(all_day), recurrence=rec, created_at=now, updated_at=now, **fields)
        store.insert("cal_guests", caller.actor, event=eid, person=organizer, response="accepted", note="")
        for p in people:
            store.insert("cal_guests", caller.actor, event=eid, person=p, response="needs_action", note="")
    return eid


def respond(store: Store, caller: Caller, event_id: int, response: str, note: str = "", *, occ: str | None = None,
            scope: str | None = None) -> bool:
    """The caller's answer to an invitation (accepted | declined | tentative) with an optional note.
    For a recurring event, ``scope="this"`` with ``occ`` answers that occurrence only (it becomes an
    exception of the series, as in Google Calendar); ``scope="all"`` answers the series and every
    occurrence answered on its own. Without a scope, the event given: a recurring event whole, an
    occurrence already on its own (an exception) alone. Returns whether anything changed."""
    ev = get_event(store, caller.user, event_id, occ)
    row = next((g for g in guest_rows(store, event_id) if g["person"] == caller.user), None)
    if row is None:
        raise Forbidden(f"You're not a guest of “{ev['display_title']}”.")
    if response not in RSVP:
        raise Invalid("Answer Yes (accepted), No (declined) or Maybe (tentative).", "response")
    if scope is None:
        scope = "all" if ev["recurring"] else "this"
    scope = clean_scope(scope, RSVP_SCOPES)
    note = _text(note, "note", MAX_NOTE, one_line=True)
    ev_row = _event_row(store, event_id)
    if scope == "this" and ev["recurring"]:
        if not ev["occ"]:
            raise Invalid("Choose the occurrence to answer.", "occ")
        fields = {k: ev_row[k] for k in ("title", "location", "description", "visibility", "color")}
        with store.transaction():
            new_id = make_exception(store, caller, ev_row, ev["occ"], ev["start"], ev["end"], ev["all_day"], fields)
            mine = next(g for g in guest_rows(store, new_id) if g["person"] == caller.user)
            store.update("cal_guests", mine["id"], caller.actor, response=response, note=note)
        return True
    rows = [row] if scope == "this" else answer_rows(store, caller.user, ev_row)
    changed = False
    with store.transaction():
        for g in rows:
            changed = bool(store.update("cal_guests", g["id"], caller.actor, response=response, note=note)) or changed
    return changed


def _editable(store: Store, caller: Caller, event_id: int) -> dict:
    ev = get_event(store, caller.user, event_id)
    if not ev["can_edit"]:
        raise Forbidden(f"Only the organizer ({ev['organizer_name']}) can change “{ev['display_title']}”.")
    return ev


_KEEP = object()


def update_event(store: Store, caller: Caller, event_id: int, *, occ: str | None = None, scope: str = "all",
                 title=_KEEP, start=_KEEP, end=_KEEP, all_day=_KEEP, location=_KEEP, description=_KEEP,
                 guests=_KEEP, recurrence=_KEEP, visibility=_KEEP, color=_KEEP) -> int:
    """Change an event (organizer only). Fields not given stay as they are. For a recurring event,
    ``occ`` names the occurrence the times refer to; ``scope="all"`` shifts the whole series by the
    change, ``scope="this"`` takes that occurrence out of the series into an event of its own (same
    guests and responses; an exception, see ``series``) and returns its id, ``scope="following"``
    ends the series the day before ``occ`` and starts a new series there with the change (its id is
    returned). Guests kept keep their responses; new ones are invited."""
    scope = clean_scope(scope)
    ev = _editable(store, caller, event_id)
    row = _event_row(store, event_id)
    if occ:
        ev = get_event(store, caller.user, event_id, occ)
    if not ev["recurring"]:
        scope = "all"
    elif scope in ("this", "following") and not ev["occ"]:
        raise Invalid("Choose the occurrence to change.", "occ")
    cur = {"title": row["title"], "location": row["location"], "description": row["description"],
           "visibility": row["visibility"], "color": row["color"]}
    given = {"title": title, "location": location, "description": description, "visibility": visibility,
             "color": color}
    fields = clean_fields(store, **{k: (cur[k] if v is _KEEP else v) for k, v in given.items()})
    is_all_day = ev["all_day"] if all_day is _KEEP else bool(all_day)
    occ_s, occ_e = ev["start"], ev["end"]
    if start is _KEEP and end is _KEEP and is_all_day == ev["all_day"]:
        new_s, new_e = occ_s, occ_e
    else:
        if is_all_day:
            s_in = occ_s.date() if start is _KEEP else start
            e_in = (occ_e - timedelta(days=1)).date() if end is _KEEP and ev["all_day"] else (
                None if end is _KEEP else end)
        else:
            s_in = (occ_s if not ev["all_day"] else occ_s.replace(hour=9)) if start is _KEEP else start
            e_in = None if end is _KEEP and ev["all_day"] else (occ_e if end is _KEEP else end)
            if end is _KEEP and not ev["all_day"] and start is not _KEEP:
                e_in = local_dt(store, start) + (occ_e - occ_s)      # moving the start keeps the length
        new_s, new_e = clean_times(store, s_in, e_in, is_all_day)
    people = None if guests is _KEEP else _guest_list(store, guests, row["organizer"])
    base_s, base_e = store.local(row["start"]), store.local(row["end"])
    if scope == "following":
        rec_in = None if recurrence is _KEEP else (recurrence or {})
        new_id = split_following(store, caller, row, ev["occ"], new_s, new_e, is_all_day, fields, people, rec_in)
        if new_id is not None:
            return new_id
        scope = "all"                                # from the first occurrence on: the whole series
    if scope == "this":
        if recurrence is not _KEEP and recurrence:
            raise Invalid("A single occurrence can't have its own repeat rule.", "recurrence")
        with store.transaction():
            return make_exception(store, caller, row, ev["occ"], new_s, new_e, is_all_day, fields, people)
    if ev["recurring"] and (new_s, new_e) != (occ_s, occ_e):
        # shift the series by the change made to this occurrence (its first one if none was named)
        s_naive = base_s.replace(tzinfo=None) + (new_s.replace(tzinfo=None) - occ_s.replace(tzinfo=None))
        dur = new_e.replace(tzinfo=None) - new_s.replace(tzinfo=None)
        new_s, new_e = _wall(s_naive, store), _wall(s_naive + dur, store)
    elif ev["recurring"]:
        new_s, new_e = base_s, base_e
    if recurrence is _KEEP:
        rec = row["recurrence"]
        shift = (new_s.date() - base_s.date()).days
        if rec and shift:                             # the series moves as a whole
            rec = shifted_rule(rec, shift, new_s.date())
    else:
        rec = clean_recurrence(recurrence, new_s.date())
        if rec and row["recurrence"] and row["recurrence"].get("exdates") and "exdates" not in (recurrence or {}):
            rec["exdates"] = row["recurrence"]["exdates"]
    values = {**fields, "start": utc_iso(new_s), "end": utc_iso(new_e), "all_day": is_all_day, "recurrence": rec}
    with store.transaction():
        changed = store.update("cal_events", event_id, caller.actor, **values)
        if people is not None:
            rows = guest_rows(store, event_id)
            for g in rows:
                if g["person"] != row["organizer"] and g["person"] not in people:
                    store.delete("cal_guests", g["id"], caller.actor)
                    changed.append("guests")
            have = {g["person"] for g in rows}
            for p in people:
                if p not in have:
                    store.insert("cal_guests", caller.actor, event=event_id, person=p, response="needs_action", note="")
                    changed.append("guests")
        shift = (new_s.date() - base_s.date()).days
        if ev["recurring"] and shift:
            for x in exceptions(store, event_id):     # the occurrences changed on their own keep their place
                if x["series_day"]:
                    day = (date.fromisoformat(x["series_day"]) + timedelta(days=shift)).isoformat()
                    store.update("cal_events", x["id"], caller.actor, series_day=day)
        if changed:
            store.update("cal_events", event_id, caller.actor, updated_at=store.now_iso())
    return event_id


def move_event(store: Store, caller: Caller, event_id: int, start: object, *, occ: str | None = None,
               scope: str = "all") -> int:
    """Move an event to a new start, keeping its length; for a recurring event, ``occ`` names the
    occurrence moved and ``scope`` says which move with it (this, following or all)."""
    ev = get_event(store, caller.user, event_id, occ)
    if ev["all_day"]:
        d = _as_day(store, start, "start")
        days = (ev["end"] - ev["start"]).days
        return update_event(store, caller, event_id, occ=occ, scope=scope, start=d,
                            end=d + timedelta(days=max(days, 1) - 1))
    s = local_dt(store, start, "start")
    return update_event(store, caller, event_id, occ=occ, scope=scope, start=s, end=s + (ev["end"] - ev["start"]))


def delete_event(store: Store, caller: Caller, event_id: int, *, occ: str | None = None, scope: str = "all") -> None:
    """Delete an event (organizer only). For a recurring event with ``occ``: ``scope="this"`` deletes that
    occurrence, ``"following"`` it and every later one (the series ends the day before); ``"all"``
    deletes the series with the occurrences changed on their own."""
    scope = clean_scope(scope)
    ev = _editable(store, caller, event_id)
    row = _event_row(store, event_id)
    if scope in ("this", "following") and ev["recurring"]:
        if not occ:
            raise Invalid("Choose the occurrence to delete.", "occ")
        ev = get_event(store, caller.user, event_id, occ)
        if scope == "following":
            if delete_following(store, caller, row, ev["occ"]):
                return
        else:
            rec = dict(row["recurrence"])
            rec["exdates"] = sorted(set(rec.get("exdates") or []) | {ev["occ"]})
            store.update("cal_events", event_id, caller.actor, recurrence=rec, updated_at=store.now_iso())
            return
    with store.transaction():
        for x in exceptions(store, event_id):
            drop_event(store, caller, x["id"])
        drop_event(store, caller, event_id)
