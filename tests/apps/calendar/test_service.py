"""Calendar service: seeding from calendar.yaml, recurrence expansion, free/busy and find a time
(hand-computed), responses, visibility of private events, edits by the organizer only, bad input.

Most tests run on a small world of their own (meridian's people, a calendar.yaml written here),
so the expectations don't move when the meridian calendar changes."""
from __future__ import annotations

import shutil
import sqlite3
from datetime import date, datetime

import pytest

from apps.calendar import seed
from apps.calendar import service as S
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.compile import seed_core
from apps.core.store.db import Caller, Store, utc_iso
from apps.core.store.export import content_changes, diff, export
from apps.core.world import WorldError, load_world
from apps.core.registry import all_tables

ALEX, ELEANOR, PRIYA, ROBERT = (Caller(user=u) for u in ("alex.chen", "eleanor.vance", "priya.raman", "robert.hale"))

# World clock: Monday 2026-04-06 09:00 America/New_York (EDT, UTC-4).
CALENDAR = """
events:
  - title: Case team standup
    start: "2026-04-06T09:30"
    end: "2026-04-06T09:45"
    organizer: eleanor.vance
    guests: {alex.chen: accepted, priya.raman: declined, robert.hale: needs_action}
    recurrence: {freq: weekly, byday: [MO, WE, FR], until: "2026-04-15"}
  - title: Strategy
    start: "2026-04-06T09:40"
    end: "2026-04-06T10:30"
    organizer: alex.chen
    guests: {eleanor.vance: tentative}
  - title: Partner lunch
    start: "2026-04-06T11:00"
    end: "2026-04-06T12:00"
    organizer: eleanor.vance
    guests: {alex.chen: declined}
  - title: Filing deadline
    start: 2026-04-06
    organizer: alex.chen
  - title: Dentist
    start: "2026-04-06T11:00"
    end: "2026-04-06T11:30"
    organizer: priya.raman
    visibility: private
    description: Root canal
  - title: Conference
    start: 2026-04-08
    end: 2026-04-10
    all_day: true
    organizer: priya.raman
    location: Boston
"""


def build(tmp_path, world, text: str = CALENDAR) -> Store:
    root = tmp_path / "w"
    root.mkdir(exist_ok=True)
    shutil.copy(world.root / "world.yaml", root / "world.yaml")
    (root / "calendar.yaml").write_text(text, encoding="utf-8")
    w = load_world(root)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.row_factory = sqlite3.Row
    st = Store.create(conn, all_tables())
    for k, v in {"world": "t", "timezone": w.spec.clock.timezone, "clock": utc_iso(w.start),
                 "default_user": w.spec.user}.items():
        st.set_meta(k, v)
    seed_core(st, w)
    seed.seed(st, w)
    return st


@pytest.fixture
def cal(tmp_path, world):
    return build(tmp_path, world)


def eid(st, title):
    return st.scalar("SELECT id FROM cal_events WHERE title=?", (title,))


def hm(dt: datetime) -> str:
    return dt.strftime("%m-%d %H:%M")


def spans(pairs):
    return [(hm(s), hm(e)) for s, e in pairs]


def writes(st):
    return st.scalar("SELECT count(*) FROM _writes")


# ---------------------------------------------------------------- seed
def test_seed_stores_utc_times_guests_and_responses(cal):
    ev = cal.get("cal_events", eid(cal, "Case team standup"))
    assert ev["start"] == "2026-04-06T13:30:00Z" and ev["end"] == "2026-04-06T13:45:00Z"
    assert ev["recurrence"] == {"freq": "weekly", "interval": 1, "until": "2026-04-15", "byday": ["MO", "WE", "FR"]}
    guests = {g["person"]: g["response"] for g in S.guest_rows(cal, ev["id"])}
    assert guests == {"eleanor.vance": "accepted", "alex.chen": "accepted", "priya.raman": "declined",
                      "robert.hale": "needs_action"}
    day = cal.get("cal_events", eid(cal, "Filing deadline"))       # all day: local midnight to midnight
    assert (day["start"], day["end"], day["all_day"]) == ("2026-04-06T04:00:00Z", "2026-04-07T04:00:00Z", True)
    conf = cal.get("cal_events", eid(cal, "Conference"))             # end is the last day, inclusive
    assert (conf["start"], conf["end"]) == ("2026-04-08T04:00:00Z", "2026-04-11T04:00:00Z")
    got = S.get_event(cal, "alex.chen", ev["id"])
    assert got["recurrence_text"] == "Weekly on Monday, Wednesday, Friday, until Apr 15, 2026"
    assert [g["person"] for g in got["guests"]][0] == "eleanor.vance" and got["guests"][0]["organizer"]
    assert got["counts"] == {"yes": 2, "no": 1, "maybe": 0, "awaiting": 1}


