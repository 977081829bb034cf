"""Calendar from ``worlds/<w>/calendar.yaml`` (optional; see worlds/README.md).

```yaml
events:
  - title: "Hearing on the limitation fund"
    start: "2026-04-22T10:00"        # world-local; an all-day event gives a date "2026-05-29"
    end: "2026-04-22T12:00"          # required with a time; for all-day the LAST day (inclusive), default = start
    all_day: false                   # default: true when start is a date
    location: "…"
    description: "…"
    organizer: eleanor.vance         # person id; the event is on the organizer's calendar
    guests: {alex.chen: accepted, priya.raman: tentative, robert.hale: needs_action}
    recurrence: {freq: weekly, interval: 1, until: "2026-06-30", byday: [MO]}   # or count: n
    visibility: default              # default | private
    color: ""                        # optional event colour (tomato, sage, grape, …)
```

The organizer is on the event with ``accepted`` unless ``guests`` gives them
another response. Errors name the file and the field.
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from apps.calendar import service
from apps.core.errors import Invalid
from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_yaml, validation_message

Response = Literal["needs_action", "accepted", "declined", "tentative"]


class RecurrenceSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    freq: Literal["daily", "weekly", "monthly"]
    interval: int = 1
    until: date | None = None
    count: int | None = None
    byday: list[Literal["MO", "TU", "WE", "TH", "FR", "SA", "SU"]] | None = None
    exdates: list[date] = []


class EventSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    start: datetime | date | str
    end: datetime | date | str | None = None
    all_day: bool | None = None
    location: str = ""
    description: str = ""
    organizer: str
    guests: dict[str, Response] = {}
    recurrence: RecurrenceSpec | None = None
    visibility: Literal["default", "private"] = "default"
    color: str = ""


class CalendarFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    events: list[EventSpec] = []


def _is_date(v: object) -> bool:
    return (isinstance(v, date) and not isinstance(v, datetime)) or (isinstance(v, str) and len(v.strip()) == 10)


def seed(store: Store, world: World) -> None:
    path = world.root / "calendar.yaml"
    if not path.is_file():
        return
    try:
        spec = CalendarFile.model_validate(load_yaml(path) or {})
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None
    now = store.now_iso()
    for i, ev in enumerate(spec.events):
        where = f"{path}: events.{i}"
        if ev.organizer not in world.people:
            raise WorldError(f"{where}.organizer: {ev.organizer!r} is not a person in the world")
        for p in ev.guests:
            if p not in world.people:
                raise WorldError(f"{where}.guests: {p!r} is not a person in the world")
        all_day = _is_date(ev.start) if ev.all_day is None else ev.all_day
        if not all_day and _is_date(ev.start):
            raise WorldError(f"{where}.start: an event with a time needs a date and time (or all_day: true)")
        if not all_day and ev.end is None:
            raise WorldError(f"{where}.end: required for an event with a time")
        try:
            s, e = service.clean_times(store, ev.start, ev.end, all_day)
        except Invalid as err:
            field = "end" if err.field == "end" else "start"
            raise WorldError(f"{where}.{field}: {err.message}") from None
        try:
            rec = service.clean_recurrence(ev.recurrence.model_dump(exclude_none=True) if ev.recurrence else None,
                                           s.date())
        except Invalid as err:
            raise WorldError(f"{where}.recurrence: {err.message}") from None
        try:
            fields = service.clean_fields(store, title=ev.title, location=ev.location, description=ev.description,
                                     visibility=ev.visibility, color=ev.color)
        except Invalid as err:
            raise WorldError(f"{where}.{err.field}: {err.message}") from None
        eid = store.insert("cal_events", SYSTEM, organizer=ev.organizer, start=utc_iso(s), end=utc_iso(e),
                           all_day=all_day, recurrence=rec, created_at=now, updated_at=now, **fields)
        store.insert("cal_guests", SYSTEM, event=eid, person=ev.organizer,
                     response=ev.guests.get(ev.organizer, "accepted"), note="")
        for p, response in ev.guests.items():
            if p != ev.organizer:
                store.insert("cal_guests", SYSTEM, event=eid, person=p, response=response, note="")
