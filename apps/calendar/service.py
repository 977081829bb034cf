"""Calendar service layer: events, guests and their responses, recurrence, free/busy.

Everything the GUI routes, the co-worker engine, oracles and checks do goes
through here. Reads take ``(store, user, ...)``, writes ``(store, caller, ...)``
and record ``caller.actor``. Times given to the service are world-local
(naive datetimes or ISO strings are read in ``store.tz``; aware datetimes are
converted); times it returns are aware datetimes in ``store.tz``.

Visibility: a user sees the events they organise or are invited to, and the
events on other people's calendars unless they are private; another person's
private event shows only as "busy" (``busy_only``) and opening it is a 404.

Recurrence rules are dicts ``{freq: daily|weekly|monthly, interval: n,
until: "YYYY-MM-DD" | count: n, byday: ["MO", ...] (weekly), exdates: [...]}``.
The first occurrence is the event's start (as in RFC 5545); ``count`` counts
occurrences before ``exdates`` are taken out; ``until`` is an inclusive date.
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store, utc_iso
from apps.core.text import bounded, tidy

RESPONSES = ("needs_action", "accepted", "declined", "tentative")
RSVP = ("accepted", "declined", "tentative")
RESPONSE_NAMES = {"accepted": "Yes", "declined": "No", "tentative": "Maybe", "needs_action": "Awaiting"}
FREQS = ("daily", "weekly", "monthly")
DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
VISIBILITIES = ("default", "private")
NO_TITLE = "(No title)"
MAX_TITLE = 1_000
MAX_TEXT = 8_000
MAX_NOTE = 1_000
MAX_COUNT = 730
MY_COLOR = "#039be5"                            # Peacock: a calendar's default colour
# Google Calendar's event colours (name -> hex)
EVENT_COLORS = {"tomato": "#d50000", "flamingo": "#e67c73", "tangerine": "#f4511e", "banana": "#f6bf26",
                "sage": "#33b679", "basil": "#0b8043", "peacock": "#039be5", "blueberry": "#3f51b5",
                "lavender": "#7986cb", "grape": "#8e24aa", "graphite": "#616161"}
OTHER_COLORS = ("#33b679", "#8e24aa", "#e67c73", "#f4511e", "#3f51b5", "#0b8043", "#d50000", "#f6bf26",
                "#7986cb", "#616161")
_MAX_STEPS = 20_000


# ---------------------------------------------------------------- times
def local_dt(store: Store, value: object, field: str = "start") -> datetime:
    """A world-local aware datetime from a datetime, a date (midnight) or an ISO string."""
    if isinstance(value, str):
        s = value.strip()
        if not s:
            raise Invalid("Enter a date and time.", field)
        try:
            value = date.fromisoformat(s) if len(s) == 10 else datetime.fromisoformat(s.replace("Z", "+00:00"))
        except ValueError:
            raise Invalid(f"“{value}” is not a date and time.", field) from None
    if isinstance(value, datetime):
        return value.replace(tzinfo=store.tz) if value.tzinfo is None else value.astimezone(store.tz)
    if isinstance(value, date):
        return datetime.combine(value, time(0), tzinfo=store.tz)
    raise Invalid("Enter a date and time.", field)


def local_day(value: object, field: str = "date") -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            pass
    raise Invalid(f"“{value}” is not a date.", field)


def _midnight(store: Store, d: date) -> datetime:
    return datetime.combine(d, time(0), tzinfo=store.tz)


def _wall(dt: datetime, store: Store) -> datetime:
    """Localise a naive wall-clock time (DST-safe round trip)."""
    return dt.replace(tzinfo=store.tz).astimezone(timezone.utc).astimezone(store.tz)


def today(store: Store) -> date:
    return store.local(store.now()).date()


# ---------------------------------------------------------------- text and people
def _text(value: object, field: str, limit: int, one_line: bool = False) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Invalid("Text must be a string.", field)
    return bounded(tidy(value, one_line=one_line), limit, field)


def person_id(store: Store, who: str, field: str = "guests") -> str:
    """A directory person id from an id or an email address; Invalid otherwise."""
    raw = (who or "").strip()
    p = directory.person(store, raw) or (directory.by_email(store, raw) if "@" in raw else None)
    if p is None and raw:
        p = store.decode("people", store.one("SELECT * FROM people WHERE lower(name)=?", (raw.lower(),)))
    if p is None:
        raise Invalid(f"“{raw}” is not in the directory. Guests must be people in the directory.", field)
    return p["slug"]


def person_name(store: Store, slug: str) -> str:
    p = directory.person(store, slug)
    return p["name"] if p else slug


# ---------------------------------------------------------------- recurrence
def clean_recurrence(rec: object, start_day: date, field: str = "recurrence") -> dict | None:
    """A validated, normalised recurrence rule (or None). Raises Invalid naming the problem."""
    if rec in (None, {}, "", "none"):
        return None
    if not isinstance(rec, dict):
        raise Invalid("A repeat rule must be a mapping with freq, interval, until or count.", field)
    unknown = set(rec) - {"freq", "interval", "until", "count", "byday", "exdates"}
    if unknown:
        raise Invalid(f"Unknown repeat setting {sorted(unknown)[0]!r} (use freq, interval, until, count, byday).", field)
    freq = rec.get("freq")
    if freq not in FREQS:
        raise Invalid(f"Repeat must be daily, weekly or monthly (got {freq!r}).", field)
    out: dict = {"freq": freq}
    interval = rec.get("interval", 1)
    if isinstance(interval, str) and as_id(interval) is not None:
        interval = as_id(interval)
    if isinstance(interval, bool) or not isinstance(interval, int) or not 1 <= interval <= 99:
        raise Invalid("Repeat every 1 to 99 days, weeks or months.", field)
    out["interval"] = interval
    until, count = rec.get("until"), rec.get("count")
    if until not in (None, "") and count not in (None, ""):
        raise Invalid("A repeat rule ends on a date or after a number of occurrences, not both.", field)
    if until not in (None, ""):
        try:
            u = local_day(until, field)
        except Invalid:
            raise Invalid(f"The repeat end date “{until}” is not a date.", field) from None
        if u < start_day:
            raise Invalid("The repeat end date is before the event starts.", field)
        out["until"] = u.isoformat()
    if count not in (None, ""):
        if isinstance(count, str) and as_id(count) is not None:
            count = as_id(count)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise Invalid(f"End after 1 to {MAX_COUNT} occurrences.", field)
        out["count"] = count
    byday = rec.get("byday")
    if byday:
        if freq != "weekly":
            raise Invalid("Days of the week apply to weekly repeats only.", field)
        if isinstance(byday, str):
            byday = [byday]
        codes = [str(d).upper() for d in byday]
        bad = [c for c in codes if c not in DAYS]
        if bad:
            raise Invalid(f"Unknown day {bad[0]!r}: use MO, TU, WE, TH, FR, SA, SU.", field)
        out["byday"] = sorted(set(codes), key=DAYS.index)
    exdates = rec.get("exdates") or []
    try:
        out_ex = sorted({local_day(d, field).isoformat() for d in exdates})
    except (Invalid, TypeError):
        raise Invalid("Exceptions must be dates.", field) from None
    if out_ex:
        out["exdates"] = out_ex
    return out


def _rule_dates(rec: dict, d0: date):
    """Every date of the rule from ``d0`` on, in order (exdates included; until/count not applied)."""
    n = rec.get("interval", 1)
    if rec["freq"] == "daily":
        d = d0
        while True:
            yield d
            d += timedelta(days=n)
    elif rec["freq"] == "weekly":
        days = [DAYS.index(c) for c in rec.get("byday") or [DAYS[d0.weekday()]]]
        yield d0
        week0 = d0 - timedelta(days=d0.weekday())
        k = 0
        while True:
            ws = week0 + timedelta(weeks=k * n)
            for wd in days:
                d = ws + timedelta(days=wd)
                if d > d0:
                    yield d
            k += 1
    else:
        k = 0
        while True:
            m = d0.month - 1 + k * n
            try:
                yield date(d0.year + m // 12, m % 12 + 1, d0.day)
            except ValueError:
                pass                                # no such day that month: skipped, as in RFC 5545
            k += 1


def occurrence_dates(rec: dict, d0: date, last: date) -> list[date]:
    """The rule's dates from ``d0`` through ``last`` (until/count applied, exdates removed)."""
    until = date.fromisoformat(rec["until"]) if rec.get("until") else None
    count = rec.get("count")
    ex = set(rec.get("exdates") or ())
    out = []
    for i, d in enumerate(_rule_dates(rec, d0)):
        if i >= _MAX_STEPS or d > last or (until and d > until) or (count and i >= count):
            break
        if d.isoformat() not in ex:
            out.append(d)
    return out