@pytest.mark.parametrize("event,needle", [
    ("{title: X, start: '2026-04-06T09:00', end: '2026-04-06T10:00', organizer: nobody.here}",
     "events.0.organizer: 'nobody.here' is not a person"),
    ("{title: X, start: '2026-04-06T09:00', end: '2026-04-06T10:00', organizer: alex.chen, guests: {ghost: accepted}}",
     "events.0.guests: 'ghost' is not a person"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T09:00', organizer: alex.chen}",
     "events.0.end: The event ends before it starts."),
    ("{title: X, start: '2026-04-06T10:00', organizer: alex.chen}", "events.0.end: required"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T11:00', organizer: alex.chen, recurrence: {freq: yearly}}",
     "events.0.recurrence.freq"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T11:00', organizer: alex.chen,"
     " recurrence: {freq: weekly, until: '2026-04-01'}}", "events.0.recurrence: The repeat end date is before"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T11:00', organizer: alex.chen,"
     " recurrence: {freq: daily, count: 3, until: '2026-05-01'}}", "not both"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T11:00', organizer: alex.chen, colour: red}",
     "events.0.colour: Extra inputs are not permitted"),
    ("{title: X, start: '2026-04-06T10:00', end: '2026-04-06T11:00', organizer: alex.chen, guests: {priya.raman: maybe}}",
     "events.0.guests.priya.raman"),
])
def test_seed_errors_name_file_and_field(tmp_path, world, event, needle):
    with pytest.raises(WorldError) as e:
        build(tmp_path, world, f"events:\n  - {event}\n")
    assert "calendar.yaml" in str(e.value) and needle in str(e.value)


def test_no_calendar_file_is_an_empty_calendar(tmp_path, world):
    st = build(tmp_path, world, "events: []\n")
    assert st.scalar("SELECT count(*) FROM cal_events") == 0
    (tmp_path / "w" / "calendar.yaml").unlink()
    seed.seed(st, load_world(tmp_path / "w"))
    assert st.scalar("SELECT count(*) FROM cal_events") == 0


# ---------------------------------------------------------------- recurrence
def occ_days(st, ev_id, start="2026-01-01", end="2026-12-31"):
    ev = st.get("cal_events", ev_id)
    return [o[1].strftime("%Y-%m-%d %H:%M") for o in S.occurrences(st, ev, S.local_dt(st, start), S.local_dt(st, end))]


def test_weekly_by_day_until_inclusive(cal):
    assert occ_days(cal, eid(cal, "Case team standup")) == [
        "2026-04-06 09:30", "2026-04-08 09:30", "2026-04-10 09:30", "2026-04-13 09:30", "2026-04-15 09:30"]


@pytest.mark.parametrize("rec,start,expected", [
    ({"freq": "daily", "count": 3}, "2026-04-06T09:00", ["04-06", "04-07", "04-08"]),
    ({"freq": "daily", "interval": 3, "until": "2026-04-15"}, "2026-04-06T09:00", ["04-06", "04-09", "04-12", "04-15"]),
    ({"freq": "weekly", "interval": 2, "byday": ["TU"], "count": 3}, "2026-04-07T09:00", ["04-07", "04-21", "05-05"]),
    ({"freq": "weekly", "byday": ["MO", "TU", "WE", "TH", "FR"], "count": 6}, "2026-04-09T09:00",
     ["04-09", "04-10", "04-13", "04-14", "04-15", "04-16"]),
    ({"freq": "monthly", "count": 4}, "2026-01-31T09:00", ["01-31", "03-31", "05-31", "07-31"]),   # no Feb 31
    ({"freq": "monthly", "until": "2026-06-06"}, "2026-04-06T09:00", ["04-06", "05-06", "06-06"]),
    ({"freq": "daily", "count": 4, "exdates": ["2026-04-07"]}, "2026-04-06T09:00", ["04-06", "04-08", "04-09"]),
])
def test_recurrence_expansion(cal, rec, start, expected):
    e = S.create_event(cal, ALEX, title="R", start=start, end=start[:11] + "09:30", recurrence=rec)
    assert [d[5:10] for d in occ_days(cal, e)] == expected


