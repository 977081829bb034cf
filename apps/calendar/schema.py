"""Calendar tables.

An event (``cal_events``) is on its organizer's calendar and on the calendar
of every guest (``cal_guests``, one row per person with that person's
response; the organizer has a row too, ``accepted`` unless they said
otherwise). Times are UTC; an all-day event runs from world-local midnight of
its first day to world-local midnight after its last day. A recurring event
is one row with a ``recurrence`` rule (expanded when read, see
``service.occurrences``); ``recurrence.exdates`` lists the occurrences that
were deleted or changed on their own ("This event"). An occurrence changed on its own, or answered
on its own by a guest, is an event of its own (an exception: ``series`` names the recurring event,
``series_day`` the date of the occurrence it replaces, and that date is in the series' ``exdates``).
"This and following events" ends the series the day before and starts a new one.

``cal_calendars`` is view state: which other people's calendars a user has
added under "Other calendars", their colour and whether they are shown.
"""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

EVENTS = Table("cal_events", (
    key(),
    content("organizer"),                         # person id (slug)
    content("title", default=""),                 # "" is shown as "(No title)", as in Google Calendar
    content("start", Kind.TIME),
    content("end", Kind.TIME),
    content("all_day", Kind.BOOL, default=False),
    content("location", default=""),
    content("description", default=""),
    content("recurrence", Kind.JSON),             # null | {freq, interval, until|count, byday, exdates}
    content("visibility", default="default"),     # default | private
    content("color", default=""),                 # "" = the calendar's colour, else an event colour name
    content("series", Kind.INT, ref="cal_events"),  # an exception: the recurring event one occurrence of
    content("series_day"),                        # ... which it replaces (that occurrence's date, YYYY-MM-DD)
    content("created_at", Kind.TIME),
    derived("updated_at", Kind.TIME),
), indexes=("organizer", "start"))

GUESTS = Table("cal_guests", (
    key(),
    content("event", Kind.INT, ref="cal_events", link="part"),
    content("person"),                            # person id (slug)
    content("response", default="needs_action"),  # needs_action | accepted | declined | tentative
    content("note", default=""),                  # the guest's note with their response
), indexes=("event", "person"))

CALENDARS = Table("cal_calendars", (
    key(),
    ephemeral("owner"),                           # whose sidebar
    ephemeral("person"),                          # whose calendar is overlaid
    ephemeral("color"),
    ephemeral("shown", Kind.BOOL, default=True),
), indexes=("owner",))

TABLES = (EVENTS, GUESTS, CALENDARS)