def occurrences(store: Store, ev: dict, start: datetime, end: datetime) -> list[tuple[str | None, datetime, datetime]]:
    """``(occurrence date or None, start, end)`` of the event overlapping [start, end), world-local."""
    s0, e0 = store.local(ev["start"]), store.local(ev["end"])
    rec = ev.get("recurrence")
    if not rec:
        return [(None, s0, e0)] if s0 < end and e0 > start else []
    naive0 = s0.replace(tzinfo=None)
    dur = e0.replace(tzinfo=None) - naive0
    first = (start.astimezone(store.tz) - (e0 - s0) - timedelta(days=1)).date()
    out = []
    for d in occurrence_dates(rec, s0.date(), end.astimezone(store.tz).date()):
        if d < first:
            continue
        ns = datetime.combine(d, naive0.time())
        s, e = _wall(ns, store), _wall(ns + dur, store)
        if s < end and e > start:
            out.append((d.isoformat(), s, e))
    return out


def recurrence_text(rec: dict | None) -> str:
    """"Weekly on Monday, Wednesday, until Jun 30, 2026" — as Google Calendar words it."""
    if not rec:
        return "Does not repeat"
    n, freq = rec.get("interval", 1), rec["freq"]
    if freq == "daily":
        text = "Daily" if n == 1 else f"Every {n} days"
    elif freq == "weekly":
        days = rec.get("byday") or []
        if days == ["MO", "TU", "WE", "TH", "FR"] and n == 1:
            text = "Every weekday (Monday to Friday)"
        else:
            names = ", ".join(DAY_NAMES[DAYS.index(d)] for d in days)
            text = ("Weekly" if n == 1 else f"Every {n} weeks") + (f" on {names}" if names else "")
    else:
        text = "Monthly" if n == 1 else f"Every {n} months"
    if rec.get("until"):
        u = date.fromisoformat(rec["until"])
        text += f", until {u.strftime('%b')} {u.day}, {u.year}"
    elif rec.get("count"):
        text += ", once" if rec["count"] == 1 else f", {rec['count']} times"
    return text


