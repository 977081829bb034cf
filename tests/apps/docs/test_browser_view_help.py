"""View and Help menus in a real browser: the document outline lists the store's headings and goes to one;
the View menu switches mode; Help → Keyboard shortcuts."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import OBJECTION, doc

pytestmark = pytest.mark.browser


def test_outline_mode_and_shortcuts(desk, live_slot):
    page = desk
    did, _ = doc(live_slot, OBJECTION)
    with live_slot.store() as st:
        heads = service.outline(st, "alex.chen", did)
    assert len(heads) >= 3
    page.goto(f"/docs/d/{did}")
    page.get_by_role("textbox", name="Document content").click()
    page.get_by_role("button", name="View", exact=True).click()
    page.get_by_role("menuitemcheckbox", name="Show outline").click()
    nav = page.get_by_role("navigation", name="Document outline")
    expect(nav).to_be_visible()
    expect(nav.get_by_role("list").get_by_role("button")).to_have_text([h["text"] for h in heads])
    nav.get_by_role("button", name=heads[-1]["text"], exact=True).click()
    assert page.evaluate("getSelection().anchorNode.textContent.trim()") == heads[-1]["text"].strip()
    page.get_by_role("button", name="View", exact=True).click()
    expect(page.get_by_role("menuitemcheckbox", name="Show outline")).to_have_attribute("aria-checked", "true")
    page.get_by_role("menuitemradio", name="Suggesting").click()
    expect(page.get_by_role("button", name="Mode: Suggesting")).to_be_visible()
    nav.get_by_role("button", name="Close outline").click()
    expect(nav).to_be_hidden()
    page.get_by_role("button", name="Help", exact=True).click()
    page.get_by_role("menuitem", name="Keyboard shortcuts").click()
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog.get_by_role("row", name="Find and replace")).to_contain_text("Ctrl+H")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)
