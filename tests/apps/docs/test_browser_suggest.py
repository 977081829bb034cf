"""Suggesting mode in a real browser: the mode menu, typed insertions and deletions becoming suggestion
records (the block's text stays the accepted text), the margin's cards, accept / reject one and all."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import blank_doc, blocks, saved

pytestmark = pytest.mark.browser


def pending(slot, did):
    with slot.store() as st:
        return st.select("docs_suggestions", "doc=? AND status='pending'", (did,), order="id")


def wait_store(page, slot, did, check, what):
    """Poll the store (through the page's event loop, no fixed sleeps) until ``check(store)`` holds."""
    for _ in range(200):
        with slot.store() as st:
            if check(st):
                return
        page.wait_for_timeout(100)
    with slot.store() as st:
        raise AssertionError(f"{what}: blocks {blocks(slot, did)}, suggestions {st.select('docs_suggestions', 'doc=?', (did,))}")


def suggesting(page):
    page.get_by_role("button", name="Mode: Editing").click()
    page.get_by_role("menuitemradio", name=re.compile("^Suggesting")).click()
    expect(page.get_by_role("button", name="Mode: Suggesting")).to_be_visible()


def test_typing_in_suggesting_mode_makes_suggestions_then_accept_one_and_all(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("The fund is large.")
    saved(page)
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "The fund is large.", "typed")
    suggesting(page)
    body.click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")                      # before the full stop
    for _ in range(5):
        page.keyboard.press("Backspace")                  # "large" struck through, not removed
    page.keyboard.type("small")
    page.keyboard.press("Home")
    page.keyboard.type("Now ")
    expect(body.locator("del[data-suggestion]")).to_have_text("large")
    expect(body.locator("ins[data-suggestion]")).to_have_text(["Now ", "small"])
    wait_store(page, live_slot, did, lambda st: len(pending(live_slot, did)) == 3
               and service.text_if_accepted(st, did) == "Now The fund is small.", "suggested")
    with live_slot.store() as st:
        assert service.text(st, did) == "The fund is large."          # the accepted text is unchanged
    got = {(s["kind"], s["text"], s["author"]) for s in pending(live_slot, did)}
    assert got == {("delete", "large", "alex.chen"), ("insert", "small", "alex.chen"), ("insert", "Now ", "alex.chen")}
    assert len({s["block"] for s in pending(live_slot, did)}) == 1
    cards = page.get_by_role("article", name="Suggestion by Alex Chen")
    expect(cards).to_have_count(3)
    card = cards.filter(has_text="Delete")
    expect(card).to_contain_text("Delete: “large”")
    card.get_by_role("button", name="Accept suggestion").click()
    expect(cards).to_have_count(2)
    expect(body.locator("del[data-suggestion]")).to_have_count(0)
    with live_slot.store() as st:
        assert service.text(st, did) == "The fund is ."
        assert {(s["text"], s["status"]) for s in st.select("docs_suggestions", "doc=?", (did,))} == {
            ("large", "accepted"), ("small", "pending"), ("Now ", "pending")}
    # Tools → Review suggested edits → Accept all
    page.get_by_role("button", name="Tools", exact=True).click()
    page.get_by_role("menuitem", name="Review suggested edits").click()
    dialog = page.get_by_role("dialog", name="Review suggested edits")
    expect(dialog.get_by_role("status")).to_have_text("2 suggested edits")
    dialog.get_by_role("button", name="Accept all").click()
    expect(page.get_by_role("status").filter(has_text="2 suggestions accepted")).to_be_visible()
    expect(cards).to_have_count(0)
    with live_slot.store() as st:
        assert service.text(st, did) == "Now The fund is small."
        assert [s["status"] for s in st.select("docs_suggestions", "doc=?", (did,))] == ["accepted"] * 3
    expect(body).to_have_text("Now The fund is small.")


def test_reject_a_suggestion_and_reject_all(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("Limit is fixed.")
    saved(page)
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "Limit is fixed.", "typed")
    suggesting(page)
    body.click()
    page.keyboard.press("Home")
    page.keyboard.type("The ")
    page.keyboard.press("End")
    page.keyboard.press("Shift+ArrowLeft")                  # typing over a selection: delete + insert
    page.keyboard.type("!")
    wait_store(page, live_slot, did, lambda st: service.text_if_accepted(st, did) == "The Limit is fixed!", "suggested")
    cards = page.get_by_role("article", name="Suggestion by Alex Chen")
    expect(cards).to_have_count(3)
    cards.filter(has_text="“The ”").get_by_role("button", name="Reject suggestion").click()
    expect(cards).to_have_count(2)
    expect(body.locator("ins[data-suggestion]")).to_have_text(["!"])
    with live_slot.store() as st:
        assert service.text(st, did) == "Limit is fixed."
        assert service.text_if_accepted(st, did) == "Limit is fixed!"
    page.get_by_role("button", name="Reject all").click()
    expect(cards).to_have_count(0)
    with live_slot.store() as st:
        assert service.text(st, did) == "Limit is fixed."
        assert sorted(s["status"] for s in st.select("docs_suggestions", "doc=?", (did,))) == ["rejected"] * 3
    expect(body).to_have_text("Limit is fixed.")


def test_enter_in_suggesting_mode_suggests_a_line_break_and_backspace_takes_back_my_own_text(desk, live_slot):
    """A suggested new line is a line break inside the suggestion (accepted, a line break in the paragraph);
    Backspace over text I suggested removes it rather than striking it through."""
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("First line.")
    saved(page)
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "First line.", "typed")
    suggesting(page)
    body.click()
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type("Second lineXX")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type(".")
    expect(body.locator("ins[data-suggestion]")).to_have_text("Second line.")
    expect(body.locator("del[data-suggestion]")).to_have_count(0)
    wait_store(page, live_slot, did, lambda st: service.text_if_accepted(st, did) == "First line.\nSecond line.", "suggested")
    (s,) = pending(live_slot, did)
    assert (s["kind"], s["text"]) == ("insert", "\nSecond line.")
    page.get_by_role("article", name="Suggestion by Alex Chen").get_by_role("button", name="Accept suggestion").click()
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "First line.\nSecond line.", "accepted")


