"""Every Slides route through the Flask client, with bad input, unknown ids and read-only users."""
from __future__ import annotations

import io

import pytest

from apps.core.store.export import content_changes, diff, export
from apps.slides import service
from tests.conftest import make_client

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
STRATEGY = "Case Strategy – Limitation and §9"


def deck_id(slot, title=STRATEGY):
    with slot.store() as st:
        return st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (title,))


def read(slot, did):
    with slot.store() as st:
        return service.read_slides(st, did)


def snapshot(slot):
    with slot.store() as st:
        return export(st)


def unchanged(slot, before):
    return content_changes(diff(before, snapshot(slot))) == []


@pytest.mark.parametrize("url", ["/slides/", "/slides/?q=client", "/slides/?q=nothing-matches-this"])
def test_pages_render(client, url):
    r = client.get(url)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"


def test_list_and_search(client):
    body = client.get("/slides/").data.decode()
    assert CLIENT in body and STRATEGY in body and "Blank presentation" in body
    body = client.get("/slides/?q=strategy").data.decode()
    assert STRATEGY in body and CLIENT not in body


def test_editor_renders_filmstrip_canvas_and_notes(client, slot):
    did = deck_id(slot)
    ss = read(slot, did)
    before = snapshot(slot)
    body = client.get(f"/slides/p/{did}").data.decode()
    assert 'role="listbox" aria-label="Slides"' in body
    assert 'aria-label="Slide 3: Which rate? Halcyon vs. Corvane"' in body
    assert body.count('role="option"') == 7 and body.count('aria-selected="true"') == 1
    assert 'contenteditable="plaintext-only"' in body and 'aria-label="Subtitle"' in body
    assert 'aria-label="Speaker notes"' in body and "Update of the February 25 strategy outline" in body
    assert "Download Microsoft PowerPoint (.pptx)" in body and "Slideshow" in body
    assert unchanged(slot, before)                                    # opening is not editing
    body = client.get(f"/slides/p/{did}?slide={ss[3]['id']}").data.decode()
    assert 'aria-label="Body"' in body and 'contenteditable="true"' in body
    assert "<li>Gross tonnage: 58,400 GT" in body                       # bullets render as a list
    two = client.get(f"/slides/p/{did}?slide={ss[2]['id']}").data.decode()
    assert 'aria-label="Left column"' in two and 'aria-label="Right column"' in two
    # htmx selection: only the workspace
    r = client.get(f"/slides/p/{did}?slide={ss[1]['id']}", headers={"HX-Request": "true"})
    assert r.data.startswith(b'<div class="slides-work" id="workspace"') and b"<html" not in r.data
    assert f'data-slide="{ss[1]["id"]}"'.encode() in r.data


@pytest.mark.parametrize("method,url", [
    ("get", "/slides/p/99999"), ("get", "/slides/p/99999/present"), ("get", "/slides/p/99999/download"),
    ("post", "/slides/p/99999/slides"), ("post", "/slides/p/99999/rename"), ("post", "/slides/p/99999/trash"),
    ("post", "/slides/p/{d}/s/99999/text"), ("post", "/slides/p/{d}/s/99999/notes"),
    ("post", "/slides/p/{d}/s/99999/duplicate"), ("post", "/slides/p/{d}/s/99999/delete"),
    ("post", "/slides/p/{d}/s/99999/move"), ("post", "/slides/p/{d}/s/99999/layout"),
    ("post", "/slides/p/{d}/s/{other}/text"),                       # a slide of another deck
])
def test_unknown_ids_are_404(client, slot, method, url):
    did = deck_id(slot)
    other = read(slot, deck_id(slot, CLIENT))[0]["id"]
    url = url.format(d=did, other=other)
    before = snapshot(slot)
    data = {"role": "title", "text": "x", "position": "1", "layout": "title_body"} if method == "post" else None
    r = getattr(client, method)(url, data=data, headers={"HX-Request": "true"})
    assert r.status_code == 404
    assert unchanged(slot, before)


