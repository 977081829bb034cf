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

The package re-exports its modules' public names, so ``service.X`` is the API:
``base`` (constants, times, text and people shared by the others), ``recurrence``,
``reading``, ``writing``, ``series`` (exceptions, this and following) and ``others`` (other people's
calendars in the list).
"""
from apps.calendar.service.base import (DAY_NAMES, DAYS, EVENT_COLORS, FREQS, MAX_COUNT, MAX_NOTE, MAX_TEXT,
                                        MAX_TITLE, MY_COLOR, NO_TITLE, OTHER_COLORS, RESPONSE_NAMES, RESPONSES, RSVP,
                                        VISIBILITIES, local_day, local_dt, person_id, person_name, today)
from apps.calendar.service.others import add_calendar, remove_calendar, set_shown, shown_calendars
from apps.calendar.service.reading import (busy, calendars, events_between, find_times, get_event, guest_rows,
                                           invitations, list_calendars, search)
from apps.calendar.service.recurrence import (clean_recurrence, occurrence_dates, occurrences, recurrence_text,
                                              recurrence_text_for)
from apps.calendar.service.series import SCOPES, exceptions
from apps.calendar.service.writing import create_event, delete_event, move_event, respond, update_event
from apps.calendar.service.writing import clean_fields, clean_times

__all__ = [
    "clean_fields", "clean_times",
    "DAY_NAMES", "DAYS", "EVENT_COLORS", "FREQS", "MAX_COUNT", "MAX_NOTE", "MAX_TEXT", "MAX_TITLE", "MY_COLOR",
    "NO_TITLE", "OTHER_COLORS", "RESPONSE_NAMES", "RESPONSES", "RSVP", "VISIBILITIES", "add_calendar",
    "SCOPES", "busy", "calendars", "clean_recurrence", "create_event", "delete_event", "events_between",
    "exceptions", "find_times", "get_event", "guest_rows", "invitations", "list_calendars", "local_day", "local_dt",
    "move_event", "occurrence_dates", "occurrences", "person_id", "person_name", "recurrence_text",
    "recurrence_text_for", "remove_calendar", "respond", "search", "set_shown", "shown_calendars", "today",
    "update_event",
]
