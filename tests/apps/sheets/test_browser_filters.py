"""Filters and filter views in a real browser, by mouse and keyboard; what they hide checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S
from tests.apps.sheets.test_browser import DAMAGES, book, go, grid, until

pytestmark = pytest.mark.browser


def tab_filters(slot, b, tab="Claims"):
    with slot.store() as st:
        return S.filters(st, S.tab(st, b, name=tab)["id"])


def shown(slot, fid):
    with slot.store() as st:
        return S.shown_rows(st, fid)


def data_menu(page, item):
    page.get_by_role("button", name="Data").click()
    page.get_by_role("menuitem", name=item).click()


def test_create_a_filter_filter_by_values_and_condition_sort_and_remove(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "B3")
    data_menu(page, "Create a filter")                       # one cell: the block of data around it
    expect(page.get_by_role("button", name=re.compile(r"^Filter column [A-F]"))).to_have_count(6)
    until(lambda: [f["range"] for f in tab_filters(live_slot, b)] == ["A1:F8"], "the filter saved")
    fid = tab_filters(live_slot, b)[0]["id"]
    # Filter by values: untick Withdrawn in column F
    page.get_by_role("button", name="Filter column F").click()
    menu = page.get_by_role("dialog", name="Filter column F")
    expect(menu).to_be_visible()
    menu.get_by_role("checkbox", name="Withdrawn").click()
    expect(menu.get_by_role("checkbox", name="Withdrawn")).not_to_be_checked()
    menu.get_by_role("button", name="OK").click()
    expect(menu).to_be_hidden()
    expect(grid(page).get_by_role("gridcell", name="CL-007")).to_be_hidden()
    expect(page.get_by_role("button", name="Filter column F (filtered)")).to_be_visible()
    until(lambda: shown(live_slot, fid)["hidden"] == [8], "row 8 hidden in the store")
    # Filter by condition: amounts greater than 20,000,000
    page.get_by_role("button", name="Filter column D").click()
    menu = page.get_by_role("dialog", name="Filter column D")
    menu.get_by_text("Filter by condition").click()
    menu.get_by_role("button", name="Condition: None").click()
    menu.get_by_role("listbox", name="Condition").get_by_role("option", name="Greater than", exact=True).click()
    expect(menu.get_by_role("button", name="Condition: Greater than")).to_be_visible()
    menu.get_by_role("textbox", name="Condition value").click()
    page.keyboard.type("20000000")
    menu.get_by_role("button", name="OK").click()
    expect(grid(page).get_by_role("gridcell", name="CL-002")).to_be_hidden()
    until(lambda: shown(live_slot, fid)["shown"] == [2, 4, 6], "only the claims over $20m shown")
    assert tab_filters(live_slot, b)[0]["criteria"]["D"] == {"condition": {"type": "gt", "value": "20000000"}}
    expect(grid(page).get_by_role("gridcell", name="CL-005")).to_be_visible()
    # moving with the keyboard skips the hidden rows
    go(page, "A2")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("A4")
    # sort Z → A from the column's menu: the rows below the header, by amount, largest first
    page.get_by_role("button", name="Filter column D (filtered)").click()
    page.get_by_role("dialog", name="Filter column D").get_by_role("button", name="Sort Z → A").click()
    expect(page.get_by_role("status").filter(has_text="Range sorted")).to_be_visible()

    def amounts():
        with live_slot.store() as st:
            return [S.cell(st, b, "Claims", f"D{r}")["value"] for r in range(2, 9)]
    until(lambda: amounts() == sorted(amounts(), reverse=True), "the filter's rows sorted by amount")
    # Data → Remove filter: every row shows again
    data_menu(page, "Remove filter")
    expect(page.get_by_role("button", name=re.compile(r"^Filter column"))).to_have_count(0)
    expect(grid(page).get_by_role("gridcell", name="CL-007")).to_be_visible()
    until(lambda: tab_filters(live_slot, b) == [], "the filter removed")


def test_a_named_filter_view_is_saved_and_applies_only_when_opened(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "A1:F8")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("A1:F8")
    data_menu(page, "Create new filter view")
    bar = page.get_by_role("region", name="Filter view")
    expect(bar).to_be_visible()
    expect(page).to_have_url(re.compile(r"view=\d+"))
    name = bar.get_by_role("textbox", name="Filter view name")
    expect(name).to_have_value("Filter 1")
    expect(bar.get_by_role("textbox", name="Filter view range")).to_have_value("A1:F8")
    name.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("Third party only")
    page.keyboard.press("Enter")
    until(lambda: [f["name"] for f in tab_filters(live_slot, b)] == ["Third party only"], "the view renamed")
    vid = tab_filters(live_slot, b)[0]["id"]
    page.get_by_role("button", name="Filter column F").click()
    menu = page.get_by_role("dialog", name="Filter column F")
    menu.get_by_role("searchbox", name="Search values").click()
    page.keyboard.type("w")                                   # narrows the list; Clear unticks only those shown
    expect(menu.get_by_role("checkbox", name="Third party")).to_be_hidden()
    menu.get_by_role("button", name="Clear").click()
    menu.get_by_role("button", name="OK").click()
    expect(grid(page).get_by_role("gridcell", name="CL-006")).to_be_hidden()
    until(lambda: shown(live_slot, vid)["shown"] == [2, 3, 4, 5, 6], "the view shows the third-party claims")
    assert tab_filters(live_slot, b)[0]["criteria"] == {"F": {"hidden": ["Corvane own", "Withdrawn"]}}
    # closed, the sheet shows every row (a view hides rows only for whoever has it open)
    bar.get_by_role("link", name="Close filter view").click()
    expect(bar).to_be_hidden()
    expect(grid(page).get_by_role("gridcell", name="CL-006")).to_be_visible()
    with live_slot.store() as st:
        assert S.hidden_rows(st, S.tab(st, b, name="Claims")["id"]) == set()
    # saved: the Data menu opens it again
    data_menu(page, "Filter view: Third party only")
    expect(page.get_by_role("region", name="Filter view")).to_be_visible()
    expect(grid(page).get_by_role("gridcell", name="CL-006")).to_be_hidden()
    expect(grid(page).get_by_role("gridcell", name="CL-005")).to_be_visible()


def test_save_the_sheets_filter_as_a_filter_view(desk, live_slot):
    from apps.core.store.db import Caller
    page = desk
    b = book(live_slot, DAMAGES)
    with live_slot.store() as st:
        t = S.tab(st, b, name="Claims")["id"]
        fid = S.create_filter(st, Caller(user="alex.chen"), b, t, (1, 1, 8, 6))
        S.set_criteria(st, Caller(user="alex.chen"), b, fid, "F", hidden=["Withdrawn"])
    page.goto(f"/sheets/s/{b}")
    expect(grid(page).get_by_role("gridcell", name="CL-007")).to_be_hidden()
    data_menu(page, "Save as filter view")
    bar = page.get_by_role("region", name="Filter view")
    expect(bar.get_by_role("textbox", name="Filter view name")).to_have_value("Filter 1")
    expect(grid(page).get_by_role("gridcell", name="CL-007")).to_be_hidden()
    views = [f for f in tab_filters(live_slot, b) if f["kind"] == "view"]
    assert [(v["range"], v["criteria"]) for v in views] == [("A1:F8", {"F": {"hidden": ["Withdrawn"]}})]
