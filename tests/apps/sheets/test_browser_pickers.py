"""The in-page pickers from the keyboard, as the browser's own would answer it: a toolbar palette opened
with ↓, moved through with the arrows, a colour taken with Enter (the grid keeps the keyboard after); the
filter menu's Condition drop-down closed with Escape, the menu with a second Escape."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.apps.sheets.test_browser import DAMAGES, book, cell, go, until

pytestmark = pytest.mark.browser


def test_a_palette_and_a_drop_down_from_the_keyboard(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "B3")
    page.get_by_role("button", name="Fill color").focus()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("group", name="Fill color").get_by_role("button", name="Reset")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("button", name="black")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("button", name="blue", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    until(lambda: (cell(live_slot, b, "Claims", "B3")["format"] or {}).get("fill") == "#0000ff", "blue")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("B4")
    page.get_by_role("button", name="Data").click()
    page.get_by_role("menuitem", name="Create a filter").click()
    page.get_by_role("button", name="Filter column D").click()
    menu = page.get_by_role("dialog", name="Filter column D")
    menu.get_by_text("Filter by condition").click()
    menu.get_by_role("button", name="Condition").click()
    expect(menu.get_by_role("listbox", name="Condition")).to_be_visible()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")
    expect(menu.get_by_role("listbox", name="Condition")).to_be_hidden()
    expect(menu).to_be_visible()
    expect(menu.get_by_role("button", name="Condition: None")).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
