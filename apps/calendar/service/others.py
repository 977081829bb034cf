"""Other people's calendars in the user's list (view state): adding, removing, showing and hiding them."""
from __future__ import annotations

from apps.calendar.service.base import MY_COLOR, OTHER_COLORS, person_id
from apps.calendar.service.reading import calendars
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store


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
