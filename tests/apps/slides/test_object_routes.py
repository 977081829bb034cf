"""The object routes through the Flask client: each answers with the workspace (the object
selected), bad input is a 422 naming what was wrong and changes nothing, viewers get 403s,
people without access 404s; images are served to those who can open the deck."""
from __future__ import annotations

import pytest

from apps.core.store.export import content_changes, diff, export
from apps.slides import objects as O
from apps.slides import service as S
from tests.conftest import make_client

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
IMAGE = "Tern Reef grounding position.png"


def ids(slot):
    with slot.store() as st:
        did = st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (CLIENT,))
        return did, S.slide_at(st, did, 2)["id"]


def objs(slot, did):
    with slot.store() as st:
        return [o for o in S.slide_at(st, did, 2)["objects"]]


def snapshot(slot):
    with slot.store() as st:
        return export(st)


def test_insert_move_nudge_align_order_format_bullets_text_delete(hx, slot):
    did, sid = ids(slot)
    base = f"/slides/p/{did}/s/{sid}"
    r = hx.post(f"{base}/objects", data={"kind": "shape", "shape": "ellipse", "x": "10", "y": "20", "w": "100", "h": "80"})
    assert r.status_code == 200 and b'id="workspace"' in r.data
    oid = objs(slot, did)[0]["id"]
    assert f'data-sel="{oid}"'.encode() in r.data and b'aria-label="Oval"' in r.data and b"<ellipse" in r.data
    assert hx.post(f"{base}/o/{oid}/move", data={"x": "50", "y": "60", "w": "120", "h": "90"}).status_code == 200
    assert hx.post(f"{base}/o/{oid}/nudge", data={"dx": "-10", "dy": "1"}).status_code == 200
    o = objs(slot, did)[0]
    assert (o["x"], o["y"], o["w"], o["h"]) == (40, 61, 120, 90)
    assert hx.post(f"{base}/o/{oid}/align", data={"side": "center"}).status_code == 200
    assert objs(slot, did)[0]["x"] == 300
    r = hx.post(f"{base}/o/{oid}/format", data={"fill": "#34a853", "bold": "true", "size": "20", "align": "left"})
    assert r.status_code == 200 and b'fill="#34a853"' in r.data
    assert hx.post(f"{base}/o/{oid}/text", data={"text": "Risk\nHigh"}).status_code == 200
    assert hx.post(f"{base}/o/{oid}/bullets", data={"on": "1"}).status_code == 200
    o = objs(slot, did)[0]
    assert (o["fill"], o["bold"], o["size"], o["align"], o["text"]) == ("#34a853", True, 20, "left", "- Risk\n- High")
    t = hx.post(f"{base}/objects", data={"kind": "text", "text": "Front"})
    tid = objs(slot, did)[1]["id"]
    assert t.status_code == 200 and b'aria-label="Text box"' in t.data
    assert hx.post(f"{base}/o/{tid}/order", data={"to": "back"}).status_code == 200
    assert [o["id"] for o in objs(slot, did)] == [tid, oid]
    # a layout box by its role
    assert hx.post(f"{base}/o/title/nudge", data={"dy": "5"}).status_code == 200
    assert hx.post(f"{base}/o/body/format", data={"italic": "true"}).status_code == 200
    assert hx.post(f"{base}/o/{oid}/delete").status_code == 200
    assert [o["kind"] for o in objs(slot, did)] == ["placeholder", "placeholder", "text"]


