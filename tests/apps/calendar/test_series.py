"""Calendar series, as Google Calendar's "This event / This and following events / All events":
exceptions stored and exported, a series split at an occurrence, deleting from an occurrence on,
and a guest's answer to one occurrence or to the whole series."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from apps.calendar import service as S
from apps.core.errors import Invalid
from apps.core.store.export import export
from tests.apps.calendar.test_service import ALEX, ELEANOR, build, eid

WEEKLY = """
events:
  - title: Weekly sync
    start: "2026-04-07T10:00"
    end: "2026-04-07T10:30"
    organizer: alex.chen
    guests: {eleanor.vance: accepted, priya.raman: needs_action}
    recurrence: {freq: weekly, byday: [TU], until: "2026-05-26"}
  - title: Counted
    start: "2026-04-08T15:00"
    end: "2026-04-08T16:00"
    organizer: eleanor.vance
    guests: {alex.chen: needs_action}
    recurrence: {freq: weekly, count: 6}
"""


@pytest.fixture
def cal(tmp_path, world):
    return build(tmp_path, world, WEEKLY)


def occ_list(st, user, title_like="%"):
    """(date, 'HH:MM', title) of every occurrence on the user's calendar, April 1 – June 30."""
    out = []
    for o in S.events_between(st, user, "2026-04-01", "2026-07-01"):
        out.append((o["start"].date().isoformat(), o["start"].strftime("%H:%M"), o["title"]))
    return sorted(out)


def answers(st, user, title):
    """occurrence date -> the user's answer, across the series and its exceptions."""
    return {o["start"].date().isoformat(): o["response"] for o in S.events_between(st, user, "2026-04-01", "2026-07-01")
            if o["title"] == title}


def test_this_and_following_splits_the_series(cal):
    sid = eid(cal, "Weekly sync")
    new = S.update_event(cal, ALEX, sid, occ="2026-04-21", scope="following", start="2026-04-21T14:00")
    assert new != sid
    old, nxt = cal.get("cal_events", sid), cal.get("cal_events", new)
    assert old["recurrence"]["until"] == "2026-04-20"
    assert nxt["recurrence"] == {"freq": "weekly", "interval": 1, "until": "2026-05-26", "byday": ["TU"]}
    assert (nxt["start"], nxt["end"]) == ("2026-04-21T18:00:00Z", "2026-04-21T18:30:00Z")
    times = [(d, t) for d, t, title in occ_list(cal, "alex.chen") if title == "Weekly sync"]
    assert times[:3] == [("2026-04-07", "10:00"), ("2026-04-14", "10:00"), ("2026-04-21", "14:00")]
    assert times[-1] == ("2026-05-26", "14:00") and len(times) == 8
    # the guests come along with their answers
    assert {g["person"]: g["response"] for g in S.guest_rows(cal, new)} == {
        "alex.chen": "accepted", "eleanor.vance": "accepted", "priya.raman": "needs_action"}


def test_following_from_the_first_occurrence_is_the_whole_series(cal):
    sid = eid(cal, "Weekly sync")
    assert S.update_event(cal, ALEX, sid, occ="2026-04-07", scope="following", title="Sync") == sid
    assert cal.scalar("SELECT count(*) FROM cal_events WHERE title='Sync'") == 1


def test_following_keeps_the_remaining_count_and_moves_exceptions(cal):
    cid = eid(cal, "Counted")                      # Wednesdays Apr 8 … May 13
    one = S.update_event(cal, ELEANOR, cid, occ="2026-05-06", scope="this", title="Counted (moved room)")
    new = S.update_event(cal, ELEANOR, cid, occ="2026-04-22", scope="following", start="2026-04-23T15:00")
    assert cal.get("cal_events", new)["recurrence"]["count"] == 4           # Apr 22, 29, May 6, 13 remain
    assert cal.get("cal_events", new)["recurrence"]["exdates"] == ["2026-05-07"]
    ex = cal.get("cal_events", one)
    assert (ex["series"], ex["series_day"]) == (new, "2026-05-07")          # the exception follows its series
    days = sorted(d for d, _, t in occ_list(cal, "eleanor.vance") if t.startswith("Counted"))
    assert days == ["2026-04-08", "2026-04-15", "2026-04-23", "2026-04-30", "2026-05-06", "2026-05-14"]