def test_recurrence_keeps_local_time_across_dst(cal):
    e = S.create_event(cal, ALEX, title="R", start="2026-03-06T09:00", end="2026-03-06T10:00",
                       recurrence={"freq": "daily", "count": 4})
    ev = cal.get("cal_events", e)
    occ = S.occurrences(cal, ev, S.local_dt(cal, "2026-03-01"), S.local_dt(cal, "2026-03-31"))
    assert [hm(s) for _, s, _ in occ] == ["03-06 09:00", "03-07 09:00", "03-08 09:00", "03-09 09:00"]
    assert [utc_iso(s) for _, s, _ in occ][2:] == ["2026-03-08T13:00:00Z", "2026-03-09T13:00:00Z"]   # EST -> EDT


def test_events_between_expands_and_windows(cal):
    evs = S.events_between(cal, "alex.chen", "2026-04-06", "2026-04-13")
    assert [(o["title"], o["occ"], hm(o["start"])) for o in evs] == [
        ("Filing deadline", None, "04-06 00:00"), ("Case team standup", "2026-04-06", "04-06 09:30"),
        ("Strategy", None, "04-06 09:40"), ("Partner lunch", None, "04-06 11:00"),
        ("Case team standup", "2026-04-08", "04-08 09:30"), ("Case team standup", "2026-04-10", "04-10 09:30")]
    assert {o["response"] for o in evs if o["title"] == "Partner lunch"} == {"declined"}
    late = S.events_between(cal, "alex.chen", "2026-04-14T00:00", "2026-04-30T00:00")
    assert [(o["title"], o["occ"]) for o in late] == [("Case team standup", "2026-04-15")]


# ---------------------------------------------------------------- free/busy and find a time
def test_busy_merges_clips_and_skips_declined_and_all_day(cal):
    b = S.busy(cal, ["alex.chen", "priya.raman", "eleanor.vance"], "2026-04-06T09:00", "2026-04-06T18:00")
    # Alex: standup 9:30-9:45 + Strategy 9:40-10:30 merge; lunch declined; the filing deadline is all day
    assert spans(b["alex.chen"]) == [("04-06 09:30", "04-06 10:30")]
    # Priya declined the standup; her private dentist appointment still blocks
    assert spans(b["priya.raman"]) == [("04-06 11:00", "04-06 11:30")]
    # Eleanor: standup, Strategy (tentative blocks), lunch
    assert spans(b["eleanor.vance"]) == [("04-06 09:30", "04-06 10:30"), ("04-06 11:00", "04-06 12:00")]
    clipped = S.busy(cal, ["alex.chen"], datetime(2026, 4, 6, 10, 0), datetime(2026, 4, 8, 9, 35))
    assert spans(clipped["alex.chen"]) == [("04-06 10:00", "04-06 10:30"), ("04-08 09:30", "04-08 09:35")]
    assert str(clipped["alex.chen"][0][0].tzinfo) == "America/New_York"
    with pytest.raises(Invalid):
        S.busy(cal, ["nobody"], "2026-04-06T09:00", "2026-04-06T18:00")


def test_find_times_hand_computed(cal):
    got = S.find_times(cal, ["alex.chen", "priya.raman"], date(2026, 4, 4), date(2026, 4, 7), 60,
                       work_start=9, work_end=12)
    # Sat/Sun skipped; Monday: 9:00-10:30 Alex, 11:00-11:30 Priya -> no free hour between 9 and 12;
    # Tuesday is free all morning.
    assert spans(got) == [("04-07 09:00", "04-07 10:00"), ("04-07 09:30", "04-07 10:30"),
                          ("04-07 10:00", "04-07 11:00"), ("04-07 10:30", "04-07 11:30"),
                          ("04-07 11:00", "04-07 12:00")]
    got = S.find_times(cal, ["alex.chen"], date(2026, 4, 6), date(2026, 4, 6), 30, work_start=9, work_end=12)
    assert spans(got) == [("04-06 09:00", "04-06 09:30"), ("04-06 10:30", "04-06 11:00"),
                          ("04-06 11:00", "04-06 11:30"), ("04-06 11:30", "04-06 12:00")]
    cal.advance(3600)                                    # 10:00: nothing before now is suggested
    got = S.find_times(cal, ["alex.chen"], date(2026, 4, 6), date(2026, 4, 6), 30, work_start=9, work_end=12)
    assert spans(got)[0] == ("04-06 10:30", "04-06 11:00")


def test_respond_is_per_guest_and_guests_only(cal):
    e = eid(cal, "Case team standup")
    assert S.respond(cal, ROBERT, e, "tentative", "  Running late  ") is True
    rows = {g["person"]: (g["response"], g["note"]) for g in S.guest_rows(cal, e)}
    assert rows["robert.hale"] == ("tentative", "Running late") and rows["alex.chen"] == ("accepted", "")
    assert S.respond(cal, ROBERT, e, "tentative", "Running late") is False          # unchanged: no write
    assert S.invitations(cal, "robert.hale") == []
    with pytest.raises(Forbidden):
        S.respond(cal, Caller(user="daniel.ortiz"), e, "accepted")
    with pytest.raises(Invalid):
        S.respond(cal, ROBERT, e, "maybe")
    with pytest.raises(NotFound):
        S.respond(cal, ROBERT, 9999, "accepted")
    last = cal.one("SELECT actor FROM _writes ORDER BY seq DESC")["actor"]
    assert last == "agent"


