"""What the calendar service's modules share: responses, colours and limits; world-local times;
text and people; an event's row.
"""
from __future__ import annotations

from datetime import date, datetime, time, timezone

from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Store
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


# ---------------------------------------------------------------- reading
def _event_row(store: Store, event_id: int) -> dict:
    ev = store.get("cal_events", event_id) if isinstance(event_id, int) and not isinstance(event_id, bool) else None
    if ev is None:
        raise NotFound("That event doesn't exist, or you don't have access to it.")
    return ev
