"""Mail's Gmail fidelity in a real browser (issue 21): forwarding, drafts, staying on a conversation,
compose keyboard and window, signature, search chips, Snooze, Report spam, ⋮ More, Drafts' bulk discard.
State is checked in the store."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("MAIL_SHOTS")        # a folder: save screenshots there to look at


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def drafts(slot):
    with slot.store() as st:
        return st.select("mail_drafts", "owner='alex.chen'")


def box_of(slot, subject_like):
    with slot.store() as st:
        return st.all("SELECT b.* FROM mail_boxes b JOIN mail_threads t ON t.id=b.thread WHERE b.owner='alex.chen'"
                      " AND t.subject LIKE ?", (subject_like,))


def test_forward_shows_the_forwarded_block_and_sends_it(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.locator("tr.mrow").filter(has_text="Maritime Law Weekly – Issue 412").locator("a.row-link").click()
    page.get_by_role("button", name="Forward", exact=True).last.click()
    box = page.locator("#compose-r")
    body = box.get_by_label("Message Body")
    expect(body).to_have_value(re.compile(r"^\n\n---------- Forwarded message ---------\nFrom: .+\nDate: .+\n"
                                          r"Subject: Maritime Law Weekly – Issue 412.*\nTo: .+", re.S))
    # The caret is above the block: typing goes first.
    expect(body).to_be_focused()
    page.keyboard.type("Worth a read.")
    expect(box.locator("#cfiles-r")).to_contain_text("Maritime Law Weekly")
    box.get_by_label("To recipients").press_sequentially("daniel")
    expect(box.get_by_role("option", name=re.compile("Daniel Ortiz"))).to_have_attribute("aria-selected", "true")
    box.get_by_label("To recipients").press("Enter")          # the highlighted suggestion is picked
    expect(box.locator(".rchip")).to_have_text(["Daniel Ortiz×"])
    shot(page, "forward")
    box.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("details.message").last).to_contain_text("Worth a read")
    with live_slot.store() as st:
        m = st.select("mail_messages", "sender='alex.chen@meridianshaw.com' AND subject LIKE 'Fwd:%'")[-1]
        orig = st.get("mail_messages", m["forward_of"])
        files = st.select("mail_attachments", "message=?", (m["id"],))
    assert m["to"] == ["daniel.ortiz@meridianshaw.com"]
    assert m["body"].startswith("Worth a read.\n\n---------- Forwarded message ---------\nFrom: ")
    assert m["body"].rstrip().endswith(orig["body"].rstrip())
    assert [f["name"] for f in files] == ["Maritime Law Weekly – Issue 412.pdf"]


def test_opening_compose_leaves_no_draft_until_something_is_typed(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.get_by_role("button", name="Compose").click()
    expect(page.get_by_label("To recipients")).to_be_focused()
    # Tab order as in Gmail: To → Subject → body (Cc/Bcc are reached by their links).
    page.keyboard.press("Tab")
    expect(page.get_by_label("Subject")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Message Body")).to_be_focused()
    page.get_by_role("button", name="Save & close").click()
    expect(page.locator("#compose-c")).to_have_count(0)
    assert drafts(live_slot) == []
    page.get_by_role("button", name="Compose").click()
    page.get_by_label("Subject").fill("Call notes")
    expect(page.get_by_role("status").filter(has_text="Draft saved")).to_be_visible()
    # The status already reads "Draft saved": wait for the second save itself (it must update the
    # draft the first one made, not make another).
    with page.expect_response(re.compile(r"/mail/compose/save$")):
        page.get_by_label("Message Body").fill("First line")
    page.get_by_role("button", name="Save & close").click()
    expect(page.locator("#compose-c")).to_have_count(0)
    assert [(d["subject"], d["body"]) for d in drafts(live_slot)] == [("Call notes", "First line")]


def test_compose_window_minimise_full_screen_and_formatting(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.get_by_role("button", name="Compose").click()
    win = page.locator("#compose-c")
    win.get_by_role("button", name="Minimise").click()
    expect(win.get_by_label("Message Body")).to_be_hidden()
    win.locator(".compose-head .title").click()
    expect(win.get_by_label("Message Body")).to_be_visible()
    win.get_by_role("button", name="Full screen").click()
    expect(win).to_have_class(re.compile(r"\bfull\b"))
    shot(page, "compose-full")
    win.get_by_role("button", name="Exit full screen").click()
    body = win.get_by_label("Message Body")
    body.fill("Agenda\nScope\nBudget")
    body.evaluate("t => t.setSelectionRange(7, t.value.length)")
    win.get_by_role("button", name="Formatting options").click()
    win.get_by_role("toolbar", name="Formatting options").get_by_role("button", name="Bulleted list").click()
    expect(body).to_have_value("Agenda\n• Scope\n• Budget")
    body.evaluate("t => t.setSelectionRange(t.value.length, t.value.length)")
    win.get_by_role("button", name="Insert link").click()
    pop = win.get_by_role("dialog", name="Insert link")
    pop.get_by_label("Text to display").fill("the brief")
    pop.get_by_label("Web address").fill("example.com/brief")
    pop.get_by_role("button", name="OK").click()
    expect(body).to_have_value("Agenda\n• Scope\n• Budget" + "the brief (https://example.com/brief)")
    shot(page, "compose-format")
    win.get_by_role("button", name="Save & close").click()
    expect(win).to_have_count(0)
    assert [d["body"] for d in drafts(live_slot)] == ["Agenda\n• Scope\n• Budgetthe brief (https://example.com/brief)"]


def test_signature_from_settings_goes_into_new_messages(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.get_by_role("link", name="Settings", exact=True).click()
    page.get_by_label("Signature").fill("Alex Chen\nMeridian Shaw LLP")
    shot(page, "settings")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    with live_slot.store() as st:
        assert st.select("mail_settings", "owner='alex.chen'")[0]["signature"] == "Alex Chen\nMeridian Shaw LLP"
    page.get_by_role("link", name=re.compile("^Inbox")).click()
    page.get_by_role("button", name="Compose").click()
    expect(page.get_by_label("Message Body")).to_have_value("\n\n-- \nAlex Chen\nMeridian Shaw LLP")
    page.get_by_role("button", name="Save & close").click()
    expect(page.locator("#compose-c")).to_have_count(0)
    assert drafts(live_slot) == []          # the signature alone is not something typed


def test_label_from_an_open_conversation_stays_on_it(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.locator("tr.mrow").first.locator("a.row-link").click()
    url = page.url
    page.get_by_role("button", name="Labels").click()
    menu = page.get_by_role("menu", name="Label as")
    name = menu.get_by_role("menuitemcheckbox").first.inner_text().strip()
    menu.get_by_role("menuitemcheckbox").first.click()
    expect(page.get_by_role("status").filter(has_text="labelled")).to_be_visible()
    assert page.url.split("?")[0] == url.split("?")[0]
    expect(page.locator(".thread-title")).to_contain_text(name)


def test_search_chips_write_operators(desk):
    page = desk
    page.goto("/mail/inbox")
    page.get_by_role("textbox", name="Search mail").fill("survey")
    page.get_by_role("textbox", name="Search mail").press("Enter")
    chips = page.get_by_role("toolbar", name="Search filters")
    chips.get_by_role("link", name="Has attachment").click()
    expect(page.get_by_role("textbox", name="Search mail")).to_have_value("survey has:attachment")
    chips = page.get_by_role("toolbar", name="Search filters")
    chips.get_by_role("button", name="From").click()
    chips.get_by_label("Search for a sender").fill("pryce")
    chips.get_by_role("menuitem", name=re.compile("Jonathan Pryce")).click()
    expect(page.get_by_role("textbox", name="Search mail")).to_have_value(
        "survey has:attachment from:jonathan.pryce@brightwaterkessler.com")
    page.get_by_role("toolbar", name="Search filters").get_by_role("button", name="Any time").click()
    page.get_by_role("menuitem", name="Older than a week").click()
    expect(page.get_by_role("textbox", name="Search mail")).to_have_value(re.compile("older_than:7d$"))
    shot(page, "chips")


def test_snooze_leaves_the_inbox_and_comes_back_at_the_time(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    row = page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B")
    row.get_by_role("checkbox").check()
    page.get_by_role("button", name="Snooze").click()
    shot(page, "snooze-menu")
    page.get_by_role("menuitem", name=re.compile("^Tomorrow")).click()
    expect(page.get_by_role("status").filter(has_text="snoozed until")).to_be_visible()
    expect(row).to_have_count(0)
    boxes = box_of(live_slot, "Calder Tower – elevator bank B%")
    assert boxes and all(b["snoozed_until"] for b in boxes)
    page.get_by_role("link", name=re.compile("^Snoozed")).click()
    expect(page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B")).to_have_count(1)
    # When the world clock passes the time, it is back in the Inbox.
    with live_slot.store() as st:
        st.set_meta("clock", max(b["snoozed_until"] for b in boxes))
        st.conn.commit()
    page.get_by_role("link", name=re.compile("^Inbox")).click()
    expect(page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B")).to_have_count(1)


def test_snooze_pick_date_and_time_from_a_conversation(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B").locator("a.row-link").click()
    page.get_by_role("button", name="Snooze").click()
    page.get_by_role("menuitem", name="Pick date & time").click()
    dialog = page.get_by_role("dialog", name="Pick date & time")
    dialog.locator("#snooze-until").fill("2026-12-20")
    dialog.locator("#snooze-until-time").fill("9:00am")
    shot(page, "snooze-pick")
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="snoozed until")).to_be_visible()
    with live_slot.store() as st:
        local = [st.local(b["snoozed_until"]).strftime("%Y-%m-%d %H:%M") for b in box_of(live_slot, "Calder Tower – elevator bank B%")]
    assert set(local) == {"2026-12-20 09:00"}


def test_report_spam_and_more_menu(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B").locator("a.row-link").click()
    page.get_by_role("button", name="More", exact=True).click()
    shot(page, "more-menu")
    page.get_by_role("menuitem", name="Add star").click()
    expect(page.get_by_role("status").filter(has_text="starred")).to_be_visible()
    assert any(b["starred"] for b in box_of(live_slot, "Calder Tower – elevator bank B%"))
    page.get_by_role("button", name="Report spam").click()
    expect(page.get_by_role("status").filter(has_text="marked as spam")).to_be_visible()
    assert all(b["spam"] and not b["inbox"] for b in box_of(live_slot, "Calder Tower – elevator bank B%"))
    page.get_by_role("link", name=re.compile("^Spam")).click()
    row = page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B")
    expect(row).to_have_count(1)
    row.get_by_role("checkbox").check()
    page.get_by_role("button", name="Not spam").click()
    expect(row).to_have_count(0)
    assert all(not b["spam"] and b["inbox"] for b in box_of(live_slot, "Calder Tower – elevator bank B%"))


def test_drafts_have_checkboxes_and_discard_drafts(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    for subject in ("First draft", "Second draft"):
        page.get_by_role("button", name="Compose").click()
        page.get_by_label("Subject").fill(subject)
        expect(page.get_by_role("status").filter(has_text="Draft saved")).to_be_visible()
        page.get_by_role("button", name="Save & close").click()
        expect(page.locator("#compose-c")).to_have_count(0)
    page.get_by_role("link", name=re.compile("^Drafts")).click()
    page.get_by_label("Select all drafts").check()
    shot(page, "drafts")
    page.get_by_role("button", name="Discard drafts").click()
    expect(page.get_by_role("heading", name="You don't have any saved drafts.")).to_be_visible()
    assert drafts(live_slot) == []


def test_an_untouched_reply_or_forward_leaves_no_draft(desk, live_slot):
    page = desk
    page.goto("/mail/inbox")
    page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B").locator("a.row-link").click()
    page.get_by_role("button", name="Forward", exact=True).last.click()
    expect(page.locator("#compose-r").get_by_label("Message Body")).to_have_value(re.compile("Forwarded message"))
    page.get_by_role("link", name=re.compile("^Back to")).click()
    expect(page.get_by_role("grid", name="Inbox")).to_be_visible()
    assert drafts(live_slot) == []
    page.locator("tr.mrow").filter(has_text="Calder Tower – elevator bank B").locator("a.row-link").click()
    page.get_by_role("button", name="Reply", exact=True).last.click()
    # One input event, so the one save the status reports holds the whole text.
    page.locator("#compose-r").get_by_label("Message Body").fill("Noted")
    expect(page.get_by_role("status").filter(has_text="Draft saved")).to_be_visible()
    assert [d["body"] for d in drafts(live_slot)] == ["Noted"]
