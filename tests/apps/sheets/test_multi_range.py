"""A selection of several ranges (Ctrl+click): formats and Delete apply to every range, as one undo step;
the route takes "B2:C4,E7"; and in a real browser, Ctrl+click and Ctrl+drag add ranges."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.sheets import service as S
from tests.apps.sheets.test_browser import DAMAGES, book, go, grid as grid_of, until
from tests.apps.sheets.test_routes import cell as route_cell, ids


def test_format_and_clear_several_ranges_as_one_undo_step(store, alex):
    b = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (DAMAGES,))
    t = S.tab(store, b, name="Claims")
    S.format_ranges(store, alex, b, t["id"], [(2, 1, 3, 1), (5, 4, 5, 4), (2, 1, 2, 2)], bold=True)
    assert all(S.cell(store, b, "Claims", a)["format"].get("bold") for a in ("A2", "A3", "D5", "B2"))
    assert S.undo(store, alex, b) == "Format"                      # one step undoes every range
    assert not any((S.cell(store, b, "Claims", a)["format"] or {}).get("bold") for a in ("A2", "A3", "D5", "B2"))
    S.clear_ranges(store, alex, b, t["id"], [(2, 1, 2, 1), (4, 2, 4, 2)])
    assert S.cell(store, b, "Claims", "A2") is None and S.cell(store, b, "Claims", "B4") is None
    S.undo(store, alex, b)
    assert S.cell(store, b, "Claims", "A2")["value"] == "CL-001" and S.cell(store, b, "Claims", "B4")["value"]


def test_the_format_and_clear_routes_take_several_ranges(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "A2:A3,D5", "italic": True})
    assert r.status_code == 200 and {c["a1"] for c in r.get_json()["cells"]} == {"A2", "A3", "D5"}
    assert route_cell(slot, b, "Claims", "D5")["format"]["italic"] is True
    r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "C2,ZZ9", "italic": True})
    assert r.status_code == 422 and r.get_json()["field"] == "range"
    assert not (route_cell(slot, b, "Claims", "C2")["format"] or {}).get("italic")          # nothing written
    r = client.post(f"/sheets/s/{b}/clear", json={"tab": t, "range": "A2,B2"})
    assert r.status_code == 200 and route_cell(slot, b, "Claims", "B2") is None


@pytest.mark.browser
def test_ctrl_click_adds_ranges_and_bold_and_fill_apply_to_all(desk, live_slot):
    page = desk
    b = book(live_slot, DAMAGES)
    page.goto(f"/sheets/s/{b}")
    g = grid_of(page)

    def at(r, c):
        box = g.locator("tbody tr").nth(r - 1).locator("td").nth(c - 1).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def fmt(a1):
        with live_slot.store() as st:
            return (S.cell(st, b, "Claims", a1) or {}).get("format") or {}
    page.mouse.click(*at(3, 2))                                   # B3
    page.keyboard.down("Control")
    page.mouse.click(*at(5, 4))                                   # + D5
    page.mouse.move(*at(6, 3))                                    # + C6:C8, dragged
    page.mouse.down()
    page.mouse.move(*at(8, 3), steps=5)
    page.mouse.up()
    page.keyboard.up("Control")
    expect(page.locator(".sel-more")).to_have_count(2)
    expect(page.get_by_role("textbox", name="Name box")).to_have_value("C6:C8")
    page.keyboard.press("Control+b")
    until(lambda: all(fmt(a).get("bold") for a in ("B3", "D5", "C6", "C7", "C8")), "every range bold")
    assert not fmt("C5").get("bold") and not fmt("D4").get("bold")
    page.get_by_role("button", name="Fill color").click()
    page.get_by_role("group", name="Fill color").get_by_role("button", name="light yellow 3").click()
    until(lambda: all(fmt(a).get("fill") == "#fff2cc" for a in ("B3", "D5", "C8")), "every range filled")
    expect(g.get_by_role("gridcell", name="$4,125,000.00")).to_have_css("background-color", "rgb(255, 242, 204)")
    # a plain click leaves one range again
    page.mouse.click(*at(12, 1))
    expect(page.locator(".sel-more")).to_have_count(0)
    page.keyboard.press("Control+z")
    until(lambda: not any(fmt(a).get("fill") for a in ("B3", "D5", "C8")), "one undo step for the fill")

