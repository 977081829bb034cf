"""Dates as the apps show them, always relative to world time (never the wall clock), in the
request's regional formats (``apps.core.locale``: en-US by default)."""
from __future__ import annotations

from datetime import datetime

from apps.core import locale
from apps.core.store.db import Store, parse_iso


def _local(store: Store, iso: str | datetime | None) -> datetime | None:
    if not iso:
        return None
    return store.local(iso)


def _time(dt: datetime) -> str:
    return locale.clock(dt)


def _day(dt: datetime) -> str:
    return locale.day_month(dt)


def list_date(store: Store, iso: str | None) -> str:
    """Gmail's list column: a time today, "Apr 3" this year, "4/3/25" before."""
    dt = _local(store, iso)
    if dt is None:
        return ""
    now = store.local(store.now())
    if dt.date() == now.date():
        return _time(dt)
    if dt.year == now.year:
        return _day(dt)
    return locale.numeric(dt, short_year=True)


def ago(store: Store, iso: str) -> str:
    dt = parse_iso(iso)
    secs = max(0, int((store.now() - dt).total_seconds()))
    if secs < 60:
        return "just now"
    mins = secs // 60
    if mins < 60:
        return f"{mins} minute{'s' if mins != 1 else ''} ago"
    hours = mins // 60
    if hours < 24:
        return f"{hours} hour{'s' if hours != 1 else ''} ago"
    days = hours // 24
    if days < 31:
        return f"{days} day{'s' if days != 1 else ''} ago"
    return ""


def message_date(store: Store, iso: str | None) -> str:
    """Header of an open message: "Fri, Apr 3, 4:12 PM (2 days ago)"."""
    dt = _local(store, iso)
    if dt is None:
        return ""
    now = store.local(store.now())
    rel = ago(store, iso)
    return f"{locale.weekday_day(dt, full=False, abbr=True, year=dt.year != now.year)}, {_time(dt)}" + \
        (f" ({rel})" if rel else "")


def long_datetime(store: Store, iso: str | None, stored: bool = False) -> str:
    """"Fri, Apr 3, 2026 at 4:12 PM" — Drive's details, a message's full date. ``stored``: for text the
    store keeps (a quoted reply's or a forward's header), always en-US: a locale changes how things
    look, never what is stored."""
    dt = _local(store, iso)
    if dt is None:
        return ""
    with locale.use(locale.DEFAULT if stored else locale.current()):
        return f"{locale.weekday_day(dt, full=False, abbr=True, year=True)} at {_time(dt)}"


def short_date(store: Store, iso: str | None) -> str:
    """Drive's "Last modified": a time today, "Apr 3" this year, "Apr 3, 2025" before."""
    dt = _local(store, iso)
    if dt is None:
        return "—"
    now = store.local(store.now())
    if dt.date() == now.date():
        return _time(dt)
    if dt.year == now.year:
        return _day(dt)
    return locale.medium(dt)


def clock(store: Store) -> str:
    """The shell's world clock: "Mon, Apr 6 · 9:00 AM"."""
    dt = store.local(store.now())
    return f"{locale.weekday_day(dt, full=False, abbr=True)} · {_time(dt)}"


def iso_local(store: Store, iso: str | None) -> str:
    dt = _local(store, iso)
    return dt.isoformat() if dt else ""
