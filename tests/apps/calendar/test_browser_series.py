"""Calendar series in a real browser, as Google Calendar asks: decline one occurrence of a meeting you
were invited to ("RSVP to recurring event": This event), change a series from one occurrence on
("Edit recurring event": This and following events), delete from an occurrence on. State is checked
in the store; what co-workers did is set up through the service layer."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.calendar import service as S
from apps.core.store.db import Caller

pytestmark = pytest.mark.browser


def test_decline_one_occurrence_of_a_series(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        sid = S.create_event(st, Caller("eleanor.vance"), title="Bundle review", start="2026-04-08T14:00",
                             end="2026-04-08T14:30", guests=["alex.chen"], recurrence={"freq": "weekly", "count": 4})
        S.respond(st, Caller("alex.chen", actor="alex.chen"), sid, "accepted")
    page.goto("/calendar/week/2026-04-13")
    page.get_by_role("link", name=re.compile(r"^Bundle review, 2 – 2:30pm, Wednesday, April 15")).click()
    card = page.get_by_role("dialog", name="Bundle review")
    expect(card).to_contain_text("Weekly on Wednesday, 4 times")
    card.get_by_role("button", name="No", exact=True).click()
    ask = page.get_by_role("dialog", name="RSVP to recurring event")
    expect(ask.get_by_role("radio", name="This event")).to_be_checked()
    expect(ask.get_by_role("radio", name="All events")).to_be_visible()
    expect(ask.get_by_role("radio", name="This and following events")).to_have_count(0)
    ask.get_by_role("button", name="OK").click()
    expect(page.get_by_role("status").filter(has_text="You declined")).to_be_visible()
    expect(ask).to_have_count(0)
    expect(page.get_by_role("dialog", name="Bundle review").get_by_role("button", name="No", exact=True)
           ).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("link", name=re.compile(r"^Bundle review, .*April 15, declined"))).to_be_visible()
    with live_slot.store() as st:
        ex = st.one("SELECT * FROM cal_events WHERE series=?", (sid,))
        mine = {g["event"]: g["response"] for g in st.select("cal_guests", "person='alex.chen'")}
        assert st.get("cal_events", sid)["recurrence"]["exdates"] == ["2026-04-15"]
    assert ex["series_day"] == "2026-04-15" and mine[ex["id"]] == "declined" and mine[sid] == "accepted"


def test_edit_this_and_following_events(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        sid = S.create_event(st, Caller("alex.chen"), title="Research hour", start="2026-04-07T10:00",
                             end="2026-04-07T11:00", recurrence={"freq": "weekly", "until": "2026-05-05"})
    page.goto("/calendar/week/2026-04-19")
    page.get_by_role("link", name=re.compile(r"^Research hour, 10 – 11am, Tuesday, April 21")).click()
    page.get_by_role("dialog", name="Research hour").get_by_role("link", name="Edit event").click()
    page.get_by_role("button", name=re.compile("^Start time")).click()
    page.get_by_role("option", name="2:00pm", exact=True).click()
    expect(page.get_by_role("button", name=re.compile("^End time"))).to_have_accessible_name("End time: 3:00pm")
    page.get_by_role("button", name="Save", exact=True).click()
    ask = page.get_by_role("dialog", name="Edit recurring event")
    ask.get_by_role("radio", name="This and following events").check()
    ask.get_by_role("button", name="OK").click()
    expect(page.get_by_role("status").filter(has_text="Event saved")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Research hour, 2 – 3pm, Tuesday, April 21"))).to_be_visible()
    with live_slot.store() as st:
        old = st.get("cal_events", sid)
        [new] = st.select("cal_events", "title='Research hour' AND id<>?", (sid,))
    assert old["recurrence"]["until"] == "2026-04-20" and old["start"] == "2026-04-07T14:00:00Z"
    assert (new["start"], new["end"]) == ("2026-04-21T18:00:00Z", "2026-04-21T19:00:00Z")
    assert new["recurrence"] == {"freq": "weekly", "interval": 1, "until": "2026-05-05"}


def test_delete_this_and_following_events(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        sid = S.create_event(st, Caller("alex.chen"), title="Study group", start="2026-04-09T16:00",
                             end="2026-04-09T17:00", recurrence={"freq": "weekly", "count": 6})
    page.goto("/calendar/week/2026-04-19")
    page.get_by_role("link", name=re.compile(r"^Study group, 4 – 5pm, Thursday, April 23")).click()
    page.get_by_role("dialog", name="Study group").get_by_role("button", name="Delete event").click()
    ask = page.get_by_role("dialog", name="Delete recurring event")
    ask.get_by_role("radio", name="This and following events").check()
    ask.get_by_role("button", name="OK").click()
    expect(page.get_by_role("status").filter(has_text="Event deleted")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Study group"))).to_have_count(0)
    with live_slot.store() as st:
        assert st.get("cal_events", sid)["recurrence"] == {"freq": "weekly", "interval": 1, "until": "2026-04-22"}
