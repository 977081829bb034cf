"""Slides in a real browser: open from Drive, edit in place, add slides with a layout, reorder by
drag, menu and keyboard, speaker notes, present mode; state checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.slides import service as S

pytestmark = pytest.mark.browser

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
STRATEGY = "Case Strategy – Limitation and §9"


def deck(slot, title):
    with slot.store() as st:
        return st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (title,))


def slides(slot, did):
    with slot.store() as st:
        return S.read_slides(st, did)


def titles(slot, did):
    return [s["boxes"]["title"] for s in slides(slot, did)]


def saved(page):
    expect(page.locator("#save-status")).to_have_text("All changes saved in Drive")


def option(page, name):
    return page.get_by_role("listbox", name="Slides").get_by_role("option", name=name)


def current(page):
    return page.get_by_role("listbox", name="Slides").locator("[role=option][aria-selected=true]")


def test_open_from_drive_and_edit_a_title_in_place(desk, live_slot):
    page = desk
    did = deck(live_slot, CLIENT)
    page.goto("/drive/search?q=client+update")
    page.get_by_role("link", name=CLIENT, exact=True).dblclick()
    expect(page).to_have_url(re.compile(rf"/slides/p/{did}(\?slide=\d+)?$"))
    expect(current(page)).to_have_accessible_name("Slide 1: MT Aurelia Dawn — Update for the Board")
    option(page, "Slide 2: Where things stand").click()
    expect(current(page)).to_have_accessible_name("Slide 2: Where things stand")
    sid = slides(live_slot, did)[1]["id"]
    expect(page).to_have_url(re.compile(rf"/slides/p/{did}\?slide={sid}$"))
    title = page.get_by_role("textbox", name="Title")
    title.click()
    page.keyboard.press("End")
    page.keyboard.type(" — April 2026")
    page.keyboard.press("Escape")                            # leaves the box: saves now
    saved(page)
    assert slides(live_slot, did)[1]["boxes"]["title"] == "Where things stand — April 2026"
    expect(option(page, "Slide 2: Where things stand — April 2026")).to_be_visible()
    expect(page.locator(f"#thumb-{sid} .b-title")).to_have_text("Where things stand — April 2026")
    # the body keeps its bullets: edit one line, nothing else changes
    body = page.get_by_role("textbox", name="Body")
    expect(body.locator("li")).to_have_count(6)
    body.locator("li", has_text="mediation with Catherine Osei").click()
    page.keyboard.press("End")
    page.keyboard.type(" (confirmed)")
    saved(page)
    after = slides(live_slot, did)[1]["boxes"]["body"].split("\n")
    assert after[4] == "- 2026-05-07 — mediation with Catherine Osei (confirmed)"
    assert len(after) == 6 and all(line.startswith("- ") for line in after)
    # reload: what was saved is what is shown
    page.reload()
    expect(page.get_by_role("textbox", name="Title")).to_have_text("Where things stand — April 2026")


def test_new_slide_with_a_layout_then_title_and_bullets(desk, live_slot):
    page = desk
    did = deck(live_slot, STRATEGY)
    page.goto(f"/slides/p/{did}")
    option(page, "Slide 4: The arithmetic").click()
    page.get_by_role("button", name="New slide with layout").click()
    page.get_by_role("menuitem", name="Title and two columns").click()
    expect(current(page)).to_have_accessible_name("Slide 5")
    got = slides(live_slot, did)
    assert len(got) == 8 and got[4]["layout"] == "two_columns" and got[4]["boxes"] == {"title": "", "left": "", "right": ""}
    title = page.get_by_role("textbox", name="Title")
    expect(title).to_be_focused()
    page.keyboard.type("Open questions")
    page.get_by_role("textbox", name="Left column").click()
    page.keyboard.type("- Who disabled the alarm?")
    page.keyboard.press("Enter")
    page.keyboard.type("Fatigue causation")
    expect(page.get_by_role("textbox", name="Left column").locator("li")).to_have_count(2)
    page.get_by_role("textbox", name="Right column").click()
    page.keyboard.type("Owner: Alex")
    saved(page)
    s = slides(live_slot, did)[4]
    assert s["boxes"] == {"title": "Open questions", "left": "- Who disabled the alarm?\n- Fatigue causation",
                          "right": "Owner: Alex"}
    expect(option(page, "Slide 5: Open questions")).to_have_attribute("aria-selected", "true")
    # Ctrl+M adds a title-and-body slide after the current one; the layout menu changes it
    page.keyboard.press("Escape")
    page.keyboard.press("Control+m")
    expect(current(page)).to_have_accessible_name("Slide 6")
    expect(current(page)).to_be_focused()                      # as in Slides: the filmstrip has the new slide
    page.get_by_role("textbox", name="Title").click()
    page.keyboard.type("Next steps")
    page.get_by_role("button", name="Layout", exact=True).click()
    page.get_by_role("menuitemradio", name="Section header").click()
    expect(page.get_by_role("textbox", name="Subtitle")).to_be_visible()
    got = slides(live_slot, did)
    assert [s["layout"] for s in got][4:6] == ["two_columns", "section"] and got[5]["boxes"]["title"] == "Next steps"


def test_reorder_by_drag_menu_and_keyboard_then_delete(desk, live_slot):
    page = desk
    did = deck(live_slot, CLIENT)
    before = titles(live_slot, did)
    page.goto(f"/slides/p/{did}")
    # drag slide 8 to just above slide 2
    src = option(page, re.compile("^Slide 8: "))
    target = option(page, re.compile("^Slide 2: "))
    src.scroll_into_view_if_needed()
    src.drag_to(target, target_position={"x": 80, "y": 4})
    expect(option(page, "Slide 2: What we need from the board")).to_have_attribute("aria-selected", "true")
    assert titles(live_slot, did) == [before[0], before[7]] + before[1:7]
    # the Slide menu moves the current slide
    page.get_by_role("button", name="Slide", exact=True).click()
    page.get_by_role("menuitem", name=re.compile("^Move slide down")).click()
    expect(option(page, "Slide 3: What we need from the board")).to_have_attribute("aria-selected", "true")
    assert titles(live_slot, did)[2] == before[7]
    # keyboard on the filmstrip: Ctrl+↑ moves up, ↓ selects the next, Delete deletes it
    option(page, "Slide 3: What we need from the board").focus()
    page.keyboard.press("Control+ArrowUp")
    expect(option(page, "Slide 2: What we need from the board")).to_be_focused()
    assert titles(live_slot, did)[1] == before[7]
    page.keyboard.press("ArrowDown")
    expect(current(page)).to_have_accessible_name(f"Slide 3: {before[1]}")
    expect(current(page)).to_be_focused()
    page.keyboard.press("Delete")
    expect(page.get_by_role("status").filter(has_text="Slide deleted.")).to_be_visible()
    expect(page.get_by_role("option")).to_have_count(7)
    assert before[1] not in titles(live_slot, did)
    page.keyboard.press("Control+d")
    expect(page.get_by_role("option")).to_have_count(8)
    got = titles(live_slot, did)
    assert got[2] == got[3] == before[2]


def test_speaker_notes_autosave(desk, live_slot):
    page = desk
    did = deck(live_slot, CLIENT)
    sid = slides(live_slot, did)[6]["id"]
    page.goto(f"/slides/p/{did}?slide={sid}")
    notes = page.get_by_role("textbox", name="Speaker notes")
    expect(notes).to_have_value(re.compile("^Confirm Laura's attendance"))
    notes.click()
    page.keyboard.press("Control+End")
    page.keyboard.type(" Laura confirmed for May 7.")
    saved(page)
    assert slides(live_slot, did)[6]["notes"].endswith("(needed). Laura confirmed for May 7.")
    # switching slides keeps what was typed just before
    notes.press("Control+End")
    page.keyboard.type(" Hearing: no.")
    option(page, re.compile("^Slide 1: ")).click()
    expect(page.get_by_role("textbox", name="Speaker notes")).to_have_value(re.compile("^Laura to introduce"))
    saved(page)
    assert slides(live_slot, did)[6]["notes"].endswith("Laura confirmed for May 7. Hearing: no.")


def test_present_mode_next_previous_and_escape(desk, live_slot):
    page = desk
    did = deck(live_slot, CLIENT)
    ss = slides(live_slot, did)
    page.goto(f"/slides/p/{did}?slide={ss[2]['id']}")
    page.get_by_role("link", name="Present slideshow").click()
    expect(page).to_have_url(re.compile(rf"/slides/p/{did}/present\?slide=3$"))
    show = page.get_by_role("region", name=f"Slideshow: {CLIENT}")
    expect(page.locator("#present-count")).to_have_text("3 / 8")
    expect(show.get_by_role("group", name=re.compile("^Slide 3 of 8"))).to_be_visible()
    expect(show.get_by_role("group", name=re.compile("^Slide 4 of 8"))).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#present-count")).to_have_text("4 / 8")
    expect(show.get_by_role("group", name="Slide 4 of 8: The claims picture")).to_be_visible()
    page.keyboard.press("Space")
    page.keyboard.press("PageDown")
    expect(page.locator("#present-count")).to_have_text("6 / 8")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("PageUp")
    expect(page.locator("#present-count")).to_have_text("4 / 8")
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("End of slideshow. Click to exit.")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#present-count")).to_have_text("8 / 8")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(rf"/slides/p/{did}\?slide={ss[7]['id']}$"))
    expect(current(page)).to_have_accessible_name("Slide 8: What we need from the board")
    # Ctrl+Enter from the editor presents the current slide
    page.keyboard.press("Control+Enter")
    expect(page).to_have_url(re.compile(r"/present\?slide=8$"))
