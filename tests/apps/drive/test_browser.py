"""Drive in a real browser: select, open, move, rename, upload, share, trash; state checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def item(slot, name):
    with slot.store() as st:
        rows = st.select("drive_items", "name=?", (name,))
    assert len(rows) == 1, rows
    return rows[0]


def row(page, name):
    return page.locator("tr.frow").filter(has=page.get_by_role("link", name=name, exact=True))


def test_move_a_file_with_the_move_dialog(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    notes = item(live_slot, "Notes")
    r = row(page, "Timesheet – March 2026.csv")
    r.click(button="right")
    page.get_by_role("menuitem", name="Move", exact=True).click()
    dialog = page.get_by_role("dialog", name=re.compile("Move “Timesheet"))
    dialog.get_by_role("button", name="Move to Notes").click()
    expect(page.get_by_role("status").filter(has_text="moved to “Notes”")).to_be_visible()
    expect(row(page, "Timesheet – March 2026.csv")).to_have_count(0)
    assert item(live_slot, "Timesheet – March 2026.csv")["parent"] == notes["id"]
    page.get_by_role("link", name="Notes", exact=True).dblclick()
    expect(page).to_have_url(re.compile(rf"/drive/folders/{notes['id']}$"))
    expect(row(page, "Timesheet – March 2026.csv")).to_have_count(1)


def test_move_by_drag_and_drop(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    target = item(live_slot, "Templates")
    row(page, "Timesheet – March 2026.csv").drag_to(row(page, "Templates"))
    expect(page.get_by_role("status").filter(has_text="moved to “Templates”")).to_be_visible()
    assert item(live_slot, "Timesheet – March 2026.csv")["parent"] == target["id"]


def test_open_a_shared_folder_and_preview_a_pdf(desk):
    page = desk
    page.goto("/drive/shared")
    row(page, "Corvane – Aurelia Dawn (M-2026-0147)").dblclick()
    expect(page.get_by_role("navigation", name="Folder path")).to_contain_text("Corvane – Aurelia Dawn")
    row(page, "02 Vessel & Casualty").dblclick()
    row(page, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf").dblclick()
    viewer = page.get_by_role("dialog", name=re.compile("Preview of Final Survey Report"))
    expect(viewer.get_by_role("img", name=re.compile("page 1 of"))).to_be_visible()
    viewer.get_by_role("link", name="Close preview").click()
    expect(page.get_by_role("navigation", name="Folder path")).to_contain_text("02 Vessel & Casualty")


def test_new_folder_rename_and_upload_from_the_computer(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    page.get_by_role("button", name="New").click()
    page.get_by_role("menuitem", name="New folder").click()
    dialog = page.get_by_role("dialog", name="New folder")
    dialog.get_by_label("Name").fill("Board pack")
    dialog.get_by_role("button", name="Create").click()
    expect(row(page, "Board pack")).to_have_count(1)
    folder = item(live_slot, "Board pack")
    assert folder["owner"] == "alex.chen" and folder["parent"] is None
    # An empty name is refused in the dialog, and nothing changes.
    r = row(page, "Board pack")
    r.hover()
    r.get_by_role("button", name="Rename Board pack").click()
    dialog = page.get_by_role("dialog", name="Rename")
    dialog.get_by_label("Name").fill("   ")
    dialog.get_by_role("button", name="OK").click()
    expect(dialog.get_by_role("alert")).to_have_text("Enter a name.")
    dialog.get_by_label("Name").fill("Board pack – Corvane")
    dialog.get_by_role("button", name="OK").click()
    expect(row(page, "Board pack – Corvane")).to_have_count(1)
    row(page, "Board pack – Corvane").dblclick()
    page.get_by_role("button", name="New").click()
    page.get_by_role("menuitem", name="File upload").click()
    picker = page.get_by_role("dialog", name="Choose files from your computer")
    picker.get_by_role("button", name="Documents").click()
    picker.get_by_label("Board summary outline for L. Whitfield.md").check()
    picker.get_by_role("button", name="Upload").click()
    expect(row(page, "Board summary outline for L. Whitfield.md")).to_have_count(1)
    up = item(live_slot, "Board summary outline for L. Whitfield.md")
    assert up["parent"] == folder["id"] and up["owner"] == "alex.chen"


def test_share_with_a_colleague_and_trash_then_restore(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    row(page, "Notes").hover()
    row(page, "Notes").get_by_role("button", name="Share Notes").click()
    dialog = page.get_by_role("dialog", name="Share “Notes”")
    dialog.get_by_label("Add people").press_sequentially("priya")
    dialog.get_by_role("option", name=re.compile("Priya Raman")).click()
    dialog.get_by_role("button", name="Role for new people: Viewer").click()
    dialog.get_by_role("option", name="Editor").click()
    dialog.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status").filter(has_text="Shared with 1 person")).to_be_visible()
    notes = item(live_slot, "Notes")
    with live_slot.store() as st:
        shares = st.select("drive_shares", "item=?", (notes["id"],))
        notice = st.select("mail_boxes", "owner='priya.raman' AND message IN (SELECT id FROM mail_messages "
                                         "WHERE subject LIKE 'Folder shared with you%')")
    assert [(s["person"], s["role"]) for s in shares] == [("priya.raman", "editor")]
    assert len(notice) == 1
    # Trash it with the selection bar, then undo from the toast.
    row(page, "Notes").click()
    page.get_by_role("toolbar", name="Selection actions").get_by_role("button", name="Move to trash").click()
    expect(row(page, "Notes")).to_have_count(0)
    assert item(live_slot, "Notes")["trashed"] is True
    page.get_by_role("button", name="Undo").click()
    expect(row(page, "Notes")).to_have_count(1)
    assert item(live_slot, "Notes")["trashed"] is False


def test_sort_search_star_details_and_recent(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    page.get_by_role("link", name="File size").click()
    expect(page).to_have_url(re.compile(r"sort=size&dir=desc"))
    files = page.locator("tr.frow a.fname").all_inner_texts()
    assert files[:3] == ["CLE", "Notes", "Templates"]          # folders first, as in Drive
    box = page.get_by_role("textbox", name="Search in Drive")
    box.fill("ullage")
    box.press("Enter")
    r = row(page, "Ullage Survey Summary (2026-02-20).pdf")
    r.click(button="right")
    page.get_by_role("menuitem", name="Add to Starred").click()
    expect(page.get_by_role("status").filter(has_text="Added to Starred")).to_be_visible()
    r.click(button="right")
    page.get_by_role("menuitem", name="File information").click()
    info = page.get_by_role("region", name=re.compile("Details of Ullage Survey Summary"))   # the side panel
    expect(info).to_contain_text("Sofia Marchetti")
    expect(info).to_contain_text("02 Vessel & Casualty")
    info.get_by_role("button", name="Close details").click()
    row(page, "Ullage Survey Summary (2026-02-20).pdf").dblclick()
    page.get_by_role("link", name="Close preview").click()
    page.get_by_role("link", name="Starred").click()
    expect(row(page, "Ullage Survey Summary (2026-02-20).pdf")).to_have_count(1)
    page.get_by_role("link", name="Recent").click()
    expect(page.locator("tr.frow").first).to_contain_text("Ullage Survey Summary")
    with live_slot.store() as st:
        ull = st.scalar("SELECT id FROM drive_items WHERE name LIKE 'Ullage%'")
        assert st.scalar("SELECT count(*) FROM drive_stars WHERE item=? AND user='alex.chen'", (ull,)) == 1


def test_delete_forever_and_empty_trash_are_confirmed_in_the_page(desk, live_slot):
    page = desk
    page.goto("/drive/my-drive")
    for name in ("Templates", "CLE"):
        row(page, name).click()
        page.keyboard.press("Delete")
        expect(row(page, name)).to_have_count(0)
    page.get_by_role("link", name="Trash").click()
    row(page, "CLE").click(button="right")
    page.get_by_role("menuitem", name="Delete forever").click()
    page.get_by_role("alertdialog", name="Delete forever?").get_by_role("button", name="Delete forever").click()
    expect(row(page, "CLE")).to_have_count(0)
    page.get_by_role("button", name="Empty trash").click()
    page.get_by_role("alertdialog", name="Delete forever?").get_by_role("button", name="Delete forever").click()
    expect(page.get_by_role("heading", name="Nothing in the trash")).to_be_visible()
    with live_slot.store() as st:
        assert st.scalar("SELECT count(*) FROM drive_items WHERE name IN ('CLE', 'Templates')") == 0