def test_text_and_notes_autosave(hx, slot):
    did = deck_id(slot)
    s = read(slot, did)[3]
    r = hx.post(f"/slides/p/{did}/s/{s['id']}/text", data={"role": "title", "text": "The arithmetic (final)"})
    assert r.status_code == 200
    assert f'id="thumb-{s["id"]}"'.encode() in r.data and b'aria-label="Slide 4: The arithmetic (final)"' in r.data
    assert b'id="save-status"' in r.data and b'hx-swap-oob="true"' in r.data
    assert read(slot, did)[3]["boxes"]["title"] == "The arithmetic (final)"
    r = hx.post(f"/slides/p/{did}/s/{s['id']}/notes", data={"text": "Use the FINAL memo."})
    assert r.status_code == 200 and b"All changes saved in Drive" in r.data
    assert read(slot, did)[3]["notes"] == "Use the FINAL memo."
    before = snapshot(slot)
    for data, status in [({"role": "title"}, 422), ({"role": "body", "text": "x" * 5001}, 422),
                         ({"role": "subtitle", "text": "no subtitle on this layout"}, 422),
                         ({"role": "nonsense", "text": "x"}, 422)]:
        r = hx.post(f"/slides/p/{did}/s/{s['id']}/text", data=data)
        assert r.status_code == status, data
        assert r.headers.get("HX-Reswap") == "none" and b"toast" in r.data
    assert hx.post(f"/slides/p/{did}/s/{s['id']}/notes", data={}).status_code == 422
    assert unchanged(slot, before)