def test_this_event_is_an_exception_exported_with_the_store(cal):
    sid = eid(cal, "Weekly sync")
    one = S.update_event(cal, ALEX, sid, occ="2026-04-14", scope="this", start="2026-04-14T11:00")
    row = cal.get("cal_events", one)
    assert (row["series"], row["series_day"], row["recurrence"]) == (sid, "2026-04-14", None)
    assert cal.get("cal_events", sid)["recurrence"]["exdates"] == ["2026-04-14"]
    rec = export(cal)["tables"]["cal_events"]["records"][str(one)]
    assert (rec["series"], rec["series_day"]) == (sid, "2026-04-14")
    assert S.get_event(cal, "alex.chen", one)["series_text"] == "Weekly on Tuesday, until May 26, 2026"


def test_delete_this_and_following(cal):
    sid = eid(cal, "Weekly sync")
    later = S.update_event(cal, ALEX, sid, occ="2026-05-12", scope="this", title="Sync at the client")
    S.delete_event(cal, ALEX, sid, occ="2026-05-05", scope="following")
    assert cal.get("cal_events", sid)["recurrence"]["until"] == "2026-05-04"
    assert cal.get("cal_events", later) is None                             # its exceptions after go too
    assert not S.guest_rows(cal, later)
    days = [d for d, _, t in occ_list(cal, "alex.chen") if "ync" in t]
    assert days[-1] == "2026-04-28" and len(days) == 4


def test_delete_all_takes_the_exceptions(cal):
    sid = eid(cal, "Weekly sync")
    one = S.update_event(cal, ALEX, sid, occ="2026-04-14", scope="this", title="Moved")
    S.delete_event(cal, ALEX, sid, scope="all")
    assert cal.get("cal_events", sid) is None and cal.get("cal_events", one) is None


def test_rsvp_one_occurrence_then_all(cal):
    cid = eid(cal, "Counted")
    S.respond(cal, ALEX, cid, "accepted")                                    # the whole series
    assert set(answers(cal, "alex.chen", "Counted").values()) == {"accepted"}
    assert S.respond(cal, ALEX, cid, "declined", "Out that day", occ="2026-04-22", scope="this")
    got = answers(cal, "alex.chen", "Counted")
    assert got.pop("2026-04-22") == "declined" and set(got.values()) == {"accepted"} and len(got) == 5
    ex = cal.one("SELECT * FROM cal_events WHERE series=?", (cid,))
    assert ex["series_day"] == "2026-04-22"
    assert {g["person"]: (g["response"], g["note"]) for g in S.guest_rows(cal, ex["id"])} == {
        "eleanor.vance": ("accepted", ""), "alex.chen": ("declined", "Out that day")}
    # without a scope, the occurrence answered on its own is answered alone (as the tools call it)
    S.respond(cal, ALEX, ex["id"], "tentative")
    got = answers(cal, "alex.chen", "Counted")
    assert got.pop("2026-04-22") == "tentative" and set(got.values()) == {"accepted"}
    # answering all events from the exception's card answers the series and the exception
    S.respond(cal, ALEX, ex["id"], "tentative", scope="all")
    assert set(answers(cal, "alex.chen", "Counted").values()) == {"tentative"}


def test_bad_scopes_are_named(cal):
    sid, cid = eid(cal, "Weekly sync"), eid(cal, "Counted")
    with pytest.raises(Invalid) as e:
        S.respond(cal, ALEX, cid, "accepted", occ="2026-04-22", scope="following")
    assert e.value.field == "scope"
    with pytest.raises(Invalid) as e:
        S.update_event(cal, ALEX, sid, occ="2026-04-21", scope="some", title="x")
    assert e.value.field == "scope"
    with pytest.raises(Invalid) as e:
        S.update_event(cal, ALEX, sid, scope="following", title="x")
    assert e.value.field == "occ"
    with pytest.raises(Invalid) as e:
        S.respond(cal, ALEX, cid, "accepted", scope="this")
    assert e.value.field == "occ"
    assert cal.scalar("SELECT count(*) FROM cal_events") == 2