def test_bad_input_is_422_and_changes_nothing(hx, slot):
    did, sid = ids(slot)
    base = f"/slides/p/{did}/s/{sid}"
    hx.post(f"{base}/objects", data={"kind": "shape"})
    oid = objs(slot, did)[0]["id"]
    before = snapshot(slot)
    bad = [(f"{base}/objects", {"kind": "video"}), (f"{base}/objects", {"kind": "shape", "shape": "hexagon"}),
           (f"{base}/objects", {"kind": "text", "x": "far"}), (f"{base}/objects", {"kind": "image"}),
           (f"{base}/objects", {"kind": "image", "item": "abc"}),
           (f"{base}/o/{oid}/move", {"x": "1"}), (f"{base}/o/{oid}/move", {"x": "1", "y": "2", "w": "0"}),
           (f"{base}/o/{oid}/nudge", {"dx": "x"}), (f"{base}/o/{oid}/align", {"side": "up"}),
           (f"{base}/o/{oid}/order", {"to": "top"}), (f"{base}/o/{oid}/format", {}),
           (f"{base}/o/{oid}/format", {"color": "#12"}), (f"{base}/o/{oid}/format", {"size": "1000"}),
           (f"{base}/o/{oid}/bullets", {"on": "yes"}), (f"{base}/o/{oid}/text", {}),
           (f"{base}/o/title/delete", {}), (f"{base}/o/subtitle/nudge", {"dx": "1"}),
           (f"{base}/o/nonsense/nudge", {"dx": "1"})]
    for url, data in bad:
        r = hx.post(url, data=data)
        assert r.status_code == 422, (url, data, r.status_code)
        assert r.data, url                                   # a message for the toast
    assert content_changes(diff(before, snapshot(slot))) == []
    for url in (f"{base}/o/999999/move", f"/slides/p/{did}/s/999999/objects", f"/slides/p/{did}/o/999999/image"):
        assert hx.post(url, data={"x": "1", "y": "1", "kind": "text"}).status_code in (404, 405)
    assert hx.post(f"{base}/o/999999/nudge", data={"dx": "1"}).status_code == 404


def test_image_picker_insert_and_serve(client, hx, slot, app):
    did, sid = ids(slot)
    r = client.get(f"/slides/p/{did}/images?slide={sid}")
    assert r.status_code == 200 and IMAGE.encode() in r.data and b"Insert image from Drive" in r.data
    r = client.get(f"/slides/p/{did}/images?slide={sid}&q=nothing-like-this&partial=1")
    assert r.status_code == 200 and b"No images in Drive match" in r.data
    assert client.get(f"/slides/p/{did}/images?slide=x").status_code == 422
    with slot.store() as st:
        item = st.scalar("SELECT id FROM drive_items WHERE name=?", (IMAGE,))
    assert hx.post(f"/slides/p/{did}/s/{sid}/objects", data={"kind": "image", "item": str(item)}).status_code == 200
    oid = objs(slot, did)[0]["id"]
    r = client.get(f"/slides/p/{did}/o/{oid}/image")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data[:4] == b"\x89PNG"
    laura = make_client(app, "laura.whitfield")
    assert laura.get(f"/slides/p/{did}/o/{oid}/image").status_code == 404


def test_viewer_gets_403_for_every_object_route(app, slot):
    did, sid = ids(slot)
    with slot.store() as st:
        from apps.core.store.db import Caller
        oid = O.insert(st, Caller(user="alex.chen"), sid, "shape")
    henry = make_client(app, "henry.adeyemi")
    hx = {"HX-Request": "true"}
    base = f"/slides/p/{did}/s/{sid}"
    for url, data in [(f"{base}/objects", {"kind": "text"}), (f"{base}/o/{oid}/move", {"x": "1", "y": "1"}),
                      (f"{base}/o/{oid}/nudge", {"dx": "1"}), (f"{base}/o/{oid}/align", {"side": "left"}),
                      (f"{base}/o/{oid}/order", {"to": "back"}), (f"{base}/o/{oid}/format", {"bold": "true"}),
                      (f"{base}/o/{oid}/bullets", {"on": "1"}), (f"{base}/o/{oid}/text", {"text": "x"}),
                      (f"{base}/o/{oid}/delete", {})]:
        assert henry.post(url, data=data, headers=hx).status_code == 403, url
    assert henry.get(f"/slides/p/{did}").status_code == 200


@pytest.mark.parametrize("kind", ["text", "shape", "line"])
def test_plain_form_posts_redirect_to_the_editor(client, slot, kind):
    did, sid = ids(slot)
    r = client.post(f"/slides/p/{did}/s/{sid}/objects", data={"kind": kind})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/slides/p/{did}?slide={sid}")