def test_private_events_show_as_busy_to_others(cal):
    d = eid(cal, "Dentist")
    with pytest.raises(NotFound):
        S.get_event(cal, "alex.chen", d)
    assert S.get_event(cal, "priya.raman", d)["description"] == "Root canal"
    evs = S.events_between(cal, "alex.chen", "2026-04-06", "2026-04-07", ["alex.chen", "priya.raman"])
    dentist = [o for o in evs if o["id"] == d]
    assert len(dentist) == 1 and dentist[0]["title"] == "busy" and dentist[0]["busy_only"]
    assert dentist[0]["location"] == "" and dentist[0]["calendar"] == "priya.raman"
    conf = [o for o in S.events_between(cal, "alex.chen", "2026-04-08", "2026-04-09", ["priya.raman"])]
    assert [(o["title"], o["busy_only"]) for o in conf] == [("Conference", False)]


def test_reading_writes_nothing(cal):
    n = writes(cal)
    S.events_between(cal, "alex.chen", "2026-04-01", "2026-05-01", ["alex.chen", "priya.raman"])
    S.get_event(cal, "alex.chen", eid(cal, "Case team standup"), "2026-04-08")
    S.busy(cal, ["alex.chen"], "2026-04-06", "2026-04-07")
    S.find_times(cal, ["alex.chen"], date(2026, 4, 6), date(2026, 4, 10), 30)
    S.invitations(cal, "robert.hale")
    S.search(cal, "alex.chen", "standup")
    assert writes(cal) == n


# ---------------------------------------------------------------- create, update, move, delete
def test_create_event_invites_guests_and_validates(cal):
    n = writes(cal)
    e = S.create_event(cal, ALEX, title="  Sync  ", start="2026-04-07T14:00", end="2026-04-07T14:30",
                       guests=["priya.raman", "eleanor.vance@meridianshaw.com", "priya.raman", "alex.chen"],
                       location="Room 4")
    ev = S.get_event(cal, "alex.chen", e)
    assert ev["title"] == "Sync" and ev["organizer"] == "alex.chen" and ev["can_edit"]
    assert [(g["person"], g["response"]) for g in ev["guests"]] == [
        ("alex.chen", "accepted"), ("priya.raman", "needs_action"), ("eleanor.vance", "needs_action")]
    assert [i["title"] for i in S.invitations(cal, "priya.raman")] == ["Sync"]
    assert cal.scalar("SELECT count(DISTINCT actor) FROM _writes WHERE seq>?", (n,)) == 1
    untitled = S.create_event(cal, ALEX, title="", start=datetime(2026, 4, 7, 15, 0), end=datetime(2026, 4, 7, 16, 0))
    assert cal.get("cal_events", untitled)["title"] == "" and S.get_event(cal, "alex.chen", untitled)["display_title"] == "(No title)"

    n = writes(cal)
    bad = [
        (dict(start="2026-04-07T14:00", end="2026-04-07T13:00"), "end", "ends before it starts"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T14:00"), "end", "ends before it starts"),
        (dict(start="tomorrow", end="2026-04-07T14:00"), "start", "not a date"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T15:00", guests=["someone@else.com"]), "guests", "not in the directory"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T15:00", recurrence={"freq": "hourly"}), "recurrence", "daily, weekly or monthly"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T15:00", recurrence={"freq": "daily", "count": 0}), "recurrence", "1 to 730"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T15:00", recurrence={"freq": "daily", "byday": ["MO"]}), "recurrence", "weekly repeats only"),
        (dict(start="2026-04-07T14:00", end="2026-04-07T15:00", visibility="secret"), "visibility", "Visibility"),
        (dict(start="2026-04-07", end="2026-04-06", all_day=True), "end", "ends before it starts"),
    ]
    for kw, field, text in bad:
        with pytest.raises(Invalid) as err:
            S.create_event(cal, ALEX, title="Bad", **kw)
        assert err.value.field == field and text in err.value.message, kw
    assert writes(cal) == n                                           # nothing written on error


