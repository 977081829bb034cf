"""The issue-21 Chat routes through the Flask client: Threads / Activity / Later, save and mark unread,
rename and archive, the switcher, older pages, uploads from the computer, search tabs — and their bad
input (422 naming the field, 404 for what the user can't see, nothing written)."""
from __future__ import annotations

import html
import io

import pytest

from apps.chat import service as S
from apps.core.store.db import Caller

PRIYA = Caller("priya.raman", "priya.raman")
ALEX = Caller("alex.chen", "alex.chen")


@pytest.fixture
def room(slot):
    with slot.store() as st:
        cid = S.create_channel(st, PRIYA, "qa-room", members=["alex.chen"])
        parent = S.post_message(st, PRIYA, cid, "Morning @alex.chen — the survey is final.")
        S.post_message(st, ALEX, cid, "On it.", thread=parent)
        secret = S.create_channel(st, PRIYA, "qa-secret", private=True)
        hidden = S.post_message(st, PRIYA, secret, "Partners only.")
        local = st.one("SELECT id, name FROM local_files WHERE owner='alex.chen' ORDER BY id")
    return {"id": cid, "parent": parent, "secret": secret, "hidden": hidden, "local": dict(local)}


def writes(slot):
    with slot.store() as st:
        return st.scalar("SELECT count(*) FROM _writes")


def test_views_and_dialogs_render(client, room):
    cid = room["id"]
    for url in ["/chat/threads", "/chat/activity", "/chat/later", "/chat/switcher", f"/chat/c/{cid}/archive",
                f"/chat/c/{cid}/details?tab=settings", f"/chat/c/{cid}/earlier?before={room['parent'] + 1}",
                "/chat/search?q=survey&tab=files", "/chat/search?q=priya&tab=people", f"/chat/c/{cid}?unread=1"]:
        r = client.get(url)
        assert r.status_code == 200, url
    assert "Morning" in client.get("/chat/threads").data.decode()
    assert "Mention in" in client.get("/chat/activity").data.decode()


def test_save_then_later_lists_it(hx, slot, room):
    r = hx.post(f"/chat/m/{room['parent']}/save", data={"saved": "1"})
    assert r.status_code == 200 and "Saved for later" in r.data.decode()
    with slot.store() as st:
        assert [m["id"] for m in S.saved_items(st, "alex.chen")] == [room["parent"]]
    assert "the survey is final" in hx.get("/chat/later").data.decode()
    assert hx.post(f"/chat/m/{room['parent']}/save", data={"saved": "0", "where": "later"}).status_code == 200
    with slot.store() as st:
        assert S.saved_items(st, "alex.chen") == []


def test_mark_unread_redirects_to_the_channel_kept_unread(hx, slot, room):
    cid = room["id"]
    hx.get(f"/chat/c/{cid}")
    r = hx.post(f"/chat/m/{room['parent']}/unread")
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith(f"/chat/c/{cid}?unread=1")
    hx.get(f"/chat/c/{cid}?unread=1")
    hx.get(f"/chat/c/{cid}/messages?keep=1")
    with slot.store() as st:
        assert S.last_read(st, "alex.chen", cid) < room["parent"]


def test_rename_and_archive(hx, slot, room):
    cid = room["id"]
    r = hx.post(f"/chat/c/{cid}/rename", data={"name": "QA Room"})
    assert r.status_code == 422 and "can&#39;t contain spaces" in r.data.decode()
    r = hx.post(f"/chat/c/{cid}/rename", data={"name": "general"})
    assert r.status_code == 422 and "already taken" in r.data.decode()
    assert hx.post(f"/chat/c/{cid}/rename", data={"name": "qa-renamed"}).status_code == 200
    assert hx.post(f"/chat/c/{cid}/archive", data={"archived": "maybe"}).status_code == 422
    assert hx.post(f"/chat/c/{cid}/archive").status_code == 204
    with slot.store() as st:
        c = st.get("chat_conversations", cid)
        assert (c["name"], c["archived"]) == ("qa-renamed", True)
    html = hx.get(f"/chat/c/{cid}").data.decode()
    assert "an archived channel" in html and "Message #qa-renamed" not in html
    assert hx.post(f"/chat/c/{cid}/messages", data={"text": "late"}).status_code == 422
    assert hx.post(f"/chat/m/{room['parent']}/react", data={"emoji": "👍"}).status_code == 422
    assert hx.post(f"/chat/c/{cid}/archive", data={"archived": "0"}).status_code == 204


def test_upload_from_the_computer(hx, slot, room):
    cid, local = room["id"], room["local"]
    r = hx.post("/chat/files/local?target=main-composer", data={"local": str(local["id"])})
    assert r.status_code == 200 and local["name"] in r.data.decode() and 'name="local"' in r.data.decode()
    assert hx.post(f"/chat/c/{cid}/messages", data={"text": "", "local": str(local["id"])}).status_code == 200
    assert hx.post(f"/chat/c/{cid}/messages", data={"text": "raw", "file": (io.BytesIO(b"a,b\n1,2\n"), "t.csv")},
                   content_type="multipart/form-data").status_code == 200
    with slot.store() as st:
        rows = st.all("SELECT f.* FROM chat_files f JOIN chat_messages m ON m.id=f.message WHERE m.conversation=?"
                      " ORDER BY f.id", (cid,))
    assert [r["name"] for r in rows] == [local["name"], "t.csv"] and all(r["blob"] for r in rows)
    page = hx.get(f"/chat/files/{rows[1]['id']}")
    assert page.status_code == 200 and "1,2" in page.data.decode()


@pytest.mark.parametrize("method,url,data,status,field", [
    ("post", "/chat/files/local?target=main-composer", {"local": "abc"}, 422, "is not a file on this computer"),
    ("post", "/chat/files/local?target=main-composer", {}, 422, "Choose at least one file"),
    ("post", "/chat/files/local?target=<x>", {"local": "1"}, 422, "Which message box"),
    ("post", "/chat/c/{id}/messages", {"text": "x", "local": "999999"}, 422, "isn't on this computer"),
    ("post", "/chat/m/{parent}/save", {"saved": "perhaps"}, 422, "must be true or false"),
    ("post", "/chat/m/{hidden}/save", {"saved": "1"}, 404, None),
    ("post", "/chat/m/{hidden}/unread", {}, 404, None),
    ("post", "/chat/m/999999/unread", {}, 404, None),
    ("post", "/chat/c/{secret}/rename", {"name": "x"}, 404, None),
    ("post", "/chat/c/{secret}/archive", {}, 404, None),
    ("get", "/chat/c/{id}/earlier", {}, 422, "Say which message"),
    ("get", "/chat/c/{id}/earlier?before=-1", {}, 422, "before"),
    ("get", "/chat/search?q=x&tab=bogus", {}, 422, "messages, files or people"),
    ("get", "/chat/search?q=is:bogus", {}, 200, "Chat searches only is:saved"),
    ("get", "/chat/files/999999", {}, 404, None),
])
def test_bad_input(hx, slot, room, method, url, data, status, field):
    url = url.format(**room)
    before = writes(slot)
    r = getattr(hx, method)(url, data=data) if method == "post" else hx.get(url)
    assert r.status_code == status, r.data[:300]
    if field:
        assert field in html.unescape(r.data.decode())
    if status >= 400:
        assert writes(slot) == before