def recurrence_text_for(ev: dict, store: Store) -> str:
    rec = ev.get("recurrence")
    if not rec:
        return ""
    text = recurrence_text(rec)
    d0 = store.local(ev["start"]).date()
    if rec["freq"] == "weekly" and not rec.get("byday"):
        text = text.replace("Weekly", f"Weekly on {DAY_NAMES[d0.weekday()]}", 1) if text.startswith("Weekly") \
            else text.replace(" weeks", f" weeks on {DAY_NAMES[d0.weekday()]}", 1)
    if rec["freq"] == "monthly":
        text = text.replace("Monthly", f"Monthly on day {d0.day}", 1) if text.startswith("Monthly") \
            else text.replace(" months", f" months on day {d0.day}", 1)
    return text


# ---------------------------------------------------------------- reading
def _event_row(store: Store, event_id: int) -> dict:
    ev = store.get("cal_events", event_id) if isinstance(event_id, int) and not isinstance(event_id, bool) else None
    if ev is None:
        raise NotFound("That event doesn't exist, or you don't have access to it.")
    return ev


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
    return {**ev, "display_title": ev["title"] or NO_TITLE, "start": start, "end": end, "occ": occ,
            "recurring": bool(ev["recurrence"]), "recurrence_text": recurrence_text_for(ev, store),
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


# ---------------------------------------------------------------- writing
def _as_day(store: Store, value: object, field: str) -> date:
    if isinstance(value, datetime) and value.tzinfo is not None:
        return store.local(value).date()
    return local_day(value, field)


def _times(store: Store, start: object, end: object, all_day: bool) -> tuple[datetime, datetime]:
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


def _fields(store: Store, *, title, location, description, visibility, color) -> dict:
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
    fields = _fields(store, title=title, location=location, description=description,
                     visibility=visibility, color=color)
    s, e = _times(store, start, end, bool(all_day))
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


def respond(store: Store, caller: Caller, event_id: int, response: str, note: str = "") -> bool:
    """The caller's answer to an invitation (accepted | declined | tentative) with an optional note.
    Returns whether anything changed."""
    ev = get_event(store, caller.user, event_id)
    row = next((g for g in guest_rows(store, event_id) if g["person"] == caller.user), None)
    if row is None:
        raise Forbidden(f"You're not a guest of “{ev['display_title']}”.")
    if response not in RSVP:
        raise Invalid("Answer Yes (accepted), No (declined) or Maybe (tentative).", "response")
    note = _text(note, "note", MAX_NOTE, one_line=True)
    return bool(store.update("cal_guests", row["id"], caller.actor, response=response, note=note))


def _editable(store: Store, caller: Caller, event_id: int) -> dict:
    ev = get_event(store, caller.user, event_id)
    if not ev["can_edit"]:
        raise Forbidden(f"Only the organizer ({ev['organizer_name']}) can change “{ev['display_title']}”.")
    return ev


def _scope(scope: str) -> str:
    if scope not in ("all", "this"):
        raise Invalid("Change this event or all events.", "scope")
    return scope


_KEEP = object()


def update_event(store: Store, caller: Caller, event_id: int, *, occ: str | None = None, scope: str = "all",
                 title=_KEEP, start=_KEEP, end=_KEEP, all_day=_KEEP, location=_KEEP, description=_KEEP,
                 guests=_KEEP, recurrence=_KEEP, visibility=_KEEP, color=_KEEP) -> int:
    """Change an event (organizer only). Fields not given stay as they are. For a recurring event,
    ``occ`` names the occurrence the times refer to; ``scope="all"`` shifts the whole series by the
    change, ``scope="this"`` takes that occurrence out of the series into an event of its own (same
    guests and responses) and returns its id. Guests kept keep their responses; new ones are invited."""
    scope = _scope(scope)
    ev = _editable(store, caller, event_id)
    row = _event_row(store, event_id)
    if occ:
        ev = get_event(store, caller.user, event_id, occ)
    if not ev["recurring"]:
        scope = "all"
    elif scope == "this" and not ev["occ"]:
        raise Invalid("Choose the occurrence to change.", "occ")
    cur = {"title": row["title"], "location": row["location"], "description": row["description"],
           "visibility": row["visibility"], "color": row["color"]}
    given = {"title": title, "location": location, "description": description, "visibility": visibility,
             "color": color}
    fields = _fields(store, **{k: (cur[k] if v is _KEEP else v) for k, v in given.items()})
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
        new_s, new_e = _times(store, s_in, e_in, is_all_day)
    people = None if guests is _KEEP else _guest_list(store, guests, row["organizer"])
    base_s, base_e = store.local(row["start"]), store.local(row["end"])
    if scope == "this":
        old_rec = dict(row["recurrence"])
        old_rec["exdates"] = sorted(set(old_rec.get("exdates") or []) | {ev["occ"]})
        if recurrence is not _KEEP and recurrence:
            raise Invalid("A single occurrence can't have its own repeat rule.", "recurrence")
        now = store.now_iso()
        with store.transaction():
            store.update("cal_events", event_id, caller.actor, recurrence=old_rec, updated_at=now)
            new_id = store.insert("cal_events", caller.actor, organizer=row["organizer"], start=utc_iso(new_s),
                                  end=utc_iso(new_e), all_day=is_all_day, recurrence=None, created_at=now,
                                  updated_at=now, **fields)
            for g in guest_rows(store, event_id):
                if people is None or g["person"] == row["organizer"] or g["person"] in people:
                    store.insert("cal_guests", caller.actor, event=new_id, person=g["person"],
                                 response=g["response"], note=g["note"] or "")
            for p in people or ():
                if not any(g["person"] == p for g in guest_rows(store, new_id)):
                    store.insert("cal_guests", caller.actor, event=new_id, person=p, response="needs_action", note="")
        return new_id
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
        if rec and shift:
            # the series moves as a whole: its weekdays and exceptions move with it
            rec = dict(rec)
            if rec.get("byday"):
                rec["byday"] = [DAYS[(DAYS.index(c) + shift) % 7] for c in rec["byday"]]
            if rec.get("exdates"):
                rec["exdates"] = [(date.fromisoformat(x) + timedelta(days=shift)).isoformat() for x in rec["exdates"]]
            if rec.get("until") and date.fromisoformat(rec["until"]) < new_s.date():
                rec["until"] = new_s.date().isoformat()
            rec = clean_recurrence(rec, new_s.date())
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
        if changed:
            store.update("cal_events", event_id, caller.actor, updated_at=store.now_iso())
    return event_id


def move_event(store: Store, caller: Caller, event_id: int, start: object, *, occ: str | None = None,
               scope: str = "all") -> int:
    """Move an event (or one occurrence, ``scope="this"``) to a new start, keeping its length."""
    ev = get_event(store, caller.user, event_id, occ)
    if ev["all_day"]:
        d = _as_day(store, start, "start")
        days = (ev["end"] - ev["start"]).days
        return update_event(store, caller, event_id, occ=occ, scope=scope, start=d,
                            end=d + timedelta(days=max(days, 1) - 1))
    s = local_dt(store, start, "start")
    return update_event(store, caller, event_id, occ=occ, scope=scope, start=s, end=s + (ev["end"] - ev["start"]))


def delete_event(store: Store, caller: Caller, event_id: int, *, occ: str | None = None, scope: str = "all") -> None:
    """Delete an event (organizer only); ``scope="this"`` with ``occ`` deletes one occurrence."""
    scope = _scope(scope)
    ev = _editable(store, caller, event_id)
    row = _event_row(store, event_id)
    if scope == "this" and ev["recurring"]:
        if not occ:
            raise Invalid("Choose the occurrence to delete.", "occ")
        ev = get_event(store, caller.user, event_id, occ)
        rec = dict(row["recurrence"])
        rec["exdates"] = sorted(set(rec.get("exdates") or []) | {ev["occ"]})
        store.update("cal_events", event_id, caller.actor, recurrence=rec, updated_at=store.now_iso())
        return
    with store.transaction():
        for g in guest_rows(store, event_id):
            store.delete("cal_guests", g["id"], caller.actor)
        store.delete("cal_events", event_id, caller.actor)


# ---------------------------------------------------------------- other calendars (view state)
def add_calendar(store: Store, caller: Caller, who: str) -> str:
    """Overlay another person's calendar (from the directory); returns their id."""
    slug = person_id(store, who, "person")
    if slug == caller.user:
        raise Invalid("That's your own calendar: it's already under “My calendars”.", "person")
    row = store.one("SELECT * FROM cal_calendars WHERE owner=? AND person=?", (caller.user, slug))
    if row is not None:
        store.update("cal_calendars", row["id"], caller.actor, shown=True)
        return slug
    n = store.scalar("SELECT count(*) FROM cal_calendars WHERE owner=? AND person<>?", (caller.user, caller.user))
    store.insert("cal_calendars", caller.actor, owner=caller.user, person=slug,
                 color=OTHER_COLORS[n % len(OTHER_COLORS)], shown=True)
    return slug


def remove_calendar(store: Store, caller: Caller, who: str) -> None:
    row = store.one("SELECT id FROM cal_calendars WHERE owner=? AND person=?", (caller.user, who))
    if row is None or who == caller.user:
        raise NotFound("That calendar isn't in your list.")
    store.delete("cal_calendars", row["id"], caller.actor)


def set_shown(store: Store, caller: Caller, who: str, shown: bool) -> None:
    row = store.one("SELECT id FROM cal_calendars WHERE owner=? AND person=?", (caller.user, who))
    if row is None:
        if who != caller.user:
            raise NotFound("That calendar isn't in your list.")
        store.insert("cal_calendars", caller.actor, owner=who, person=who, color=MY_COLOR, shown=bool(shown))
    else:
        store.update("cal_calendars", row["id"], caller.actor, shown=bool(shown))


def shown_calendars(store: Store, user: str) -> list[str]:
    return [c["person"] for c in calendars(store, user) if c["shown"]]
