"""Calendar in a real browser: click a slot and type a title, open an event and RSVP, drag an event to
another slot, add a guest in the full form and see their free/busy. State is checked in the store;
what co-workers did is set up through the service layer, never through a route."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.calendar import service as S
from apps.core.store.db import Caller

pytestmark = pytest.mark.browser

WEEK = "/calendar/week/2026-04-06"
HOUR = 48


def events(slot, title):
    with slot.store() as st:
        return st.select("cal_events", "title=?", (title,))


def slot_point(page, day: str, hour: float):
    """Viewport coordinates of a time in a day column of the week grid."""
    box = page.locator(f".cal-view .cal-col[data-date='{day}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + hour * HOUR


def test_click_a_slot_type_a_title_and_save(desk, live_slot):
    page = desk
    page.goto(WEEK)
    x, y = slot_point(page, "2026-04-05", 14.25)                   # Sunday 2:15 PM: the 2:00 half hour
    page.mouse.click(x, y)
    pop = page.get_by_role("dialog", name="Create event")
    expect(pop).to_contain_text("Sunday, April 5 ⋅ 2 – 2:30pm")
    expect(page.locator(".cal-ev.placeholder")).to_have_count(1)
    page.keyboard.type("Draft the objection")
    pop.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Event saved")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Draft the objection, 2 – 2:30pm, Sunday, April 5"))).to_be_visible()
    [ev] = events(live_slot, "Draft the objection")
    assert (ev["start"], ev["end"], ev["organizer"]) == ("2026-04-05T18:00:00Z", "2026-04-05T18:30:00Z", "alex.chen")


def test_open_an_event_and_rsvp(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        eid = S.create_event(st, Caller("eleanor.vance"), title="Fund hearing prep", start="2026-04-11T10:00",
                             end="2026-04-11T11:30", guests=["alex.chen", "priya.raman"], location="Room 12A")
        S.respond(st, Caller("priya.raman", actor="priya.raman"), eid, "accepted")   # a co-worker already answered
    page.goto(WEEK)
    chip = page.get_by_role("link", name=re.compile(r"^Fund hearing prep, 10 – 11:30am, Saturday, April 11, needs response"))
    expect(chip).to_have_class(re.compile(r"resp-needs_action"))                      # hollow until answered
    chip.click()
    card = page.get_by_role("dialog", name="Fund hearing prep")
    expect(card).to_contain_text("2 yes, 1 awaiting")
    expect(card.get_by_role("listitem", name="Priya Raman, Yes")).to_be_visible()
    card.get_by_label("Note with your response").fill("Will bring the fund calculation")
    card.get_by_role("button", name="Yes").click()
    expect(card.get_by_role("button", name="Yes")).to_have_attribute("aria-pressed", "true")
    expect(card).to_contain_text("3 yes")
    expect(page.get_by_role("link", name=re.compile(r"^Fund hearing prep, 10 – 11:30am"))).to_have_class(re.compile(r"resp-accepted"))
    with live_slot.store() as st:
        g = st.one("SELECT response, note FROM cal_guests WHERE event=? AND person='alex.chen'", (eid,))
    assert (g["response"], g["note"]) == ("accepted", "Will bring the fund calculation")
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)


def test_drag_an_event_to_another_slot(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        eid = S.create_event(st, Caller("alex.chen"), title="Research block", start="2026-04-11T10:00",
                             end="2026-04-11T11:00")
    page.goto(WEEK)
    ev = page.get_by_role("link", name=re.compile(r"^Research block, 10 – 11am"))
    box = ev.bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + 10                 # grab near the top (10:00 + ~12 min)
    x1, y1 = slot_point(page, "2026-04-05", 15.25)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1 + 10 + 4, steps=8)                           # 15:15 + the grab offset (+4 px: snaps back)
    page.mouse.up()
    expect(page.get_by_role("status").filter(has_text="Event moved")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Research block, 3:15 – 4:15pm, Sunday, April 5"))).to_be_visible()
    ev = [e for e in events(live_slot, "Research block") if e["id"] == eid][0]
    assert (ev["start"], ev["end"]) == ("2026-04-05T19:15:00Z", "2026-04-05T20:15:00Z")
    expect(page.get_by_role("dialog")).to_have_count(0)                 # a drag doesn't open the card


def test_full_form_with_a_guest_busy_badge_and_find_a_time(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        S.create_event(st, Caller("priya.raman"), title="Priya's call", start="2026-06-11T14:00",
                       end="2026-06-11T15:00", visibility="private")
    page.goto(WEEK)
    page.get_by_role("link", name="Create").click()
    page.get_by_label("Title").fill("Limitation fund strategy")
    page.get_by_label("Start date").fill("2026-06-11")
    page.get_by_role("button", name=re.compile("^Start time")).click()
    page.get_by_role("option", name="2:00pm", exact=True).click()
    expect(page.get_by_role("button", name=re.compile("^End time"))).to_have_accessible_name("End time: 3:00pm")
    page.get_by_label("Add guests").press_sequentially("priya")
    page.get_by_role("option", name=re.compile("Priya Raman")).click()
    expect(page.locator("[data-chips='guests'] .rchip", has_text="Priya Raman")).to_be_attached()  # the chip first,
    guest = page.get_by_role("list", name="Guest list").get_by_role("listitem").filter(has_text="Priya Raman")
    expect(guest).to_contain_text("Busy")                              # then the server's guest list with her badge
    page.get_by_role("tab", name="Find a time").click()
    ft = page.get_by_role("tabpanel", name="Find a time")
    expect(ft).to_contain_text("Thursday, June 11, 2026")
    expect(ft.get_by_role("group", name="Priya Raman's day")).to_contain_text("busy")
    ft.get_by_role("button", name=re.compile(r"^Thu, Jun 11 · 3 – 4pm")).click()
    expect(page.get_by_role("button", name=re.compile("^Start time"))).to_have_accessible_name("Start time: 3:00pm")
    expect(guest).to_contain_text("Available")
    page.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(r"/calendar/week/2026-04-06$"))
    [ev] = events(live_slot, "Limitation fund strategy")
    assert (ev["start"], ev["end"]) == ("2026-06-11T19:00:00Z", "2026-06-11T20:00:00Z")
    with live_slot.store() as st:
        assert {g["person"]: g["response"] for g in S.guest_rows(st, ev["id"])} == {
            "alex.chen": "accepted", "priya.raman": "needs_action"}