def test_theme_and_background_routes(hx, slot, app):
    did, sid = ids(slot)
    r = hx.post(f"/slides/p/{did}/theme", data={"theme": "spearmint", "slide": str(sid)})
    assert r.status_code == 200 and b"Theme: Spearmint." in r.data and b"--bg:#e0f2f1" in r.data
    assert f'data-slide="{sid}"'.encode() in r.data
    r = hx.post(f"/slides/p/{did}/s/{sid}/background", data={"color": "#fbbc04"})
    assert r.status_code == 200 and b"--bg:#fbbc04" in r.data
    with slot.store() as st:
        assert S.get(st, "alex.chen", did)["theme"] == "spearmint" and S.slide(st, "alex.chen", sid)["background"] == "#fbbc04"
    before = snapshot(slot)
    for url, data in [(f"/slides/p/{did}/theme", {"theme": "neon"}), (f"/slides/p/{did}/theme", {}),
                      (f"/slides/p/{did}/theme", {"theme": "plum", "slide": "x"}),
                      (f"/slides/p/{did}/s/{sid}/background", {}), (f"/slides/p/{did}/s/{sid}/background", {"color": "no"})]:
        assert hx.post(url, data=data).status_code == 422, (url, data)
    assert content_changes(diff(before, snapshot(slot))) == []
    henry = make_client(app, "henry.adeyemi")
    h = {"HX-Request": "true"}
    assert henry.post(f"/slides/p/{did}/theme", data={"theme": "plum"}, headers=h).status_code == 403
    assert henry.post(f"/slides/p/{did}/s/{sid}/background", data={"color": "#000000"}, headers=h).status_code == 403
    body = henry.get(f"/slides/p/{did}/present").data
    assert b"--bg:#fbbc04" in body and b"slides.css" in body


def test_duplicate_route(hx, slot, app):
    did, sid = ids(slot)
    hx.post(f"/slides/p/{did}/s/{sid}/objects", data={"kind": "shape", "shape": "star"})
    oid = objs(slot, did)[0]["id"]
    r = hx.post(f"/slides/p/{did}/s/{sid}/o/{oid}/duplicate")
    new = objs(slot, did)[1]["id"]
    assert r.status_code == 200 and f'data-sel="{new}"'.encode() in r.data
    assert hx.post(f"/slides/p/{did}/s/{sid}/o/title/duplicate").status_code == 422
    assert hx.post(f"/slides/p/{did}/s/{sid}/o/999999/duplicate").status_code == 404
    henry = make_client(app, "henry.adeyemi")
    assert henry.post(f"/slides/p/{did}/s/{sid}/o/{oid}/duplicate", headers={"HX-Request": "true"}).status_code == 403
    assert len(objs(slot, did)) == 2


def test_paste_route(hx, slot):
    did, sid = ids(slot)
    hx.post(f"/slides/p/{did}/s/{sid}/objects", data={"kind": "text", "text": "Copy me", "x": "5", "y": "6"})
    oid = objs(slot, did)[0]["id"]
    with slot.store() as st:
        other = S.slide_at(st, did, 3)["id"]
    assert hx.post(f"/slides/p/{did}/s/{other}/paste", data={"from_slide": str(sid), "ref": str(oid)}).status_code == 200
    with slot.store() as st:
        [o] = S.slide_at(st, did, 3)["objects"]
    assert (o["text"], o["x"], o["y"]) == ("Copy me", 5, 6)
    for data in ({}, {"from_slide": str(sid)}, {"from_slide": "x", "ref": str(oid)}, {"from_slide": str(sid), "ref": "title"}):
        assert hx.post(f"/slides/p/{did}/s/{other}/paste", data=data).status_code == 422, data
    with slot.store() as st:
        elsewhere = st.scalar("SELECT s.id FROM slides_slides s WHERE s.deck != ? LIMIT 1", (did,))
    assert hx.post(f"/slides/p/{did}/s/{elsewhere}/paste", data={"from_slide": str(sid), "ref": str(oid)}).status_code == 404