def test_slide_commands_answer_with_the_workspace(hx, client, slot):
    did = deck_id(slot)
    ids = [s["id"] for s in read(slot, did)]
    r = hx.post(f"/slides/p/{did}/slides", data={"after": str(ids[0]), "layout": "two_columns"})
    assert r.status_code == 200 and b'id="workspace"' in r.data and b"Slide added." in r.data
    got = read(slot, did)
    new = got[1]["id"]
    assert got[1]["layout"] == "two_columns" and new not in ids
    assert f'data-slide="{new}"'.encode() in r.data                     # the new slide is the current one
    r = hx.post(f"/slides/p/{did}/s/{new}/layout", data={"layout": "section"})
    assert r.status_code == 200 and b"Layout: Section header." in r.data
    assert read(slot, did)[1]["layout"] == "section"
    r = hx.post(f"/slides/p/{did}/s/{new}/move", data={"position": "4"})
    assert r.status_code == 200 and [s["id"] for s in read(slot, did)][3] == new
    r = hx.post(f"/slides/p/{did}/s/{new}/duplicate")
    assert r.status_code == 200 and len(read(slot, did)) == 9
    r = hx.post(f"/slides/p/{did}/s/{new}/delete")
    assert r.status_code == 200 and b"Slide deleted." in r.data and new not in [s["id"] for s in read(slot, did)]
    # without htmx, a plain form post: back to the editor on the slide
    r = client.post(f"/slides/p/{did}/s/{ids[2]}/move", data={"position": "1"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/slides/p/{did}?slide={ids[2]}")
    assert read(slot, did)[0]["id"] == ids[2]
    before = snapshot(slot)
    for url, data in [(f"/slides/p/{did}/slides", {"layout": "comparison"}),
                      (f"/slides/p/{did}/slides", {"after": "abc"}),
                      (f"/slides/p/{did}/s/{ids[0]}/layout", {"layout": ""}),
                      (f"/slides/p/{did}/s/{ids[0]}/move", {}),
                      (f"/slides/p/{did}/s/{ids[0]}/move", {"position": "99"}),
                      (f"/slides/p/{did}/s/{ids[0]}/move", {"position": "first"})]:
        r = hx.post(url, data=data)
        assert r.status_code == 422, (url, data)
    assert unchanged(slot, before)
    one = int(client.post("/slides/new").headers["Location"].rsplit("/", 1)[1])
    only = read(slot, one)[0]["id"]
    assert hx.post(f"/slides/p/{one}/s/{only}/delete").status_code == 422
    assert len(read(slot, one)) == 1


def test_viewer_gets_a_read_only_editor_and_403s(app, slot):
    henry = make_client(app, "henry.adeyemi")
    did = deck_id(slot, CLIENT)
    s = read(slot, did)[1]
    body = henry.get(f"/slides/p/{did}").data.decode()
    assert "View only" in body and "contenteditable" not in body and 'aria-readonly="true"' in body
    assert 'readonly' in body.split('aria-label="Speaker notes"')[1].split(">")[0]
    before = snapshot(slot)
    hx = {"HX-Request": "true"}
    for url, data in [(f"/slides/p/{did}/s/{s['id']}/text", {"role": "title", "text": "x"}),
                      (f"/slides/p/{did}/s/{s['id']}/notes", {"text": "x"}),
                      (f"/slides/p/{did}/slides", {}), (f"/slides/p/{did}/s/{s['id']}/duplicate", {}),
                      (f"/slides/p/{did}/s/{s['id']}/delete", {}), (f"/slides/p/{did}/s/{s['id']}/move", {"position": "1"}),
                      (f"/slides/p/{did}/s/{s['id']}/layout", {"layout": "section"}), (f"/slides/p/{did}/trash", {})]:
        assert henry.post(url, data=data, headers=hx).status_code == 403, url
    assert henry.post(f"/slides/p/{did}/rename", data={"title": "x"}, headers=hx).status_code == 403
    assert henry.get(f"/slides/p/{did}/present").status_code == 200
    assert henry.get(f"/slides/p/{did}/download?format=txt").status_code == 200
    assert unchanged(slot, before)
    laura = make_client(app, "laura.whitfield")
    assert laura.get(f"/slides/p/{did}").status_code == 404
    assert laura.get(f"/slides/p/{did}/download").status_code == 404


def test_new_rename_trash(client, hx, slot):
    r = client.post("/slides/new")
    assert r.status_code == 302 and "/slides/p/" in r.headers["Location"]
    did = int(r.headers["Location"].rsplit("/", 1)[1])
    with slot.store() as st:
        folder = st.scalar("SELECT id FROM drive_items WHERE name='09 Presentations'")
    r = hx.post("/slides/new", data={"parent": str(folder)})
    assert r.status_code == 204 and r.headers["HX-Redirect"].startswith("/slides/p/")
    with slot.store() as st:
        assert st.scalar("SELECT parent FROM drive_items WHERE kind='deck' AND ref=?",
                         (int(r.headers["HX-Redirect"].rsplit("/", 1)[1]),)) == folder
    r = hx.post(f"/slides/p/{did}/rename", data={"title": "Moot slides"})
    assert r.status_code == 200 and b"Renamed." in r.data
    with slot.store() as st:
        item = st.one("SELECT * FROM drive_items WHERE kind='deck' AND ref=?", (did,))
    assert item["name"] == "Moot slides" and item["owner"] == "alex.chen"
    assert hx.post(f"/slides/p/{did}/rename", data={"title": "   "}).status_code == 422
    r = hx.post(f"/slides/p/{did}/trash")
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/slides/"
    with slot.store() as st:
        assert st.get("drive_items", item["id"])["trashed"]
    assert b"moved to trash" in client.get("/slides/").data          # the toast, after the redirect
    assert b"Moot slides</span>" not in client.get("/slides/").data
    assert client.get(f"/slides/p/{did}").status_code == 404


def test_downloads(client, slot):
    from pptx import Presentation
    did = deck_id(slot, CLIENT)
    r = client.get(f"/slides/p/{did}/download?format=pptx")
    assert r.status_code == 200 and r.data[:2] == b"PK" and ".pptx" in r.headers["Content-Disposition"]
    assert Presentation(io.BytesIO(r.data)).slides[0].shapes.title.text == "MT Aurelia Dawn — Update for the Board"
    assert client.get(f"/slides/p/{did}/download").data == r.data
    r = client.get(f"/slides/p/{did}/download?format=txt")
    assert r.status_code == 200 and r.mimetype == "text/plain" and b"Where things stand\n- 2026-02-14" in r.data
    r = client.get(f"/slides/p/{did}/download?format=md")
    assert r.data.startswith("# Client Update".encode()) and b"> Notes:" in r.data
    assert client.get(f"/slides/p/{did}/download?format=key").status_code == 422


def test_present_mode(client, slot):
    did = deck_id(slot, CLIENT)
    body = client.get(f"/slides/p/{did}/present?slide=3").data.decode()
    assert body.count('class="present-slide"') == 8
    assert 'data-n="3" ' in body and "3 / 8" in body
    assert body.split('data-n="3" ')[1].split(">")[0].count("hidden") == 0
    assert body.split('data-n="2" ')[1].split(">")[0].count("hidden") == 1
    assert "1 / 8" in client.get(f"/slides/p/{did}/present").data.decode()
    assert "8 / 8" in client.get(f"/slides/p/{did}/present?slide=42").data.decode()


def test_drive_opens_decks_in_slides(client, slot):
    did = deck_id(slot, CLIENT)
    with slot.store() as st:
        item = st.scalar("SELECT id FROM drive_items WHERE kind='deck' AND ref=?", (did,))
    r = client.get(f"/drive/open/{item}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/slides/p/{did}")
    assert "Google Slides" in client.get("/drive/my-drive").data.decode()
