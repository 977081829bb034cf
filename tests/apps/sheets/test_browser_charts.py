"""Charts in a real browser, by mouse and keyboard: insert, the chart editor, data changes, move, delete;
each step checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S
from tests.apps.sheets.test_browser import DAMAGES, book, go, until

pytestmark = pytest.mark.browser


def charts(slot, b, tab="Claims"):
    with slot.store() as st:
        return S.charts(st, S.tab(st, b, name=tab)["id"])


def test_insert_a_chart_edit_it_watch_it_follow_the_data_move_and_delete_it(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "A1:D8")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("A1:D8")
    page.get_by_role("button", name="Insert").click()
    page.get_by_role("menuitem", name="Chart").click()
    chart = page.get_by_role("figure", name="Chart: Amount (USD)")
    expect(chart).to_be_visible()
    expect(chart.locator("rect.bar")).to_have_count(7)
    expect(chart.locator("text.category-label").first).to_have_text("CL-001")
    editor = page.get_by_role("complementary", name="Chart editor")
    expect(editor).to_be_visible()
    until(lambda: [(c["type"], c["range"]) for c in charts(live_slot, b)] == [("column", "A1:D8")], "the chart saved")
    cid = charts(live_slot, b)[0]["id"]
    # the editor: type, title, legend, data range
    # the drop-downs are drawn in the page: open one, click a choice
    expect(editor.get_by_role("button", name="Chart type: Column chart")).to_be_visible()
    editor.get_by_role("button", name="Chart type").click()
    editor.get_by_role("listbox", name="Chart type").get_by_role("option", name="Pie chart").click()
    expect(editor.get_by_role("listbox", name="Chart type")).to_be_hidden()
    expect(editor.get_by_role("button", name="Chart type: Pie chart")).to_be_visible()
    expect(chart.locator(".slice")).to_have_count(7)
    until(lambda: charts(live_slot, b)[0]["type"] == "pie", "pie saved")
    editor.get_by_label("Chart title").click()
    page.keyboard.press("Control+a")
    page.keyboard.type("Claims by amount")
    page.keyboard.press("Enter")
    expect(page.get_by_role("figure", name="Chart: Claims by amount")).to_be_visible()
    until(lambda: charts(live_slot, b)[0]["title"] == "Claims by amount", "title saved")
    # and from the keyboard: ↓ opens it at the current choice, ↓ again, Enter takes it
    editor.get_by_role("button", name="Legend").focus()
    page.keyboard.press("ArrowDown")
    expect(editor.get_by_role("option", name="Right")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(editor.get_by_role("option", name="Bottom")).to_be_focused()
    page.keyboard.press("Enter")
    expect(editor.get_by_role("button", name="Legend: Bottom")).to_be_focused()
    until(lambda: charts(live_slot, b)[0]["legend"] == "bottom", "legend saved")
    chart = page.get_by_role("figure", name="Chart: Claims by amount")
    expect(chart.locator('.legend[data-position="bottom"] .legend-item')).to_have_count(7)
    editor.get_by_label("Data range").click()
    page.keyboard.press("Control+a")
    page.keyboard.type("A1:D5")
    page.keyboard.press("Enter")
    expect(chart.locator(".slice")).to_have_count(4)
    until(lambda: charts(live_slot, b)[0]["range"] == "A1:D5", "range saved")
    editor.get_by_role("button", name="Close chart editor").click()
    expect(editor).to_be_hidden()
    # the data changes: the chart is drawn again
    go(page, "D2")
    page.keyboard.type("1000")
    page.keyboard.press("Enter")
    expect(chart.locator('.slice[data-category="CL-001"]')).to_have_attribute("data-value", "1000")
    with live_slot.store() as st:
        assert S.chart_data(st, cid)["series"][0]["values"] == [1000, 6840000, 21900000, 4125000]
    # drag it by the mouse: it lands on another cell
    was = charts(live_slot, b)[0]["anchor"]
    box = chart.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 160, box["y"] + box["height"] / 2 + 120, steps=10)
    page.mouse.up()
    until(lambda: charts(live_slot, b)[0]["anchor"] != was, "the chart moved")
    moved = charts(live_slot, b)[0]["anchor"]
    assert moved[0] > was[0] and int(moved[1:]) > int(was[1:]), (was, moved)
    # select it and delete it from its tools
    chart.click()
    page.get_by_role("button", name="Delete chart").click()
    expect(page.get_by_role("figure")).to_have_count(0)
    until(lambda: charts(live_slot, b) == [], "the chart deleted")