def test_a_commenter_suggests_and_cannot_accept(page, live_server, live_slot):
    """Laura may comment on the settlement draft: the page opens in Suggesting mode (no Editing), what she
    types is her suggestion, the document's text is unchanged, and her card has Reject but no Accept."""
    from tests.conftest import signed_in
    from tests.apps.docs.test_service import SETTLEMENT
    signed_in(page, live_server, "laura.whitfield")
    with live_slot.store() as st:
        did = st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='doc'", (SETTLEMENT,))
        before = service.text(st, did)
        mine = st.scalar("SELECT count(*) FROM docs_suggestions WHERE author='laura.whitfield'")
    page.goto(f"/docs/d/{did}")
    expect(page.get_by_role("button", name="Mode: Suggesting")).to_be_visible()
    body = page.get_by_role("textbox", name="Document content")
    body.locator("h1").first.click()
    page.keyboard.press("End")
    page.keyboard.type(" (client draft)")
    expect(body.locator('ins[data-author="laura.whitfield"]')).to_have_text(" (client draft)")
    wait_store(page, live_slot, did, lambda st: st.scalar(
        "SELECT count(*) FROM docs_suggestions WHERE author='laura.whitfield' AND status='pending'") == mine + 1, "suggested")
    with live_slot.store() as st:
        assert service.text(st, did) == before
        assert " (client draft)" in service.text_if_accepted(st, did)
    card = page.get_by_role("article", name="Suggestion by Laura Whitfield")
    expect(card.get_by_role("button", name="Reject suggestion")).to_be_visible()
    expect(card.get_by_role("button", name="Accept suggestion")).to_have_count(0)
    assert not page.errors
