"""Every Drive route through the Flask client, with bad input."""
from __future__ import annotations

import pytest

from apps.core.store.export import diff, export


def item_id(slot, name, owner=None):
    with slot.store() as st:
        sql, params = "name=?", [name]
        if owner:
            sql += " AND owner=?"
            params.append(owner)
        rows = st.select("drive_items", sql, params)
    assert len(rows) == 1, rows
    return rows[0]["id"]


def get_item(slot, i):
    with slot.store() as st:
        return st.get("drive_items", i)


def snapshot(slot):
    with slot.store() as st:
        return export(st)


@pytest.mark.parametrize("url", ["/drive/", "/drive/my-drive", "/drive/shared", "/drive/recent", "/drive/starred",
                                 "/drive/trash", "/drive/search?q=survey", "/drive/my-drive?sort=size&dir=desc",
                                 "/drive/shared?sort=owner", "/drive/new-folder", "/drive/upload",
                                 "/drive/empty-trash", "/drive/my-drive?sort=bogus"])
def test_pages_render(client, url):
    r = client.get(url, follow_redirects=True)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("url", ["/drive/folders/99999", "/drive/file/99999", "/drive/file/99999/download",
                                 "/drive/items/99999/share", "/drive/items/99999/details", "/drive/items/99999/rename",
                                 "/drive/open/99999", "/drive/move?ids=99999"])
def test_unknown_ids_are_404(client, url):
    assert client.get(url).status_code == 404


def test_items_of_others_are_404_not_403(client, slot):
    with slot.store() as st:
        hidden = st.scalar("SELECT id FROM drive_items WHERE owner='sofia.marchetti' AND name='Matters'")
    for url in [f"/drive/folders/{hidden}", f"/drive/items/{hidden}/share", f"/drive/open/{hidden}"]:
        assert client.get(url).status_code == 404


