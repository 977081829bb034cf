"""Drive's newer surfaces in a real browser: general access and Copy link, Make a copy, the filter chips,
the New menu over everything, the grid layout and the details panel; state checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.apps.drive.test_browser import item, row

pytestmark = pytest.mark.browser


def test_general_access_and_copy_link(desk, live_slot, live_server):
    page = desk
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/drive/my-drive")
    notes = item(live_slot, "Notes")
    row(page, "Notes").click()
    page.get_by_role("toolbar", name="Selection actions").get_by_role("button", name="Share", exact=True).click()
    dialog = page.get_by_role("dialog", name="Share “Notes”")
    dialog.get_by_role("button", name="General access: Restricted").click()
    dialog.get_by_role("option", name="Anyone with the link").click()
    expect(dialog.get_by_text("Anyone on the internet with the link can view")).to_be_visible()
    dialog.get_by_role("button", name="Link role: Viewer").click()
    dialog.get_by_role("option", name="Commenter").click()
    expect(dialog.get_by_text("Anyone on the internet with the link can comment")).to_be_visible()
    got = item(live_slot, "Notes")
    assert (got["link_access"], got["link_role"]) == ("anyone", "commenter")
    assert item(live_slot, "Notes")["id"] == notes["id"]
    dialog.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("status").filter(has_text="Link copied")).to_be_visible()
    copied = page.evaluate("document.body.dataset.copiedLink")
    assert copied.endswith(f"/drive/open/{notes['id']}")
    assert page.evaluate("navigator.clipboard.readText()") == copied


def test_make_a_copy_from_the_context_menu(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    row(page, "Timesheet – March 2026.csv").click(button="right")
    page.get_by_role("menuitem", name="Make a copy").click()
    expect(page.get_by_role("status").filter(has_text="Created “Copy of Timesheet – March 2026.csv”")).to_be_visible()
    expect(row(page, "Copy of Timesheet – March 2026.csv")).to_have_count(1)
    src, new = item(live_slot, "Timesheet – March 2026.csv"), item(live_slot, "Copy of Timesheet – March 2026.csv")
    assert (new["owner"], new["parent"], new["blob"]) == ("alex.chen", src["parent"], src["blob"])


def test_filter_chips_and_the_new_menu(desk):
    page = desk
    page.goto("/drive/my-drive")
    page.get_by_role("button", name="New").click()
    menu = page.get_by_role("menu", name="New")
    expect(menu).to_be_visible()
    box = menu.bounding_box()
    # Drawn above the main panel: the point at its right edge is the menu, not the panel under it.
    hit = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('[role=menu]')",
                        [box["x"] + box["width"] - 12, box["y"] + box["height"] - 12])
    assert hit and box["x"] + box["width"] > page.locator(".sidebar").bounding_box()["width"] - 20
    page.keyboard.press("Escape")
    page.goto("/drive/my-drive")
    page.get_by_role("toolbar", name="Filters").get_by_role("button", name="Type").click()
    page.get_by_role("menuitem", name="PDFs").click()
    expect(page).to_have_url(re.compile(r"/drive/search\?q=type(:|%3A)pdf"))
    expect(page.get_by_role("button", name="Type: PDFs")).to_be_visible()
    expect(page.locator("tr.frow").first).to_contain_text(".pdf")
    page.get_by_role("link", name="Clear Type filter").click()
    expect(page).to_have_url(re.compile(r"/drive/my-drive$"))


def test_grid_layout_and_the_details_panel(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    page.get_by_role("button", name="Grid layout").click()
    expect(page.locator("table.ftable.grid")).to_be_visible()
    with live_slot.store() as st:
        assert [r["layout"] for r in st.select("drive_prefs", "user=?", ("alex.chen",))] == ["grid"]
    page.reload()
    expect(page.get_by_role("button", name="Grid layout")).to_have_attribute("aria-pressed", "true")
    row(page, "Notes").click()
    page.get_by_role("button", name="View details").click()
    panel = page.get_by_role("region", name="Details of Notes")
    expect(panel.get_by_text("Who has access")).to_be_visible()
    panel.get_by_role("tab", name="Activity").click()
    expect(panel.get_by_role("list", name="Activity")).to_contain_text("You created")
    panel.get_by_role("button", name="Close details").click()
    expect(panel).to_have_count(0)
    # The selection bar's Copy link copies the selected item's link.
    page.get_by_role("toolbar", name="Selection actions").get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("status").filter(has_text="Link copied")).to_be_visible()
    assert page.evaluate("document.body.dataset.copiedLink").endswith(f"/drive/open/{item(live_slot, 'Notes')['id']}")
    expect(page.locator("tr.grid-heading").first).to_have_text("Folders")
    page.get_by_role("button", name="List layout").click()
    expect(page.locator("table.ftable.grid")).to_have_count(0)
