"""Sheets in a real browser: select, type, formulas, keyboard, clipboard, rows, sort, tabs; state checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S

pytestmark = pytest.mark.browser

DAMAGES = "Damages Model – Aurelia Dawn"
BILLING = "Billing Tracker – M-2026-0147 (live)"


def book(slot, title):
    with slot.store() as st:
        return st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (title,))


def cell(slot, b, tab, a1):
    with slot.store() as st:
        return S.cell(st, b, tab, a1)


def go(page, ref):
    page.get_by_role("textbox", name="Name box").click()
    page.keyboard.type(ref)
    page.keyboard.press("Enter")


def until(condition, what: str, timeout: float = 15.0):
    """Wait for a condition on the server's state (not for a time): poll it until it holds."""
    import time
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def grid(page):
    return page.get_by_role("grid")


def test_fix_a_figure_from_drive_and_watch_totals_update(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto("/drive/search?q=damages+model")
    page.get_by_role("link", name=DAMAGES, exact=True).dblclick()
    expect(page).to_have_url(re.compile(rf"/sheets/s/{b}$"))
    grid(page).get_by_role("gridcell", name="$6,840,000.00").click()
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("D3")
    expect(page.get_by_role("textbox", name="Formula bar")).to_have_value("6840000")
    page.keyboard.type("6480000")
    page.keyboard.press("Enter")
    expect(grid(page).get_by_role("gridcell", name="$122,755,000.00")).to_be_visible()
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("D4")
    assert cell(live_slot, b, "Claims", "D3")["value"] == 6480000
    assert cell(live_slot, b, "Summary", "B4")["value"] == 140055000
    # undo from the keyboard puts it back, in the store too
    page.keyboard.press("Control+z")
    expect(grid(page).get_by_role("gridcell", name="$123,115,000.00")).to_be_visible()
    assert cell(live_slot, b, "Claims", "D3")["value"] == 6840000


def test_type_a_formula_edit_in_the_formula_bar_and_escape(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "D14")
    page.keyboard.type("=D10-D3")
    page.keyboard.press("Tab")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("E14")
    # the selection moves on at once; the save may still be in flight on a loaded machine
    until(lambda: (cell(live_slot, b, "Claims", "D14") or {}).get("value") == 123115000 - 6840000, "D14 saved")
    go(page, "D14")
    fx = page.get_by_role("textbox", name="Formula bar")
    expect(fx).to_have_value("=D10-D3")
    fx.click()
    fx.fill("=ROUND(D10/1000000,1)")
    fx.press("Enter")
    expect(grid(page).get_by_role("gridcell", name="123.1", exact=True)).to_be_visible()
    assert cell(live_slot, b, "Claims", "D14")["input"] == "=ROUND(D10/1000000,1)"
    # typed without its closing parenthesis, the formula is closed as Sheets closes it
    go(page, "D15")
    page.keyboard.type("=SUM(D2:D3")
    page.keyboard.press("Enter")
    until(lambda: (cell(live_slot, b, "Claims", "D15") or {}).get("input") == "=SUM(D2:D3)", "D15 closed and saved")
    go(page, "D15")
    expect(fx).to_have_value("=SUM(D2:D3)")
    page.keyboard.press("Delete")
    until(lambda: cell(live_slot, b, "Claims", "D15") is None, "D15 cleared")
    go(page, "D14")
    page.keyboard.type("oops")
    page.keyboard.press("Escape")
    assert cell(live_slot, b, "Claims", "D14")["input"] == "=ROUND(D10/1000000,1)"
    page.keyboard.press("Delete")
    expect(grid(page).get_by_role("gridcell", name="123.1", exact=True)).to_have_count(0)
    until(lambda: cell(live_slot, b, "Claims", "D14") is None, "D14 cleared")


def test_add_a_billing_row_with_copy_paste_and_a_new_total(desk, live_slot):
    page = desk
    b = book(live_slot, BILLING)
    page.goto(f"/sheets/s/{b}")
    alex_before = cell(live_slot, b, "By timekeeper", "E5")["value"]
    name_box = page.get_by_role("textbox", name="Name box")
    go(page, "A40")
    expect(name_box).to_have_value("A40")
    values = ["2026-04-06", "Alex Chen", "Associate", "L210", "Draft shortfall section of the objection", "1.5", "480"]
    for col, v in zip("ABCDEFG", values):
        page.keyboard.type(v)
        page.keyboard.press("Tab")
        # each entry is saved and the selection has moved on before the next is typed (on a loaded
        # machine the next keys would otherwise reach the grid while the last save is in flight)
        expect(name_box).to_have_value(f"{chr(ord(col) + 1)}40")
        until(lambda col=col: cell(live_slot, b, "Entries", f"{col}40"), f"{col}40 saved")
    go(page, "H39")
    expect(name_box).to_have_value("H39")
    page.keyboard.press("Control+c")
    go(page, "H40")
    expect(name_box).to_have_value("H40")
    page.keyboard.press("Control+v")
    # the paste's save may still be in flight when the page shows it (and H39 may show $720.00 too)
    until(lambda: (cell(live_slot, b, "Entries", "H40") or {}).get("input") == "=F40*G40", "H40 pasted")
    expect(grid(page).get_by_role("gridcell", name="$720.00").first).to_be_visible()
    h40 = cell(live_slot, b, "Entries", "H40")
    assert h40["input"] == "=F40*G40" and h40["value"] == 720
    assert cell(live_slot, b, "Entries", "A40")["display"] == "2026-04-06"
    assert cell(live_slot, b, "By timekeeper", "E5")["value"] == alex_before + 720


def test_insert_a_row_from_the_context_menu_then_sort(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    grid(page).get_by_role("gridcell", name="CL-004").click(button="right")
    # the menu is as wide as its items and stays on the screen (it stretched to the window's right edge)
    menu = page.get_by_role("menu", name="Cell actions")
    expect(menu).to_be_visible()
    box, view = menu.bounding_box(), page.viewport_size
    assert box["width"] < 360 and box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    page.get_by_role("menuitem", name="Insert row above").click()
    expect(grid(page).get_by_role("gridcell", name="CL-004")).to_be_visible()
    # CL-004 was on screen before the insert too: wait for the row to move in the store, not on the page
    # (on a loaded machine the insert's save can still be in flight here)
    until(lambda: (cell(live_slot, b, "Claims", "A6") or {}).get("value") == "CL-004", "CL-004 moved down to A6")
    assert cell(live_slot, b, "Claims", "D11")["input"] == '=SUMIF(F2:F9,"Third party",D2:D9)'
    go(page, "D5")
    page.keyboard.type("1000")
    page.keyboard.press("Enter")
    expect(grid(page).get_by_role("gridcell", name="$1,000.00")).to_be_visible()
    assert cell(live_slot, b, "Claims", "D5")["display"] == "$1,000.00"
    # sort the claims by amount, largest first, from the Data menu
    go(page, "D2:F9")
    page.get_by_role("button", name="Data").click()
    page.get_by_role("menuitem", name="Sort range by column, Z → A").click()
    expect(page.get_by_role("status").filter(has_text="Range sorted")).to_be_visible()
    amounts = [cell(live_slot, b, "Claims", f"D{r}")["value"] for r in range(2, 10)]
    assert amounts == sorted(amounts, reverse=True)


def test_format_bold_and_rename_a_sheet(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "E2:E3")
    page.keyboard.press("Control+b")
    expect(page.get_by_role("button", name="Bold")).to_have_attribute("aria-pressed", "true")
    assert cell(live_slot, b, "Claims", "E3")["format"]["bold"] is True
    go(page, "H2")
    page.keyboard.type("0.125")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    page.get_by_role("button", name="Format as percent").click()
    expect(grid(page).get_by_role("gridcell", name="12.50%")).to_be_visible()
    page.get_by_role("tab", name="Limit").click()
    page.get_by_role("tab", name="Limit").dblclick()
    dialog = page.get_by_role("dialog", name="Rename sheet")
    dialog.get_by_label("Sheet name").fill("COPLA limit")
    dialog.get_by_role("button", name="OK").click()
    expect(page.get_by_role("tab", name="COPLA limit")).to_be_visible()
    assert cell(live_slot, b, "Summary", "B5")["input"] == "='COPLA limit'!B5"


def test_drag_the_fill_handle_and_fill_down_with_the_keyboard(desk, live_slot):
    """Two numbers dragged down by the handle continue their series and a formula next to them moves
    its references; Ctrl+D copies the row above; each lands in the store."""
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    name_box = page.get_by_role("textbox", name="Name box")
    go(page, "A20")
    for v in ("1", "3"):
        page.keyboard.type(v)
        page.keyboard.press("Enter")
        until(lambda v=v: (cell(live_slot, b, "Claims", "A21" if v == "3" else "A20") or {}).get("input") == v, f"{v} saved")
    go(page, "B20")
    page.keyboard.type("=A20*10")
    page.keyboard.press("Enter")
    until(lambda: (cell(live_slot, b, "Claims", "B20") or {}).get("value") == 10, "B20 saved")
    go(page, "A20:B21")
    expect(name_box).to_have_value("A20:B21")
    handle = page.get_by_role("button", name="Fill handle")
    expect(handle).to_be_visible()
    box = handle.bounding_box()
    target = grid(page).locator("tbody tr").nth(23).locator("td").nth(0).bounding_box()    # A24
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    page.mouse.up()
    until(lambda: (cell(live_slot, b, "Claims", "A24") or {}).get("value") == 9, "A22:A24 filled")
    assert [cell(live_slot, b, "Claims", f"A{r}")["value"] for r in range(20, 25)] == [1, 3, 5, 7, 9]
    # B20 continues as a formula (B21 was empty, so the pattern repeats it, then an empty cell)
    assert cell(live_slot, b, "Claims", "B22")["input"] == "=A22*10"
    expect(name_box).to_have_value("A20:B24")
    # Ctrl+D on a single cell copies the cell above
    go(page, "B25")
    page.keyboard.press("Control+d")
    until(lambda: (cell(live_slot, b, "Claims", "B25") or {}).get("input") == "=A25*10", "B25 filled down")


def test_italic_from_the_keyboard_and_colours_from_the_toolbar(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "B3")
    page.keyboard.press("Control+i")
    until(lambda: (cell(live_slot, b, "Claims", "B3")["format"] or {}).get("italic") is True, "B3 italic")
    expect(page.get_by_role("button", name="Italic")).to_have_attribute("aria-pressed", "true")
    # the colours are palettes drawn in the page (the browser's colour picker would be invisible)
    pick_colour(page, "Text color", "dark red 1")
    until(lambda: (cell(live_slot, b, "Claims", "B3")["format"] or {}).get("color") == "#cc0000", "B3 red")
    pick_colour(page, "Fill color", "light red 3")
    until(lambda: (cell(live_slot, b, "Claims", "B3")["format"] or {}).get("fill") == "#f4cccc", "B3 filled")
    expect(page.get_by_role("group", name="Fill color")).to_be_hidden()
    td = grid(page).get_by_role("gridcell", name="City of Port Calder (municipality)")
    expect(td).to_have_css("font-style", "italic")
    expect(td).to_have_css("color", "rgb(204, 0, 0)")
    expect(td).to_have_css("background-color", "rgb(244, 204, 204)")
    # the grid kept the keyboard: the arrow moves the selection
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("B4")
    # the colours survive a reload (rendered by the server, not only by the script)
    page.reload()
    expect(grid(page).get_by_role("gridcell", name="City of Port Calder (municipality)")).to_have_css("color", "rgb(204, 0, 0)")
    # Reset takes the fill away
    go(page, "B3")
    page.get_by_role("button", name="Fill color").click()
    page.get_by_role("group", name="Fill color").get_by_role("button", name="Reset").click()
    until(lambda: not (cell(live_slot, b, "Claims", "B3")["format"] or {}).get("fill"), "B3's fill reset")
    expect(grid(page).get_by_role("gridcell", name="City of Port Calder (municipality)")).not_to_have_css(
        "background-color", "rgb(244, 204, 204)")


def pick_colour(page, palette, colour):
    """Open a toolbar palette and click a swatch, as a person does."""
    page.get_by_role("button", name=palette).click()
    page.get_by_role("group", name=palette).get_by_role("button", name=colour, exact=True).click()


def test_function_suggestions_and_argument_help_while_typing_a_formula(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "D14")
    page.keyboard.type("=SUMI")
    suggest = page.get_by_role("listbox", name="Function suggestions")
    expect(suggest.get_by_role("option")).to_have_count(2)                       # SUMIF, SUMIFS
    expect(suggest.get_by_role("option", selected=True)).to_contain_text("SUMIF")
    page.keyboard.press("ArrowDown")
    expect(suggest.get_by_role("option", selected=True)).to_contain_text("SUMIFS")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Tab")                                                   # takes SUMIF, stays editing
    fx = page.get_by_role("textbox", name="Formula bar")
    expect(fx).to_have_value("=SUMIF(")
    help_ = page.get_by_role("tooltip")
    expect(help_).to_contain_text("SUMIF(range, criterion, [sum_range])")
    expect(help_.locator("b")).to_have_text("range")
    page.keyboard.type("F2:F8,")
    expect(help_.locator("b")).to_have_text("criterion")
    expect(page.locator(".ref-box[data-ref='F2:F8']")).to_be_visible()           # the range outlined on the grid
    page.keyboard.type('"Third party",D2:D8)')
    page.keyboard.press("Enter")
    until(lambda: (cell(live_slot, b, "Claims", "D14") or {}).get("value") == 123115000, "D14 computed")
    assert cell(live_slot, b, "Claims", "D14")["input"] == '=SUMIF(F2:F8,"Third party",D2:D8)'
    expect(suggest).to_be_hidden()
    expect(help_).to_be_hidden()
    expect(page.locator(".ref-box")).to_have_count(0)
    # editing a formula again outlines every range it reads, each in its own colour
    go(page, "D14")
    page.keyboard.press("F2")
    expect(page.locator(".ref-box")).to_have_count(2)
    colours = page.locator(".ref-box").evaluate_all("bs => bs.map(b => getComputedStyle(b).borderTopColor)")
    assert len(set(colours)) == 2
    page.keyboard.press("Escape")


def test_borders_from_the_toolbar(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "A10:D10")
    page.get_by_role("button", name="Borders").click()
    page.get_by_role("menuitem", name="Top border").click()
    until(lambda: (cell(live_slot, b, "Claims", "D10")["format"] or {}).get("border") == "t", "D10 top border")
    td = grid(page).get_by_role("gridcell", name="$123,115,000.00")
    expect(td).to_have_class(re.compile(r"\bbt\b"))
    assert "inset" in td.evaluate("e => getComputedStyle(e).boxShadow") or \
        "rgb(32, 33, 36)" in td.evaluate("e => getComputedStyle(e).boxShadow")
