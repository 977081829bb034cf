"""Tables in a real browser: Insert → Table with the size picker, typing and Tab between cells (Tab in the
last cell adds a row), right-click to insert and delete rows and columns; the store holds one table block
whose cells a check reads row by row."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.docs import blocks as B
from apps.docs import service
from tests.apps.docs.test_browser import blank_doc, blocks
from tests.apps.docs.test_browser_suggest import wait_store

pytestmark = pytest.mark.browser


def table_of(st, did):
    t = [b for b in service.read_blocks(st, did) if b["type"] == "table"]
    return B.table_rows(t[0]) if len(t) == 1 else None


def test_insert_a_table_type_in_cells_and_change_rows_and_columns(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("Fleet")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Insert", exact=True).click()
    page.get_by_role("menuitem", name="Table").click()
    picker = page.get_by_role("group", name="Table size")
    picker.get_by_role("button", name="3 x 2", exact=True).hover()
    expect(picker).to_contain_text("3 x 2")
    picker.get_by_role("button", name="3 x 2", exact=True).click()
    table = body.locator("table")
    expect(table.locator("tr")).to_have_count(2)
    expect(table.locator("tr").first.locator("td")).to_have_count(3)
    for i, word in enumerate(["Vessel", "Tonnage", "Flag", "Halcyon", "12,000", "Bahamas"]):
        if i:
            page.keyboard.press("Tab")
        page.keyboard.type(word)
    page.keyboard.press("Tab")                                 # the last cell: a new row
    expect(table.locator("tr")).to_have_count(3)
    page.keyboard.type("Corvane")
    want = [["Vessel", "Tonnage", "Flag"], ["Halcyon", "12,000", "Bahamas"], ["Corvane", "", ""]]
    wait_store(page, live_slot, did, lambda st: table_of(st, did) == want, "typed in cells")
    with live_slot.store() as st:
        assert [b["type"] for b in service.read_blocks(st, did)][0] == "paragraph"
        assert service.tables(st, "alex.chen", did) == [{"index": 1, "rows": want}]
    # right-click: a column after "Tonnage", then type in it
    table.get_by_text("Tonnage").click(button="right")
    menu = page.get_by_role("menu", name="Table")
    menu.get_by_role("menuitem", name="Insert column right").click()
    expect(table.locator("tr").first.locator("td")).to_have_count(4)
    page.keyboard.type("Built")
    table.get_by_text("Flag").click(button="right")
    page.get_by_role("menu", name="Table").get_by_role("menuitem", name="Delete column").click()
    table.get_by_text("Corvane").click(button="right")
    page.get_by_role("menu", name="Table").get_by_role("menuitem", name="Delete row").click()
    table.get_by_text("Vessel").click(button="right")
    page.get_by_role("menu", name="Table").get_by_role("menuitem", name="Insert row above").click()
    page.keyboard.type("Ships")
    want = [["Ships", "", ""], ["Vessel", "Tonnage", "Built"], ["Halcyon", "12,000", ""]]
    wait_store(page, live_slot, did, lambda st: table_of(st, did) == want, "rows and columns changed")
    # what was saved is what is shown
    page.reload()
    rows = page.get_by_role("textbox", name="Document content").locator("table tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1).locator("td")).to_have_text(["Vessel", "Tonnage", "Built"])
    # delete the table: the document keeps its paragraph
    rows.nth(1).get_by_text("Vessel").click(button="right")
    page.get_by_role("menu", name="Table").get_by_role("menuitem", name="Delete table").click()
    wait_store(page, live_slot, did, lambda st: table_of(st, did) is None, "table deleted")
    assert [b["text"] for b in blocks(live_slot, did)][0] == "Fleet"
