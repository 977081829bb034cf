"""Merged cells in a real browser: Format → Merge cells and the toolbar button, the block drawn over the
grid, the keyboard stepping over it, unmerge; each step checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S
from tests.apps.sheets.test_browser import DAMAGES, book, go, until

pytestmark = pytest.mark.browser


def merged(slot, b, tab="Claims"):
    with slot.store() as st:
        return [m["range"] for m in S.merges(st, S.tab(st, b, name=tab)["id"])]


def test_merge_from_the_menu_and_the_toolbar_then_unmerge(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    name_box = page.get_by_role("textbox", name="Name box")
    go(page, "A10:C10")
    expect(name_box).to_have_value("A10:C10")
    page.get_by_role("button", name="Format", exact=True).click()
    page.get_by_role("menuitem", name="Merge all").click()
    block = page.locator('.merge[data-range="A10:C10"]')
    expect(block).to_have_text("Third-party total")
    until(lambda: merged(live_slot, b) == ["A10:C10"], "A10:C10 merged")
    # the block covers its three cells, and is bold as its top-left cell is
    a10 = page.get_by_role("grid").locator("tbody tr").nth(9).locator("td").nth(0).bounding_box()
    c10 = page.get_by_role("grid").locator("tbody tr").nth(9).locator("td").nth(2).bounding_box()
    box = block.bounding_box()
    assert abs(box["x"] - a10["x"]) < 2 and abs(box["x"] + box["width"] - (c10["x"] + c10["width"])) < 2
    expect(block).to_have_css("font-weight", "700")
    # clicking a covered cell selects the block; the arrow keys step over it
    page.mouse.click(c10["x"] + c10["width"] / 2, c10["y"] + c10["height"] / 2)
    expect(name_box).to_have_value("A10")
    page.keyboard.press("ArrowRight")
    expect(name_box).to_have_value("D10")
    page.keyboard.press("ArrowLeft")
    expect(name_box).to_have_value("A10")
    # the toolbar button merges the selection (only the top-left value stays) …
    go(page, "E2:F2")
    expect(name_box).to_have_value("E2:F2")
    page.get_by_role("button", name="Merge cells").click()
    until(lambda: merged(live_slot, b) == ["A10:C10", "E2:F2"], "E2:F2 merged")
    with live_slot.store() as st:
        assert S.cell(st, b, "Claims", "F2") is None
    # … and, on a merged block, unmerges it; Format → Unmerge does too
    page.get_by_role("button", name="Merge cells").click()
    until(lambda: merged(live_slot, b) == ["A10:C10"], "E2:F2 unmerged")
    go(page, "B10")
    expect(name_box).to_have_value("A10")
    page.get_by_role("button", name="Format", exact=True).click()
    page.get_by_role("menuitem", name="Unmerge").click()
    expect(block).to_have_count(0)
    until(lambda: merged(live_slot, b) == [], "all unmerged")
