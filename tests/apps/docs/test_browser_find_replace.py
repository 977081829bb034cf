"""Edit → Find and replace (Ctrl+H) in a real browser: every match highlighted, "2 of 3", the arrows and
Enter step through them, Replace replaces the match shown, Replace all the rest; the store's text follows."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import blank_doc, saved
from tests.apps.docs.test_browser_suggest import wait_store

pytestmark = pytest.mark.browser


def test_find_step_replace_the_current_match_then_all(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("The fund and the fund.")
    page.keyboard.press("Enter")
    page.keyboard.type("The FUND is short.")
    saved(page)
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "The fund and the fund.\nThe FUND is short.", "typed")
    page.keyboard.press("Control+h")
    dialog = page.get_by_role("dialog", name="Find and replace")
    dialog.get_by_role("textbox", name="Find").fill("fund")
    count = dialog.get_by_role("status")
    expect(count).to_have_text("1 of 3")
    assert page.evaluate("CSS.highlights.get('doc-find').size") == 3
    dialog.get_by_role("button", name="Next match").click()
    expect(count).to_have_text("2 of 3")
    dialog.get_by_role("textbox", name="Replace with").fill("pool")
    dialog.get_by_role("button", name="Replace", exact=True).click()
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "The fund and the pool.\nThe FUND is short.",
               "the second match replaced")
    expect(count).to_have_text("2 of 2")                       # the next match takes its place
    dialog.get_by_role("button", name="Previous match").click()
    expect(count).to_have_text("1 of 2")
    dialog.get_by_role("checkbox", name="Match case").check()
    expect(count).to_have_text("1 of 1")
    dialog.get_by_role("checkbox", name="Match case").uncheck()
    dialog.get_by_role("button", name="Replace all").click()
    wait_store(page, live_slot, did, lambda st: service.text(st, did) == "The pool and the pool.\nThe pool is short.",
               "all replaced")
    expect(count).to_have_text("No results")
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_have_count(0)
    assert page.evaluate("CSS.highlights.has('doc-find')") is False
    expect(body).to_contain_text("The pool is short.")