def test_folder_file_and_downloads(client, hx, slot):
    folder = item_id(slot, "02 Vessel & Casualty")
    r = client.get(f"/drive/folders/{folder}")
    assert r.status_code == 200 and b"Ullage Survey Summary" in r.data and b"Folder path" in r.data
    frag = hx.get(f"/drive/folders/{folder}")
    assert b"<html" not in frag.data and b'id="listing"' in frag.data
    pdf = item_id(slot, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    assert client.get(f"/drive/open/{pdf}").headers["Location"].endswith(f"/drive/file/{pdf}")
    assert client.get(f"/drive/open/{folder}").headers["Location"].endswith(f"/drive/folders/{folder}")
    assert client.get(f"/drive/folders/{pdf}").status_code == 302
    r = client.get(f"/drive/file/{pdf}")
    assert r.status_code == 200 and b"page 1 of" in r.data
    assert client.get(f"/drive/file/{pdf}/download").data.startswith(b"%PDF")
    assert client.get(f"/drive/file/{pdf}/page/0.png").data.startswith(b"\x89PNG")
    assert client.get(f"/drive/file/{pdf}/page/500.png").status_code == 404
    assert client.get(f"/drive/file/{pdf}/raw").status_code == 404
    assert client.get(f"/drive/file/{folder}").status_code == 404
    csv = item_id(slot, "Claims Register.csv")
    assert b'role="grid"' in client.get(f"/drive/file/{csv}").data
    md = item_id(slot, "Chronology (O. Fitzgerald).md")
    body = client.get(f"/drive/file/{md}").data
    assert b"<table" in body and b"Pelagic Star" in body
    doc = item_id(slot, "Limitation Fund Calculation – FINAL (2026-03-24)")
    with slot.store() as st:
        ref = st.get("drive_items", doc)["ref"]
    for url in (f"/drive/open/{doc}", f"/drive/file/{doc}"):
        assert client.get(url).headers["Location"].endswith(f"/docs/d/{ref}")
    assert b"160,600,000" in client.get(f"/docs/d/{ref}").data
    png = item_id(slot, "Tern Reef grounding position.png")
    assert client.get(f"/drive/file/{png}/raw").data.startswith(b"\x89PNG")


def test_create_folder_inline_errors(hx, client, slot):
    before = snapshot(slot)
    r = hx.post("/drive/folders", data={"name": "  ", "parent": ""})
    assert r.status_code == 422 and b"Enter a name." in r.data and b"<dialog" in r.data
    r = hx.post("/drive/folders", data={"name": "x", "parent": "abc"})
    assert r.status_code == 422
    pelagic = item_id(slot, "Damages Summary.csv")
    r = hx.post("/drive/folders", data={"name": "x", "parent": str(get_item(slot, pelagic)["parent"])})
    assert r.status_code == 403
    assert diff(before, snapshot(slot)) == {"tables": {}}
    r = hx.post("/drive/folders", data={"name": "Hearing", "parent": ""})
    assert r.status_code == 200 and r.headers["HX-Trigger"] == "drive-changed" and b"created" in r.data
    r = client.post("/drive/folders", data={"name": "Hearing 2", "parent": ""})
    assert r.status_code == 302 and "/drive/folders/" in r.headers["Location"]


def test_rename_move_trash_restore_delete(hx, slot):
    ts = item_id(slot, "Timesheet – March 2026.csv")
    notes = item_id(slot, "Notes")
    assert hx.get(f"/drive/items/{ts}/rename").status_code == 200
    assert hx.post(f"/drive/items/{ts}/rename", data={"name": ""}).status_code == 422
    assert hx.post(f"/drive/items/{ts}/rename", data={"name": "Timesheet March"}).status_code == 200
    assert get_item(slot, ts)["name"] == "Timesheet March"
    r = hx.get(f"/drive/move?ids={ts}")
    assert r.status_code == 200 and b"Move to Notes" in r.data
    assert hx.get(f"/drive/move?ids={ts}&browse={notes}").status_code == 200
    assert hx.get(f"/drive/move?ids={ts}&browse=shared").status_code == 200
    assert hx.get("/drive/move").status_code == 422
    assert hx.post("/drive/move", data={"ids": ts, "target": "abc"}).status_code == 422
    assert hx.post("/drive/move", data={"ids": notes, "target": notes}).status_code == 422
    assert hx.post("/drive/move", data={"ids": ts, "target": notes}).status_code == 200
    assert get_item(slot, ts)["parent"] == notes
    assert hx.post("/drive/move", data={"ids": ts, "target": "root"}).status_code == 200
    assert get_item(slot, ts)["parent"] is None
    r = hx.post("/drive/trash", data={"ids": f"{ts},{notes}"})
    assert r.status_code == 200 and b"Undo" in r.data
    assert get_item(slot, ts)["trashed"] and get_item(slot, notes)["trashed"]
    assert hx.post("/drive/restore", data={"ids": str(ts)}).status_code == 200
    assert not get_item(slot, ts)["trashed"]
    assert hx.get(f"/drive/delete-forever?ids={notes}").status_code == 200
    assert hx.get("/drive/delete-forever").status_code == 422
    assert hx.post("/drive/delete-forever", data={"ids": str(ts)}).status_code == 422    # not in trash
    assert hx.post("/drive/delete-forever", data={"ids": str(notes)}).status_code == 200
    assert get_item(slot, notes) is None
    assert hx.post("/drive/empty-trash").status_code == 200


def test_share_dialog_and_access_changes(hx, slot):
    notes = item_id(slot, "Notes")
    r = hx.get(f"/drive/items/{notes}/share")
    assert r.status_code == 200 and b"People with access" in r.data
    r = hx.post(f"/drive/items/{notes}/share", data={"people": ["someone@else.example"], "role": "viewer"})
    assert r.status_code == 422 and b"directory" in r.data and b"someone@else.example" in r.data
    r = hx.post(f"/drive/items/{notes}/share", data={"people": ["priya.raman@meridianshaw.com"], "role": "viewer",
                                                      "notify": "1"})
    assert r.status_code == 200 and b"Shared with 1 person." in r.data
    r = hx.post(f"/drive/items/{notes}/access?person=priya.raman", data={"role_priya.raman": "editor"})
    assert r.status_code == 200
    with slot.store() as st:
        assert st.select("drive_shares", "item=?", (notes,))[0]["role"] == "editor"
    assert hx.post(f"/drive/items/{notes}/access?person=priya.raman", data={"role_priya.raman": "god"}).status_code == 422
    assert hx.post(f"/drive/items/{notes}/access?person=priya.raman", data={"role_priya.raman": "remove"}).status_code == 200
    with slot.store() as st:
        assert st.select("drive_shares", "item=?", (notes,)) == []
    pelagic = item_id(slot, "Damages Summary.csv")
    r = hx.get(f"/drive/items/{pelagic}/share")
    assert r.status_code == 200 and b"Ask the owner" in r.data


def test_upload_star_details(hx, client, slot):
    with slot.store() as st:
        local = st.scalar("SELECT id FROM local_files ORDER BY id")
    assert hx.post("/drive/upload?parent=", data={}).status_code == 422
    r = hx.post("/drive/upload?parent=", data={"local": [local]})
    assert r.status_code == 200 and b"1 upload complete." in r.data
    from io import BytesIO
    r = client.post("/drive/upload?parent=", data={"file": (BytesIO(b"a,b\n1,2\n"), "numbers.csv")},
                    content_type="multipart/form-data")
    assert r.status_code == 302
    n = item_id(slot, "numbers.csv")
    assert get_item(slot, n)["mime"] == "text/csv" and get_item(slot, n)["size"] == 8
    assert hx.post("/drive/star", data={"ids": str(n), "on": "1"}).status_code == 200
    assert b"numbers.csv" in client.get("/drive/starred").data
    r = hx.get(f"/drive/items/{n}/details")
    assert r.status_code == 200 and b"Who has access" in r.data
    assert hx.post("/drive/star", data={"ids": "x"}).status_code == 422


def test_names_with_html_are_inert(hx, client, slot):
    hx.post("/drive/folders", data={"name": "<img src=x onerror=alert(1)>", "parent": ""})
    body = client.get("/drive/my-drive").data
    assert b"<img src=x" not in body and b"&lt;img src=x" in body
    with slot.store() as st:
        from apps.drive import service
        from apps.core.store.db import Caller
        service.add_file(st, Caller("alex.chen"), None, "evil.md", b"# Hi\n\n<script>alert(1)</script>\n[x](javascript:alert(1))")
        evil = st.scalar("SELECT id FROM drive_items WHERE name='evil.md'")
    body = client.get(f"/drive/file/{evil}").data
    assert b"<script>alert" not in body and b"javascript:" not in body
