"""Calendar tools: events in a range, free times, invitations, creating, changing, moving, deleting
and answering.

Times are world-local: ``2026-04-07T10:00`` is read in the world's time
zone (an offset or ``Z`` is honoured); a bare date is midnight.
"""
from __future__ import annotations

from typing import Literal

from apps.calendar import service as cal
from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from harness.tools.registry import read, write

WHEN = "A local date-time like 2026-04-07T10:00 (or a date, 2026-04-07, for midnight)."
PEOPLE = "Person ids (like `priya.raman`), email addresses or full names from the directory."



def update_event(store: Store, caller: Caller, event_id: int, title: str | None = None, start: str | None = None,
                 end: str | None = None, all_day: bool | None = None, location: str | None = None,
                 description: str | None = None, guests: list[str] | None = None, recurrence: dict | None = None,
                 visibility: Literal["default", "private"] | None = None, color: str | None = None,
                 occ: str | None = None, scope: Literal["all", "this", "following"] = "all") -> dict:
    """Change an event the user organises; what you leave out stays as it is (moving the start alone
    keeps the length). `guests` is the whole new guest list: people kept keep their answers, new ones
    are invited. Returns the event as it is now (a new event when one occurrence is split off a series)."""
    given = {"title": title, "start": start, "end": end, "all_day": all_day, "location": location,
             "description": description, "guests": guests, "recurrence": recurrence, "visibility": visibility,
             "color": color}
    change = {k: v for k, v in given.items() if v is not None}
    if not change:
        raise Invalid("Say what to change (title, start, end, guests, …).", "event_id")
    new_id = cal.update_event(store, caller, event_id, occ=occ, scope=scope, **change)
    return cal.get_event(store, caller.user, new_id)


TOOLS = [
    read(cal.events_between, "calendar.list_events",
         "Events overlapping [start, end) on the user's calendar (or on the given people's calendars), "
         "recurring events expanded, sorted by start. Another person's private event shows only as busy.",
         args={"start": WHEN, "end": WHEN, "calendars": "Person ids whose calendars to show (default: the user's)."},
         types={"start": str, "end": str}),
    read(cal.get_event, "calendar.get_event",
         "One event with its guests and their responses, description, location and recurrence.",
         args={"event_id": "The event id.",
               "occ": "For a recurring event, the occurrence date (YYYY-MM-DD) whose times to show."}),
    read(cal.search, "calendar.search",
         "Events on the user's calendar whose title, location or description contains the text.",
         args={"q": "The text to look for."}),
    read(cal.invitations, "calendar.invitations",
         "Upcoming events the user is invited to and has not answered yet."),
    read(cal.find_times, "calendar.find_times",
         "Times when all the given people are free for a meeting of `minutes`: weekdays from day_from "
         "through day_to within working hours, never in the past. Returns [start, end] pairs.",
         args={"people": PEOPLE, "day_from": "First day, YYYY-MM-DD.", "day_to": "Last day, YYYY-MM-DD.",
               "minutes": "Meeting length in minutes.", "work_start": "Working day start (hour, e.g. 9 or 8.5).",
               "work_end": "Working day end (hour).", "step": "Candidate starts every this many minutes."},
         types={"day_from": str, "day_to": str}),
    write(cal.create_event, "calendar.create_event",
          "Create an event on the user's calendar (the user organises it); guests are invited and get the "
          "invitation. Returns the new event's id.",
          args={"title": "The title.", "start": WHEN, "end": f"{WHEN} Default: an hour after start. "
                "For an all-day event, the last day.", "all_day": "An all-day event (start and end are dates).",
                "location": "Where.", "description": "Details.", "guests": PEOPLE,
                "recurrence": "Repeat rule: {freq: daily|weekly|monthly, interval: n, until: YYYY-MM-DD | "
                              "count: n, byday: [MO, TU, …]}.",
                "visibility": "`private` hides the details from others.",
                "color": "An event colour name (tomato, sage, peacock, …); empty for the calendar's."},
          types={"start": str, "end": str | None, "guests": list[str],
                 "visibility": Literal["default", "private"]}, defaults={"end": None}),
    write(cal.respond, "calendar.rsvp",
          "Answer an invitation: accepted (yes), declined (no) or tentative (maybe), with an optional note "
          "to the organiser. For a recurring event, answer one occurrence (scope `this` with its date in "
          "`occ`) or the whole series (`all`, the default for a recurring event; an occurrence already answered or "
          "changed on its own has an id of its own and is answered alone unless scope is `all`). Returns whether "
          "anything changed.",
          args={"event_id": "The event id.", "response": "The answer.", "note": "A note to the organiser.",
                "occ": "For a recurring event: the occurrence date (YYYY-MM-DD) answered.",
                "scope": "`all` answers every occurrence; `this` only the one on `occ`."},
          types={"response": Literal["accepted", "declined", "tentative"], "occ": str | None,
                 "scope": Literal["all", "this"] | None}, defaults={"scope": None}),
    write(cal.move_event, "calendar.move_event",
          "Move an event the user organises to a new start, keeping its length. "
          "Returns the event id (a new id when one occurrence is split off a series).",
          args={"event_id": "The event id.", "start": WHEN,
                "occ": "For a recurring event: the occurrence date (YYYY-MM-DD) being moved.",
                "scope": "`all` moves the whole series; `this` only that occurrence; `following` that "
                         "occurrence and every later one (the series is split there)."},
          types={"start": str, "scope": Literal["all", "this", "following"]}),
    write(update_event, "calendar.update_event",
          args={"event_id": "The event id.", "title": "New title.", "start": WHEN, "end": WHEN + " For an all-day "
                "event, the last day.", "all_day": "Make it an all-day event (true) or a timed one (false).",
                "location": "New location.", "description": "New details.",
                "guests": PEOPLE + " The complete new list (the organiser stays).",
                "recurrence": "New repeat rule: {freq: daily|weekly|monthly, interval: n, until: YYYY-MM-DD | "
                              "count: n, byday: [MO, …]}; {} stops it repeating.",
                "visibility": "`private` hides the details from others.", "color": "An event colour name.",
                "occ": "For a recurring event: the occurrence date (YYYY-MM-DD) the times refer to.",
                "scope": "`all` changes the whole series; `this` only that occurrence; `following` that "
                         "occurrence and every later one (the series ends before it and a new one starts)."}),
    write(cal.delete_event, "calendar.delete_event",
          "Delete an event the user organises (its guests lose it too), or one occurrence of a series.",
          args={"event_id": "The event id.", "occ": "For a recurring event with scope `this`: the occurrence "
                "date (YYYY-MM-DD).", "scope": "`all` deletes the whole series; `this` only that occurrence; "
                "`following` that occurrence and every later one."},
          types={"scope": Literal["all", "this", "following"]}),
]
