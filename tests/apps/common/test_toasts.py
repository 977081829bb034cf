"""Toasts: placed where each product puts its snackbar without covering the editors' furniture
(Sheets' tabs along the bottom, Slides' filmstrip), and gone at the next press anywhere else, as a
snackbar a real app times out is gone by a person's next action (a press, not a timer, so what a
screenshot shows doesn't depend on how long a step took)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def ref(slot, name, kind):
    with slot.store() as st:
        return st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind=?", (name, kind))


def toast(page, text):
    """The toast the apps' scripts raise (the same markup as _toast.html)."""
    page.evaluate("""t => { const r = document.getElementById('toast-region');
        r.innerHTML = '<div class="toast" role="status" data-closable><span class="msg"></span></div>';
        r.querySelector('.msg').textContent = t; }""", text)
    return page.get_by_role("status").filter(has_text=text)


def overlaps(a, b):
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or
                a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_a_toast_in_sheets_sits_above_the_sheet_tabs_and_goes_at_the_next_click(desk, live_slot):
    page = desk
    page.goto(f"/sheets/s/{ref(live_slot, 'Billing Tracker – M-2026-0147 (live)', 'sheet')}")
    t = toast(page, "Copied to clipboard")
    expect(t).to_be_visible()
    assert not overlaps(t.bounding_box(), page.get_by_role("navigation", name="Sheets").bounding_box())
    t.click()                                                   # a press on the toast itself keeps it
    expect(t).to_be_visible()
    page.get_by_role("grid").click(position={"x": 300, "y": 200})
    expect(t).to_have_count(0)


def test_a_toast_in_slides_keeps_clear_of_the_filmstrip(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        deck = st.scalar("SELECT ref FROM drive_items WHERE kind='deck' ORDER BY id LIMIT 1")
    page.goto(f"/slides/p/{deck}")
    t = toast(page, "Slide deleted")
    expect(t).to_be_visible()
    assert not overlaps(t.bounding_box(), page.get_by_role("listbox", name="Slides").bounding_box())