def test_only_the_organizer_edits_moves_or_deletes(cal):
    e = eid(cal, "Case team standup")
    n = writes(cal)
    for call in (lambda: S.update_event(cal, ALEX, e, title="Mine now"),
                 lambda: S.move_event(cal, ALEX, e, "2026-04-06T10:00"),
                 lambda: S.delete_event(cal, ALEX, e)):
        with pytest.raises(Forbidden):
            call()
    with pytest.raises(NotFound):
        S.update_event(cal, ALEX, eid(cal, "Dentist"), title="x")         # another user's private event
    assert writes(cal) == n


def test_update_keeps_responses_and_invites_new_guests(cal):
    e = eid(cal, "Case team standup")
    S.update_event(cal, ELEANOR, e, title="Standup", guests=["alex.chen", "daniel.ortiz"])
    rows = {g["person"]: g["response"] for g in S.guest_rows(cal, e)}
    assert rows == {"eleanor.vance": "accepted", "alex.chen": "accepted", "daniel.ortiz": "needs_action"}
    assert cal.get("cal_events", e)["recurrence"]["byday"] == ["MO", "WE", "FR"]
    before = export(cal)
    S.update_event(cal, ELEANOR, e, title="Standup", location="")          # saving unchanged writes nothing
    assert content_changes(diff(before, export(cal))) == []


def test_move_single_and_recurring(cal):
    s = eid(cal, "Strategy")
    S.move_event(cal, ALEX, s, "2026-04-07T15:15")
    ev = cal.get("cal_events", s)
    assert (ev["start"], ev["end"]) == ("2026-04-07T19:15:00Z", "2026-04-07T20:05:00Z")   # keeps 50 minutes
    st = eid(cal, "Case team standup")
    # this event: the Wednesday occurrence becomes an event of its own, with the same guests and responses
    new = S.move_event(cal, ELEANOR, st, "2026-04-08T11:00", occ="2026-04-08", scope="this")
    assert new != st
    assert cal.get("cal_events", st)["recurrence"]["exdates"] == ["2026-04-08"]
    moved = S.get_event(cal, "alex.chen", new)
    assert hm(moved["start"]) == "04-08 11:00" and hm(moved["end"]) == "04-08 11:15" and not moved["recurring"]
    assert {g["person"]: g["response"] for g in moved["guests"]}["priya.raman"] == "declined"
    # all events: dragging Friday's occurrence to Thursday 10:00 shifts the whole series by -1 day +30 min
    S.move_event(cal, ELEANOR, st, "2026-04-09T10:00", occ="2026-04-10", scope="all")
    rec = cal.get("cal_events", st)["recurrence"]
    assert rec["byday"] == ["TU", "TH", "SU"] and rec["exdates"] == ["2026-04-07"] and rec["until"] == "2026-04-15"
    assert occ_days(cal, st) == ["2026-04-05 10:00", "2026-04-09 10:00", "2026-04-12 10:00", "2026-04-14 10:00"]
    assert hm(S.get_event(cal, "alex.chen", st)["start"]) == "04-05 10:00"


def test_delete_this_occurrence_or_all(cal):
    st = eid(cal, "Case team standup")
    S.delete_event(cal, ELEANOR, st, occ="2026-04-13", scope="this")
    assert "2026-04-13 09:30" not in occ_days(cal, st) and len(occ_days(cal, st)) == 4
    with pytest.raises(NotFound):
        S.delete_event(cal, ELEANOR, st, occ="2026-04-14", scope="this")   # no occurrence that day
    S.delete_event(cal, ELEANOR, st)
    assert cal.get("cal_events", st) is None and S.guest_rows(cal, st) == []
    with pytest.raises(NotFound):
        S.get_event(cal, "alex.chen", st)


def test_other_calendars_are_view_state(cal):
    before = export(cal)
    assert S.add_calendar(cal, ALEX, "priya.raman@meridianshaw.com") == "priya.raman"
    assert S.add_calendar(cal, ALEX, "Priya Raman") == "priya.raman"              # again: no duplicate
    S.set_shown(cal, ALEX, "alex.chen", False)
    assert [(c["person"], c["shown"]) for c in S.calendars(cal, "alex.chen")] == [("alex.chen", False), ("priya.raman", True)]
    assert S.shown_calendars(cal, "alex.chen") == ["priya.raman"]
    assert content_changes(diff(before, export(cal))) == []
    with pytest.raises(Invalid):
        S.add_calendar(cal, ALEX, "alex.chen")
    with pytest.raises(Invalid):
        S.add_calendar(cal, ALEX, "stranger@example.com")
    S.remove_calendar(cal, ALEX, "priya.raman")
    with pytest.raises(NotFound):
        S.remove_calendar(cal, ALEX, "priya.raman")
