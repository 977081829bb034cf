"""Conditional formatting in a real browser: the side panel adds a rule, the grid shows it, an edit that
meets the rule is formatted, a custom-formula rule, deleting a rule; each step checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S
from tests.apps.sheets.test_browser import DAMAGES, book, go, grid, until

pytestmark = pytest.mark.browser


def rules(slot, b, tab="Claims"):
    with slot.store() as st:
        return S.rules(st, S.tab(st, b, name=tab)["id"])


def styled(slot, b, tab="Claims"):
    with slot.store() as st:
        return S.styles(st, S.tab(st, b, name=tab)["id"])


def choose(form, label, option):
    """Open an in-page drop-down and click a choice, as a person does."""
    form.get_by_role("button", name=label).click()
    form.get_by_role("listbox", name=label).get_by_role("option", name=option, exact=True).click()
    expect(form.get_by_role("button", name=f"{label}: {option}")).to_be_visible()


def test_add_rules_in_the_side_panel_and_see_them_on_the_grid(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    go(page, "D2:D8")
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("D2:D8")
    page.get_by_role("button", name="Format", exact=True).click()
    page.get_by_role("menuitem", name="Conditional formatting").click()
    panel = page.get_by_role("complementary", name="Conditional format rules")
    form = panel.get_by_role("form", name="Conditional format rule")
    expect(form.get_by_label("Apply to range")).to_have_value("D2:D8")
    choose(form, "Format cells if…", "Greater than")
    form.get_by_label("Value or formula").click()
    page.keyboard.type("20000000")
    form.get_by_label("Bold").check()
    form.get_by_role("button", name="Done").click()
    expect(panel.get_by_role("listitem", name="Greater than 20000000 on D2:D8")).to_be_visible()
    until(lambda: [(r["range"], r["condition"], r["style"]) for r in rules(live_slot, b)] ==
          [("D2:D8", {"type": "gt", "value": "20000000"}, {"fill": "#b7e1cd", "bold": True})], "the rule saved")
    big = grid(page).get_by_role("gridcell", name="$52,000,000.00")
    expect(big).to_have_css("background-color", "rgb(183, 225, 205)")
    expect(big).to_have_css("font-weight", "700")
    small = grid(page).get_by_role("gridcell", name="$6,840,000.00")
    expect(small).not_to_have_css("background-color", "rgb(183, 225, 205)")
    # an edit that meets the rule is formatted at once
    go(page, "D3")
    page.keyboard.type("30000000")
    page.keyboard.press("Enter")
    expect(grid(page).get_by_role("gridcell", name="$30,000,000.00")).to_have_css("background-color", "rgb(183, 225, 205)")
    until(lambda: (3, 4) in styled(live_slot, b), "D3 formatted in the store")
    # a custom formula rule: the withdrawn claim's row, struck through in red
    panel.get_by_role("button", name="Add another rule").click()
    form = panel.get_by_role("form", name="Conditional format rule")
    form.get_by_label("Apply to range").click()
    page.keyboard.press("Control+a")
    page.keyboard.type("A2:F8")
    choose(form, "Format cells if…", "Custom formula is")
    form.get_by_label("Value or formula").click()
    page.keyboard.type('=$F2="Withdrawn"')
    form.get_by_label("Strikethrough").check()
    form.get_by_role("button", name="Fill colour").click()
    form.get_by_role("group", name="Fill colour").get_by_role("button", name="light red 3").click()
    expect(form.get_by_role("button", name="Fill colour: light red 3")).to_be_visible()
    form.get_by_role("button", name="Text colour").click()
    form.get_by_role("group", name="Text colour").get_by_role("button", name="dark red 1").click()
    expect(form.get_by_role("button", name="Text colour: dark red 1")).to_be_visible()
    form.get_by_role("button", name="Done").click()
    expect(panel.get_by_role("listitem")).to_have_count(2)
    expect(grid(page).get_by_role("gridcell", name="Harbourside Marina Association")).to_have_css(
        "text-decoration-line", "line-through")
    until(lambda: {p for p, s in styled(live_slot, b).items() if s.get("strike")} == {(8, c) for c in range(1, 7)},
          "row 8 struck through in the store")
    assert rules(live_slot, b)[1]["style"] == {"fill": "#f4cccc", "color": "#cc0000", "strike": True}
    # delete the first rule from the panel
    panel.get_by_role("button", name="Delete rule Greater than 20000000 on D2:D8").click()
    expect(panel.get_by_role("listitem")).to_have_count(1)
    expect(grid(page).get_by_role("gridcell", name="$52,000,000.00")).not_to_have_css("background-color", "rgb(183, 225, 205)")
    until(lambda: [r["range"] for r in rules(live_slot, b)] == ["A2:F8"], "the first rule deleted")
