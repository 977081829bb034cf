"""Every Docs route through the Flask client, with bad input."""
from __future__ import annotations

import pytest

from apps.core.store.export import content_changes, diff, export
from apps.docs import blocks as B

V2 = "Corvane Claim in Limitation – DRAFT v2"


def doc_id(slot, title=V2):
    with slot.store() as st:
        return st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='doc'", (title,))


def snapshot(slot):
    with slot.store() as st:
        return export(st)


def blocks_of(slot, did):
    with slot.store() as st:
        return [r["text"] for r in st.select("docs_blocks", "doc=?", (did,), order="seq")]


@pytest.mark.parametrize("url", ["/docs/", "/docs/?q=limitation", "/docs/?q=nothing-matches-this"])
def test_pages_render(client, url):
    r = client.get(url)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"


def test_list_and_search(client):
    assert V2.encode() in client.get("/docs/").data
    body = client.get("/docs/?q=pryce").data
    assert b"Letter to J. Pryce" in body and V2.encode() not in body


@pytest.mark.parametrize("url", ["/docs/d/99999", "/docs/d/99999/download", "/docs/d/99999/comments"])
def test_unknown_documents_are_404(client, url):
    assert client.get(url).status_code == 404


def test_editor_renders_the_document_and_comments(client, slot):
    did = doc_id(slot)
    r = client.get(f"/docs/d/{did}")
    assert r.status_code == 200
    assert b'contenteditable="true"' in r.data and b"PORT CALDER ADMIRALTY COURT" in r.data
    assert b"the shortfall goes here" in r.data and b'data-comment="' in r.data
    before = snapshot(slot)
    client.get(f"/docs/d/{did}")
    assert content_changes(diff(before, snapshot(slot))) == []      # opening is not editing


def test_save(client, hx, slot):
    did = doc_id(slot)
    with slot.store() as st:
        from apps.docs import service
        html = B.to_html(service.get(st, "alex.chen", did)["blocks"])
    r = hx.post(f"/docs/d/{did}/save", data={"html": html.replace("deficient by", "deficient, on our figures, by", 1)})
    assert r.status_code == 200 and b"Saved" in r.data
    assert any("deficient, on our figures, by" in t for t in blocks_of(slot, did))
    before = snapshot(slot)
    assert hx.post(f"/docs/d/{did}/save", data={}).status_code == 422
    assert hx.post("/docs/d/99999/save", data={"html": "<p>x</p>"}).status_code == 404
    assert content_changes(diff(before, snapshot(slot))) == []


def test_viewer_gets_read_only_editor_and_403_on_save(app, slot):
    from tests.conftest import make_client
    henry = make_client(app, "henry.adeyemi")
    did = doc_id(slot)
    r = henry.get(f"/docs/d/{did}")
    assert r.status_code == 200 and b'aria-readonly="true"' in r.data and b"contenteditable" not in r.data and b"View only" in r.data
    before = snapshot(slot)
    r = henry.post(f"/docs/d/{did}/save", data={"html": "<p>gone</p>"}, headers={"HX-Request": "true"})
    assert r.status_code == 403
    assert content_changes(diff(before, snapshot(slot))) == []


def test_new_rename_trash(client, hx, slot):
    r = client.post("/docs/new")
    assert r.status_code == 302 and "/docs/d/" in r.headers["Location"]
    did = int(r.headers["Location"].rsplit("/", 1)[1])
    assert hx.post(f"/docs/d/{did}/rename", data={"title": "Hearing notes"}).status_code == 200
    with slot.store() as st:
        item = st.one("SELECT * FROM drive_items WHERE kind='doc' AND ref=?", (did,))
    assert item["name"] == "Hearing notes" and item["owner"] == "alex.chen"
    r = hx.post(f"/docs/d/{did}/rename", data={"title": "   "})
    assert r.status_code == 422
    r = hx.post(f"/docs/d/{did}/trash")
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/docs/"
    with slot.store() as st:
        assert st.get("drive_items", item["id"])["trashed"]
    assert b"Hearing notes</span>" in client.get("/drive/trash").data
    assert b"Hearing notes" not in client.get("/docs/?q=hearing+notes").data


def test_comments_routes(hx, client, slot):
    did = doc_id(slot)
    with slot.store() as st:
        from apps.docs import service
        html = B.to_html(service.get(st, "alex.chen", did)["blocks"])
    marked = html.replace("Hon. Imelda Rourke", '<span data-comment="new">Hon. Imelda Rourke</span>', 1)
    assert hx.post(f"/docs/d/{did}/comments", data={"text": "", "html": marked}).status_code == 422
    assert hx.post(f"/docs/d/{did}/comments", data={"text": "x", "html": html}).status_code == 422
    r = hx.post(f"/docs/d/{did}/comments", data={"text": "Check initials", "html": marked})
    assert r.status_code == 200 and b"Check initials" in r.data and b'hx-swap-oob' in r.data
    with slot.store() as st:
        c = st.one("SELECT * FROM docs_comments WHERE text='Check initials'")
    assert c["quote"] == "Hon. Imelda Rourke"
    assert hx.post(f"/docs/comments/{c['id']}/reply", data={"text": ""}).status_code == 422
    r = hx.post(f"/docs/comments/{c['id']}/reply", data={"text": "Done."})
    assert r.status_code == 200 and b"Done." in r.data
    r = hx.post(f"/docs/comments/{c['id']}/resolve")
    assert r.status_code == 200 and b"Check initials" not in r.data
    assert b"Check initials" in hx.get(f"/docs/d/{did}/comments?resolved=1").data
    assert hx.post(f"/docs/comments/{c['id']}/reopen").status_code == 200
    with slot.store() as st:
        assert not st.get("docs_comments", c["id"])["resolved"]
    assert hx.post("/docs/comments/99999/resolve").status_code == 404


def test_downloads(client, slot):
    did = doc_id(slot)
    r = client.get(f"/docs/d/{did}/download?format=docx")
    assert r.status_code == 200 and r.data[:2] == b"PK" and ".docx" in r.headers["Content-Disposition"]
    r = client.get(f"/docs/d/{did}/download?format=md")
    assert b"# PORT CALDER ADMIRALTY COURT" in r.data
    r = client.get(f"/docs/d/{did}/download?format=html")
    assert b"<h1>PORT CALDER ADMIRALTY COURT</h1>" in r.data
    assert client.get(f"/docs/d/{did}/download?format=exe").status_code == 422


def test_mail_links_to_docs_open_in_docs(client, slot):
    with slot.store() as st:
        a = st.one("SELECT * FROM mail_attachments WHERE name='Limitation Fund Calculation – FINAL (2026-03-24)'")
        ref = st.get("drive_items", a["drive_item"])["ref"]
    assert a["blob"] is None and a["size"] == 0
    r = client.get(f"/mail/attachments/{a['id']}/view")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/drive/open/{a['drive_item']}")
    assert client.get(r.headers["Location"]).headers["Location"].endswith(f"/docs/d/{ref}")
    assert client.get(f"/mail/attachments/{a['id']}").status_code == 302
