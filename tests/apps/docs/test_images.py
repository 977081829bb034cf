"""Images from Drive: an image block (mark ``image`` = the Drive item), the picker's list, a save keeps
only images the user can open, the .docx carries the picture; the picker route and its search."""
from __future__ import annotations

import io

from apps.core.store.db import Caller
from apps.docs import blocks as B
from apps.docs import images
from apps.docs import service as docs

ALEX = Caller(user="alex.chen")
PNG = "Tern Reef grounding position.png"


def image_id(store):
    return store.scalar("SELECT id FROM drive_items WHERE name=?", (PNG,))


def test_image_blocks_round_trip_and_only_openable_images_are_kept(store):
    iid = image_id(store)
    assert [i["name"] for i in images.drive_images(store, "alex.chen")] == [PNG]
    assert images.drive_images(store, "alex.chen", "no such") == []
    did = docs.create(store, ALEX, None, "I", [B.block("paragraph", "Position")])
    html = f'<p>Position</p><p><img data-drive="{iid}" src="/x" alt=""></p><p>After</p><p><img data-drive="99999"></p>'
    assert docs.save_html(store, ALEX, did, html)
    got = docs.read_blocks(store, did)
    assert [(b["type"], b["text"], b["marks"]) for b in got] == [
        ("paragraph", "Position", []), ("image", "", [[0, 0, "image", iid]]), ("paragraph", "After", [])]
    assert f'<img data-drive="{iid}" src="/drive/file/{iid}/raw" alt="">' in B.to_html(got)
    assert f"![image](/drive/file/{iid}/raw)" in docs.markdown(store, "alex.chen", did)
    import docx
    d = docx.Document(io.BytesIO(docs.docx_bytes(store, "alex.chen", did)))
    assert len(d.inline_shapes) == 1


def test_picker_route(client, slot):
    with slot.store() as st:
        did = docs.create(st, ALEX, None, "I", None)
        iid = image_id(st)
    r = client.get(f"/docs/d/{did}/images", headers={"HX-Request": "true"})
    assert r.status_code == 200 and f'data-insert-image="{iid}"'.encode() in r.data and PNG.encode() in r.data
    assert b"No images match." in client.get(f"/docs/d/{did}/images?q=zzzz", headers={"HX-Request": "true"}).data
    assert client.get("/docs/d/99999/images").status_code == 404
