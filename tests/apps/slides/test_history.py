"""Undo and redo of editor changes (apps.slides.history): a step puts back slides, layout boxes,
objects and looks under their keys; unchanged saves are no step; redo is ended by a new change."""
from __future__ import annotations

from apps.core.store.export import content_changes, diff, export
from apps.slides import history as H
from apps.slides import looks
from apps.slides import objects as O
from apps.slides import service as S

CLIENT = "Client Update – Aurelia Dawn (April 2026)"


def deck_id(store):
    return store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (CLIENT,))


def test_undo_redo_put_everything_back_under_its_keys(store, alex):
    did = deck_id(store)
    start = export(store)
    sid = S.read_slides(store, did)[1]["id"]
    with H.step(store, alex, did, "Insert", sid):
        oid = O.insert(store, alex, sid, "shape", "star")
    with H.step(store, alex, did, "Move", sid):
        O.move(store, alex, sid, oid, 10, 10)
    with H.step(store, alex, did, "Move", sid):
        O.move(store, alex, sid, oid, 10, 10)                        # no change: no step
    with H.step(store, alex, did, "Delete slide", sid):
        S.delete_slide(store, alex, sid)
    with H.step(store, alex, did, "Theme", sid):
        looks.set_theme(store, alex, did, "plum")
    assert store.scalar("SELECT COUNT(*) FROM slides_history WHERE deck=? AND stack='undo'", (did,)) == 4
    assert H.undo(store, alex, did) == {"label": "Theme", "slide": sid}
    assert H.undo(store, alex, did)["label"] == "Delete slide"
    back = S.read_slides(store, did)[1]
    assert back["id"] == sid and back["objects"][0]["id"] == oid and (back["objects"][0]["x"], back["objects"][0]["y"]) == (10, 10)
    assert H.undo(store, alex, did)["label"] == "Move"
    assert S.read_slides(store, did)[1]["objects"][0]["x"] == 260
    assert H.redo(store, alex, did)["label"] == "Move"
    assert S.read_slides(store, did)[1]["objects"][0]["x"] == 10
    assert H.undo(store, alex, did) and H.undo(store, alex, did)["label"] == "Insert"
    assert H.undo(store, alex, did) is None
    assert content_changes(diff(start, export(store))) == []            # all the way back
    # a new change ends the redo chain
    with H.step(store, alex, did, "Typing", sid):
        S.set_text(store, alex, sid, "title", "New title")
    assert H.redo(store, alex, did) is None
    assert H.undo(store, alex, did)["label"] == "Typing"
    assert S.read_slides(store, did)[1]["boxes"]["title"] == "Where things stand"


def test_undo_and_redo_routes(hx, slot, app):
    from tests.conftest import make_client
    with slot.store() as st:
        did = deck_id(st)
        sid = S.read_slides(st, did)[1]["id"]
    r = hx.post(f"/slides/p/{did}/undo", data={"slide": str(sid)})
    assert r.status_code == 200 and b"Nothing to undo." in r.data
    hx.post(f"/slides/p/{did}/s/{sid}/objects", data={"kind": "shape"})
    hx.post(f"/slides/p/{did}/s/{sid}/text", data={"role": "title", "text": "Changed"})
    assert hx.post(f"/slides/p/{did}/undo", data={"slide": str(sid)}).status_code == 200
    with slot.store() as st:
        s = S.read_slides(st, did)[1]
    assert s["boxes"]["title"] == "Where things stand" and len(s["objects"]) == 1
    r = hx.post(f"/slides/p/{did}/redo", data={"slide": str(sid)})
    assert r.status_code == 200 and f'data-slide="{sid}"'.encode() in r.data
    with slot.store() as st:
        assert S.read_slides(st, did)[1]["boxes"]["title"] == "Changed"
    assert hx.post(f"/slides/p/{did}/undo", data={"slide": "x"}).status_code == 422
    henry = make_client(app, "henry.adeyemi")
    assert henry.post(f"/slides/p/{did}/undo", headers={"HX-Request": "true"}).status_code == 403
