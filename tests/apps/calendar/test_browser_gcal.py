"""Calendar in a real browser, the way Google Calendar behaves: the quick event card beside the slot with
guests, location and description; an event's bottom edge dragged to change its end; a chip dragged to
another day in the month; the "Week ▾" view menu and its keys; short blocks that fit on one line. State is
checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.calendar import service as S
from apps.core.store.db import Caller
from tests.apps.calendar.test_browser import WEEK, slot_point

pytestmark = pytest.mark.browser


def only(slot, title):
    with slot.store() as st:
        [ev] = st.select("cal_events", "title=?", (title,))
        guests = {g["person"]: g["response"] for g in S.guest_rows(st, ev["id"])}
    return ev, guests


def test_quick_event_card_beside_the_slot_with_guests_location_description(desk, live_slot):
    page = desk
    page.goto(WEEK)
    x, y = slot_point(page, "2026-04-08", 15.25)                  # Wednesday 3:15 PM: the 3:00 half hour
    page.mouse.click(x, y)
    card = page.get_by_role("dialog", name="Create event")
    expect(card).to_contain_text("Wednesday, April 8 ⋅ 3 – 3:30pm")
    slot_box = page.locator(".cal-ev.placeholder").bounding_box()
    box = card.bounding_box()                                     # beside the slot, not docked in a corner
    assert box["x"] >= slot_box["x"] + slot_box["width"] or box["x"] + box["width"] <= slot_box["x"]
    assert box["y"] <= slot_box["y"] + slot_box["height"] and box["y"] + box["height"] >= slot_box["y"]
    ph = page.locator(".cal-ev.placeholder")                      # "(No title), 3 – 3:30pm" fits the block
    expect(ph).to_have_text("(No title), 3 – 3:30pm")
    assert ph.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
    page.keyboard.type("Expert call prep")
    card.get_by_label("Add guests").press_sequentially("priya")
    page.get_by_role("option", name=re.compile("Priya Raman")).click()
    expect(card.locator(".rchip", has_text="Priya Raman")).to_be_visible()
    card.get_by_label("Add location").fill("Room 12A")
    card.get_by_label("Add description").fill("Bring the tonnage certificate")
    card.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Event saved")).to_be_visible()
    ev, guests = only(live_slot, "Expert call prep")
    assert (ev["start"], ev["end"], ev["location"], ev["description"]) == (
        "2026-04-08T19:00:00Z", "2026-04-08T19:30:00Z", "Room 12A", "Bring the tonnage certificate")
    assert guests == {"alex.chen": "accepted", "priya.raman": "needs_action"}


def test_drag_the_bottom_edge_to_change_the_end(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        S.create_event(st, Caller("alex.chen"), title="Drafting block", start="2026-04-09T10:00", end="2026-04-09T11:00")
    page.goto(WEEK)
    ev = page.get_by_role("link", name=re.compile(r"^Drafting block, 10 – 11am"))
    box = ev.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] - 2    # on the bottom edge
    _, y1 = slot_point(page, "2026-04-09", 12.5)                        # to 12:30 (+3 px: snaps)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y1 + 3, steps=8)
    page.mouse.up()
    expect(page.get_by_role("link", name=re.compile(r"^Drafting block, 10am – 12:30pm, Thursday, April 9"))).to_be_visible()
    ev, _ = only(live_slot, "Drafting block")
    assert (ev["start"], ev["end"]) == ("2026-04-09T14:00:00Z", "2026-04-09T16:30:00Z")
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_drag_a_chip_to_another_day_in_the_month(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        S.create_event(st, Caller("alex.chen"), title="File the bundle", start="2026-04-11T15:00", end="2026-04-11T15:45")
        S.create_event(st, Caller("alex.chen"), title="Leave day", start="2026-04-18", end=None, all_day=True)
    page.goto("/calendar/month/2026-04-06")
    for title, target in (("File the bundle", "2026-04-12"), ("Leave day", "2026-04-25")):
        chip = page.locator(".cal-mcell .cal-ev", has_text=title)
        src = chip.bounding_box()
        dst = page.locator(f".cal-mcell[data-date='{target}']").bounding_box()
        page.mouse.move(src["x"] + 10, src["y"] + src["height"] / 2)
        page.mouse.down()
        page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
        page.mouse.up()
        expect(page.locator(f".cal-mcell[data-date='{target}'] .cal-ev", has_text=title)).to_be_visible()
    ev, _ = only(live_slot, "File the bundle")
    assert (ev["start"], ev["end"]) == ("2026-04-12T19:00:00Z", "2026-04-12T19:45:00Z")
    ev, _ = only(live_slot, "Leave day")
    assert (ev["start"], ev["end"], ev["all_day"]) == ("2026-04-25T04:00:00Z", "2026-04-26T04:00:00Z", True)


def test_view_menu_and_keys(desk, live_slot):
    page = desk

    def at(path):                                   # the new page, its scripts run (the keys are theirs)
        expect(page).to_have_url(re.compile(re.escape(path) + "$"))
        page.wait_for_load_state("domcontentloaded")

    page.goto(WEEK)
    page.get_by_role("button", name="Change view: Week").click()
    menu = page.get_by_role("menu", name="View")
    expect(menu.get_by_role("menuitemradio", name=re.compile("^Week"))).to_have_attribute("aria-checked", "true")
    menu.get_by_role("menuitemradio", name=re.compile("^Month")).click()
    at("/calendar/month/2026-04-06")
    expect(page.get_by_role("button", name="Change view: Month")).to_be_visible()
    page.keyboard.press("d")
    at("/calendar/day/2026-04-06")
    page.keyboard.press("x")
    at("/calendar/4days/2026-04-06")
    expect(page.locator(".cal-view .cal-col")).to_have_count(4)
    page.get_by_role("link", name="Next period").click()
    at("/calendar/4days/2026-04-10")
    page.keyboard.press("w")
    at("/calendar/week/2026-04-10")
    page.keyboard.press("a")
    at("/calendar/schedule/2026-04-10")
    expect(page.get_by_role("list", name="Schedule").get_by_role("listitem").first).to_be_visible()


def test_a_short_chip_reads_title_then_time_never_stray_punctuation(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        S.create_event(st, Caller("alex.chen"), title="A very long title for a thirty minute meeting",
                       start="2026-04-10T14:30", end="2026-04-10T15:00")
    page.goto(WEEK)
    chip = page.get_by_role("link", name=re.compile(r"^A very long title for a thirty minute meeting, 2:30 – 3pm"))
    title = chip.locator(".cal-ev-title")
    expect(title).to_have_text("A very long title for a thirty minute meeting, 2:30pm")   # one line, cut at its end
    assert title.evaluate("el => el.getBoundingClientRect().left - el.parentElement.getBoundingClientRect().left") < 10
    assert chip.evaluate("el => el.scrollHeight <= el.clientHeight + 1")


def test_event_form_dates_are_in_page_pickers(desk, live_slot):
    page = desk
    page.goto(WEEK)
    page.get_by_role("link", name="Create").click()
    expect(page).to_have_url(re.compile(r"/calendar/new\?"))
    page.wait_for_load_state("domcontentloaded")                       # the pickers' script has run
    page.get_by_label("Title").fill("Witness proofing")
    start = page.get_by_role("textbox", name="Start date")
    expect(start).to_have_value("Apr 6, 2026")                         # Google's format, not a native picker
    assert page.locator("input[type=date]").count() == 0
    start.click()
    cal = page.get_by_role("dialog", name="Choose date")
    cal.get_by_role("button", name="Next month").click()
    cal.get_by_role("button", name="Thursday, May 14, 2026").click()
    expect(start).to_have_value("May 14, 2026")
    expect(page.get_by_role("textbox", name="End date")).to_have_value("May 14, 2026")   # the end follows
    start.fill("5/15/2026")                                            # typed, then left: the end follows too
    start.press("Tab")
    expect(start).to_have_value("May 15, 2026")
    expect(page.get_by_role("textbox", name="End date")).to_have_value("May 15, 2026")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Event saved")).to_be_visible()
    ev, _ = only(live_slot, "Witness proofing")
    assert ev["start"].startswith("2026-05-15T") and ev["end"].startswith("2026-05-15T")
