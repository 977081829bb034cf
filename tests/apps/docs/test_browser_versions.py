"""Version history in a real browser: File → Name current version, edit on, File → Version history, look at
the named version and restore it; the store's text is the version's again."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import blank_doc, saved
from tests.apps.docs.test_browser_suggest import wait_store

pytestmark = pytest.mark.browser


def test_name_a_version_edit_then_restore_it(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("The fund is $151,840,000.")
    page.get_by_role("button", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Name current version").click()
    dialog = page.get_by_role("dialog", name="Name current version")
    dialog.get_by_role("textbox", name="Version name").fill("Fund figure")
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Version named.")).to_be_visible()
    with live_slot.store() as st:
        named = st.one("SELECT * FROM docs_versions WHERE doc=? AND name='Fund figure'", (did,))
        assert named is not None and service.text(st, did) == "The fund is $151,840,000."
    page.keyboard.press("End")
    page.keyboard.type(" Short by $8,760,000.")
    saved(page)
    wait_store(page, live_slot, did, lambda st: "Short by" in service.text(st, did), "edited")
    page.get_by_role("button", name="File", exact=True).click()
    page.get_by_role("menuitem", name=re.compile("^Version history")).click()
    expect(page).to_have_url(re.compile(rf"/docs/d/{did}/history"))
    history = page.get_by_role("complementary", name="Version history")
    expect(history.get_by_text("Current version")).to_be_visible()
    history.get_by_role("link", name=re.compile("Fund figure")).click()
    expect(page.get_by_role("document", name="Version content")).to_have_text("The fund is $151,840,000.")
    page.get_by_role("button", name="Restore this version").click()
    expect(page).to_have_url(re.compile(rf"/docs/d/{did}$"))
    expect(page.get_by_role("textbox", name="Document content")).to_have_text("The fund is $151,840,000.")
    with live_slot.store() as st:
        assert service.text(st, did) == "The fund is $151,840,000."
