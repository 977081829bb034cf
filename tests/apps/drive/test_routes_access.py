"""The newer Drive routes through the Flask client: general access, Make a copy, layout, the details
panel and the filter chips — with bad input (a 422 naming the field, nothing written)."""
from __future__ import annotations

from apps.core.store.export import diff
from apps.drive import sharing
from tests.apps.drive.test_routes import get_item, item_id, snapshot
from tests.conftest import make_client


def test_general_access_in_the_share_dialog(hx, slot):
    notes = item_id(slot, "Notes")
    r = hx.get(f"/drive/items/{notes}/share")
    assert r.status_code == 200 and b"General access" in r.data and b"Copy link" in r.data
    assert b"Only people with access can open with the link" in r.data
    assert f'data-copy-link="http://localhost/drive/open/{notes}"'.encode() in r.data
    r = hx.post(f"/drive/items/{notes}/general-access", data={"access": "anyone"})
    assert r.status_code == 200 and b"Anyone on the internet with the link can view" in r.data
    r = hx.post(f"/drive/items/{notes}/general-access", data={"access": "org", "link_role": "commenter"})
    assert b"Anyone in this group with the link can comment" in r.data
    item = get_item(slot, notes)
    assert (item["link_access"], item["link_role"]) == ("org", "commenter")


def test_general_access_keeps_the_people_not_sent_yet(hx, slot):
    """The dialog posts its whole form: people added but not sent, their role and the message stay."""
    notes = item_id(slot, "Notes")
    r = hx.post(f"/drive/items/{notes}/general-access", data={"access": "anyone", "people": ["priya.raman"],
                                                              "role": "commenter", "message": "Have a look"})
    page = r.data.decode()
    assert r.status_code == 200 and 'name="people" value="priya.raman"' in page and "Have a look</textarea>" in page
    with slot.store() as st:
        assert not st.select("drive_shares", "item=?", (notes,))


def test_general_access_bad_input_is_a_422_and_writes_nothing(hx, slot):
    notes = item_id(slot, "Notes")
    before = snapshot(slot)
    for data, message in (({"access": "world"}, b"General access must be restricted, org or anyone."),
                          ({"access": "anyone", "link_role": "owner"}, b"Choose Viewer, Commenter or Editor."),
                          ({}, b"General access must be restricted, org or anyone.")):
        r = hx.post(f"/drive/items/{notes}/general-access", data=data)
        assert r.status_code == 422 and message in r.data, data
    assert hx.post("/drive/items/999999/general-access", data={"access": "anyone"}).status_code == 404
    assert not diff(before, snapshot(slot))["tables"]


def test_make_a_copy_route(hx, client, slot):
    sheet = item_id(slot, "Timesheet – March 2026.csv")
    r = hx.post(f"/drive/items/{sheet}/copy")
    assert r.status_code == 200 and "Created “Copy of Timesheet – March 2026.csv”.".encode() in r.data
    copy = item_id(slot, "Copy of Timesheet – March 2026.csv")
    assert get_item(slot, copy)["owner"] == "alex.chen"
    assert hx.post(f"/drive/items/{item_id(slot, 'Notes')}/copy").status_code == 422
    assert hx.post("/drive/items/999999/copy").status_code == 404
    assert client.post(f"/drive/items/{sheet}/copy").status_code == 302
    assert b"Make a copy" in client.get("/drive/my-drive").data
    # A copy of a document, spreadsheet or presentation opens in its editor with the same content.
    for name, text in (("Case Strategy Outline (E. Vance, 2026-02-25)", "1. Where we are"),
                       ("Limitation Fund Calculation", "Gross tonnage (GT)"),
                       ("Case Strategy – Limitation and §9", "Part 1 — The fund (hearing April 22)")):
        assert hx.post(f"/drive/items/{item_id(slot, name)}/copy").status_code == 200
        copy = get_item(slot, item_id(slot, f"Copy of {name}"))
        page = client.get(f"/drive/open/{copy['id']}", follow_redirects=True)
        assert page.status_code == 200 and text in page.data.decode() and f"Copy of {name}" in page.data.decode()


def test_layout_toggle(hx, client, slot):
    assert b'class="ftable grid"' not in client.get("/drive/my-drive").data
    r = hx.post("/drive/layout", data={"layout": "grid"})
    assert r.status_code == 200 and r.headers.get("HX-Trigger") == "drive-changed"
    assert b'class="ftable grid"' in client.get("/drive/my-drive").data
    assert hx.post("/drive/layout", data={"layout": "tiles"}).status_code == 422
    with slot.store() as st:
        assert [r["layout"] for r in st.select("drive_prefs")] == ["grid"]


def test_details_panel_tabs(hx, slot):
    notes = item_id(slot, "Notes")
    hx.post(f"/drive/items/{notes}/rename", data={"name": "Notes 2026"})
    r = hx.get(f"/drive/items/{notes}/details")
    assert r.status_code == 200 and b"Who has access" in r.data and b'aria-selected="true" hx-get' in r.data
    r = hx.get(f"/drive/items/{notes}/details?tab=activity")
    assert r.status_code == 200 and b"renamed" in r.data and b"created" in r.data
    assert hx.get(f"/drive/items/{notes}/details?tab=bogus").status_code == 200
    assert b"Select an item to see the details" in hx.get("/drive/details").data
    for name, kind in (("Templates", "Google Drive Folder"), ("Limitation Fund Calculation", "Google Sheets"),
                       ("Timesheet – March 2026.csv", "Comma-separated values")):
        assert f"<dt>Type</dt><dd>{kind}</dd>" in hx.get(f"/drive/items/{item_id(slot, name)}/details").data.decode()
    assert hx.get("/drive/items/999999/details").status_code == 404


def test_filter_chips_apply_the_operators(client):
    page = client.get("/drive/my-drive").data.decode()
    assert 'aria-label="Filters"' in page and "/drive/search?q=type:pdf" in page and "owner:me" in page
    page = client.get("/drive/search?q=survey+type:pdf").data.decode()
    assert 'aria-label="Type: PDFs"' in page
    assert 'href="/drive/search?q=survey"' in page                  # clearing the chip keeps the words
    assert "/drive/search?q=survey+type:document" in page            # another type replaces it
    assert "after:" in page and 'aria-label="Modified"' in page
    assert "Final Survey Report" in page
    assert 'aria-label="Filters"' in client.get("/drive/shared").data.decode()


def test_a_viewer_sees_general_access_without_changing_it(app, slot):
    viewer = make_client(app, "henry.adeyemi")
    survey = item_id(slot, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    page = viewer.get(f"/drive/items/{survey}/share", headers={"HX-Request": "true"}).data.decode()
    assert "You can view who has access" in page and "<div>Restricted</div>" in page
    assert f"/drive/items/{survey}/general-access" not in page
    with slot.store() as st:                       # the matter folder opened to the firm: the survey with it
        matter = st.select("drive_items", "name=?", ("Corvane – Aurelia Dawn (M-2026-0147)",))[0]
        st.update("drive_items", matter["id"], "system", link_access="org")
        firm = sharing.org_of(st, matter["owner"])["name"]
    page = viewer.get(f"/drive/items/{survey}/share", headers={"HX-Request": "true"}).data.decode()
    assert f"<div>{firm}</div>" in page and "<div>Restricted</div>" not in page
