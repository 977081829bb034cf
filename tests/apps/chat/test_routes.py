"""Every Chat route through the Flask client, with bad input: 404 for unknown and private conversations,
422 for an empty message (nothing written), someone else's message can't be edited, HTML stays inert."""
from __future__ import annotations

import re

import pytest

from apps.chat import service as S
from apps.core.store.db import Caller

PRIYA = Caller("priya.raman", "priya.raman")


@pytest.fixture
def room(slot):
    """#qa-room (Priya's, with Alex) with a message and a thread; #qa-secret without Alex."""
    with slot.store() as st:
        cid = S.create_channel(st, PRIYA, "qa-room", purpose="Testing", members=["alex.chen", "eleanor.vance"])
        parent = S.post_message(st, PRIYA, cid, "Morning @alex.chen — the survey is final.")
        S.post_message(st, Caller("eleanor.vance", "eleanor.vance"), cid, "Thanks Priya.", thread=parent)
        secret = S.create_channel(st, PRIYA, "qa-secret", private=True, members=["eleanor.vance"])
        hidden = S.post_message(st, PRIYA, secret, "Partners only.")
    return {"id": cid, "parent": parent, "secret": secret, "hidden": hidden}


def count(slot, sql, params=()):
    with slot.store() as st:
        return st.scalar(sql, params)


def writes(slot):
    return count(slot, "SELECT count(*) FROM _writes")


def test_pages_render(client, room):
    cid, parent = room["id"], room["parent"]
    for url in ["/chat/", f"/chat/c/{cid}", f"/chat/c/{cid}?thread={parent}", f"/chat/c/{cid}?m={parent}",
                "/chat/browse", "/chat/browse?q=qa", "/chat/search?q=survey", f"/chat/c/{cid}/details",
                f"/chat/c/{cid}/details?tab=members", f"/chat/c/{cid}/pins", "/chat/channels/new", "/chat/dm/new",
                "/chat/files/picker?target=main-composer", "/chat/files/picker?q=survey&partial=1",
                f"/chat/c/{cid}/leave", f"/chat/c/{cid}/header", f"/chat/nav?current={cid}",
                f"/chat/c/{cid}/people?people=tom", "/chat/dm/suggest?people=rach", f"/chat/m/{parent}/thread"]:
        r = client.get(url, follow_redirects=True)
        assert r.status_code == 200, url
        assert r.headers["Cache-Control"] == "no-store"


def test_channel_page(client, room):
    r = client.get(f"/chat/c/{room['id']}")
    html = r.data.decode()
    assert "<title>#qa-room" in html and 'id="messages"' in html and 'id="chat-nav"' in html
    assert 'hx-trigger="chat-messages from:body, deskworld:refresh from:body"' in html
    assert '<span class="mention me" data-person="alex.chen">@Alex Chen</span>' in html
    assert "1 reply" in html and "Message #qa-room" in html and "qa-secret" not in html
    assert 'data-members="[' in html and "priya.raman" in html


@pytest.mark.parametrize("path", ["/chat/c/999999", "/chat/c/{secret}", "/chat/c/{secret}/messages",
                                  "/chat/c/{secret}/details", "/chat/c/{secret}/pins", "/chat/m/999999",
                                  "/chat/m/{hidden}", "/chat/m/{hidden}/thread", "/chat/c/{secret}/header",
                                  "/chat/c/{id}?thread=999999", "/chat/nowhere"])
def test_unknown_and_private_are_404(client, room, slot, path):
    before = writes(slot)
    r = client.get(path.format(**room))
    assert r.status_code == 404 and b"<!doctype html>" in r.data.lower()
    assert b"Partners only" not in r.data
    assert writes(slot) == before


def test_posting_to_a_private_channel_or_its_messages_is_404(hx, room, slot):
    before = writes(slot)
    assert hx.post(f"/chat/c/{room['secret']}/messages", data={"text": "hi"}).status_code == 404
    assert hx.post(f"/chat/m/{room['hidden']}/react", data={"emoji": "👍"}).status_code == 404
    assert hx.post(f"/chat/m/{room['hidden']}/replies", data={"text": "hi"}).status_code == 404
    assert hx.post(f"/chat/c/{room['secret']}/join").status_code == 404
    assert writes(slot) == before


def test_post_message_and_empty_is_422(hx, client, room, slot):
    cid = room["id"]
    r = hx.post(f"/chat/c/{cid}/messages", data={"text": "Filing <b>Tuesday</b> @priya.raman"})
    assert r.status_code == 200 and b'id="messages"' in r.data and b"<html" not in r.data
    assert b"Filing &lt;b&gt;Tuesday&lt;/b&gt;" in r.data and b"@Priya Raman" in r.data
    assert r.headers["HX-Trigger"] == "chat-nav"
    with slot.store() as st:
        m = st.select("chat_messages", "conversation=?", (cid,), order="id DESC")[0]
    assert m["text"] == "Filing <b>Tuesday</b> @priya.raman" and m["mentions"] == ["priya.raman"]
    assert m["author"] == "alex.chen"
    before = writes(slot)
    r = hx.post(f"/chat/c/{cid}/messages", data={"text": "   "})
    assert r.status_code == 422 and b"Write a message first." in r.data
    assert client.post(f"/chat/c/{cid}/messages", data={"text": ""}).status_code == 422
    assert hx.post(f"/chat/c/{cid}/messages", data={"text": "x", "drive": "abc"}).status_code == 422
    assert writes(slot) == before
    r = client.post(f"/chat/c/{cid}/messages", data={"text": "plain form post"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/chat/c/{cid}")


def test_post_with_a_drive_file_shows_a_card(hx, room, slot):
    with slot.store() as st:
        item = st.one("SELECT id, name FROM drive_items WHERE owner='alex.chen' AND kind<>'folder' ORDER BY id")
    r = hx.post(f"/chat/c/{room['id']}/messages", data={"text": "", "drive": [str(item["id"])]})
    assert r.status_code == 200 and b'class="file-card"' in r.data
    assert f'href="/drive/open/{item["id"]}"'.encode() in r.data


def test_thread_reply_and_also_send(hx, room, slot):
    parent = room["parent"]
    r = hx.post(f"/chat/m/{parent}/replies", data={"text": "Reading it now."})
    assert r.status_code == 200 and b'id="thread-pane"' in r.data and b"2 replies" in r.data
    assert r.headers["HX-Trigger"] == "chat-messages"
    r = hx.post(f"/chat/m/{parent}/replies", data={"text": "Also for everyone.", "also_channel": "1"})
    with slot.store() as st:
        assert st.get("chat_messages", parent)["reply_count"] == 3
        last = st.select("chat_messages", "thread=?", (parent,), order="id DESC")[0]
    assert last["also_channel"] is True
    assert b"Also for everyone." in hx.get(f"/chat/c/{room['id']}/messages").data
    before = writes(slot)
    assert hx.post(f"/chat/m/{parent}/replies", data={"text": ""}).status_code == 422
    assert writes(slot) == before


def test_react_pin_and_message_fragment(hx, room, slot):
    mid = room["parent"]
    r = hx.post(f"/chat/m/{mid}/react", data={"emoji": "🎉", "where": "list"})
    assert r.status_code == 200 and b'aria-pressed="true"' in r.data and r.data.count(b'role="article"') == 1
    assert r.headers["HX-Trigger"] == "chat-thread"
    with slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reactions"] == {"🎉": ["alex.chen"]}
    hx.post(f"/chat/m/{mid}/react", data={"emoji": "🎉"})
    with slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reactions"] == {}
    assert hx.post(f"/chat/m/{mid}/react", data={"emoji": ""}).status_code == 422
    r = hx.post(f"/chat/m/{mid}/pin", data={"where": "thread"})
    assert r.status_code == 200 and b"Un-pin from channel" in r.data and "chat-header" in r.headers["HX-Trigger"]
    with slot.store() as st:
        assert st.get("chat_messages", mid)["pinned"] is True
    assert b"Morning" in hx.get(f"/chat/c/{room['id']}/pins").data


def test_edit_own_message_in_place(hx, room, slot):
    cid = room["id"]
    hx.post(f"/chat/c/{cid}/messages", data={"text": "Filing Tuesday."})
    with slot.store() as st:
        mid = st.scalar("SELECT max(id) FROM chat_messages WHERE author='alex.chen'")
    r = hx.get(f"/chat/m/{mid}/edit?where=list")
    assert r.status_code == 200 and b"data-edit-box" in r.data and b"Filing Tuesday." in r.data
    r = hx.post(f"/chat/m/{mid}/edit", data={"text": "Filing Wednesday.", "where": "list"})
    assert r.status_code == 200 and b"(edited)" in r.data and b"Filing Wednesday." in r.data
    r = hx.post(f"/chat/m/{mid}/edit", data={"text": "  ", "where": "list"})
    assert r.status_code == 422 and b"can&#39;t be empty" in r.data and b"data-edit-box" in r.data
    with slot.store() as st:
        assert st.get("chat_messages", mid)["text"] == "Filing Wednesday."
    assert b"Filing Wednesday." in hx.get(f"/chat/m/{mid}?where=list").data


def test_someone_elses_message_cannot_be_edited_or_deleted(hx, client, room, slot):
    mid = room["parent"]
    before = writes(slot)
    assert hx.get(f"/chat/m/{mid}/edit").status_code == 403
    r = hx.post(f"/chat/m/{mid}/edit", data={"text": "Hijacked"})
    assert r.status_code == 403 and b"only edit your own" in r.data
    assert client.post(f"/chat/m/{mid}/edit", data={"text": "Hijacked"}).status_code == 403
    assert hx.get(f"/chat/m/{mid}/delete").status_code == 403
    assert hx.post(f"/chat/m/{mid}/delete").status_code == 403
    assert writes(slot) == before
    with slot.store() as st:
        assert st.get("chat_messages", mid)["text"].startswith("Morning")


def test_delete_own_message_after_confirmation(hx, room, slot):
    cid = room["id"]
    hx.post(f"/chat/c/{cid}/messages", data={"text": "oops"})
    with slot.store() as st:
        mid = st.scalar("SELECT max(id) FROM chat_messages WHERE author='alex.chen'")
    r = hx.get(f"/chat/m/{mid}/delete")
    assert r.status_code == 200 and b"<dialog" in r.data and b"Delete message" in r.data
    r = hx.post(f"/chat/m/{mid}/delete")
    assert r.status_code == 200 and "chat-messages" in r.headers["HX-Trigger"] and b"Message deleted." in r.data
    with slot.store() as st:
        assert st.get("chat_messages", mid) is None


def test_create_channel_dialog(hx, slot):
    before = writes(slot)
    r = hx.post("/chat/channels", data={"name": "Hearing Prep", "purpose": ""})
    assert r.status_code == 422 and "Channel names can&#39;t contain spaces. Try “hearing-prep”" in r.data.decode()
    r = hx.post("/chat/channels", data={"name": "general", "purpose": ""}) if count(
        slot, "SELECT count(*) FROM chat_conversations WHERE name='general'") else None
    if r is not None:
        assert r.status_code == 422 and b"already taken" in r.data
    assert writes(slot) == before
    r = hx.post("/chat/channels", data={"name": "hearing-prep", "purpose": "Prep", "private": "1"})
    assert r.status_code == 204
    cid = count(slot, "SELECT id FROM chat_conversations WHERE name='hearing-prep'")
    assert r.headers["HX-Redirect"] == f"/chat/c/{cid}"
    assert count(slot, "SELECT private FROM chat_conversations WHERE id=?", (cid,)) == 1


def test_details_topic_invite_join_leave(hx, room, slot):
    cid = room["id"]
    r = hx.post(f"/chat/c/{cid}/topic", data={"topic": "Hearing Apr 22"})
    assert r.status_code == 200 and r.headers["HX-Trigger"] == "chat-header"
    r = hx.post(f"/chat/c/{cid}/topic", data={"purpose": "y" * 300})
    assert r.status_code == 422 and b"at most 250" in r.data
    r = hx.post(f"/chat/c/{cid}/invite", data={"people": ["tom.becker@meridianshaw.com"]})
    assert r.status_code == 200 and b"Tom Becker" in r.data and b"Added 1 person" in r.data
    r = hx.post(f"/chat/c/{cid}/invite", data={"people": ["nobody@example.org"]})
    assert r.status_code == 422 and b"isn&#39;t in your organisation" in r.data
    with slot.store() as st:
        conv = S.conversation(st, "alex.chen", cid)
    assert conv["topic"] == "Hearing Apr 22" and "tom.becker" in conv["members"]
    assert hx.post(f"/chat/c/{cid}/leave").headers["HX-Redirect"] == "/chat/"
    assert hx.get(f"/chat/c/{cid}").status_code == 200             # public: still viewable
    r = hx.post(f"/chat/c/{cid}/join")
    assert r.headers["HX-Redirect"] == f"/chat/c/{cid}"
    with slot.store() as st:
        assert S.is_member(st, cid, "alex.chen")


def test_open_dm(hx, slot):
    r = hx.post("/chat/dm", data={"people": ["rachel.kim@meridianshaw.com"]})
    assert r.status_code == 204
    cid = int(r.headers["HX-Redirect"].rsplit("/", 1)[1])
    with slot.store() as st:
        assert S.conversation(st, "alex.chen", cid)["title"] == "Rachel Kim"
    assert hx.post("/chat/dm", data={"people": []}).status_code == 422
    assert hx.post("/chat/dm", data={"people": ["ghost@example.org"]}).status_code == 422


def test_search_route(client, room):
    r = client.get("/chat/search?q=survey+in:%23qa-room")
    html = r.data.decode()
    assert r.status_code == 200 and "<mark>survey</mark>" in html and "qa-room" in html
    assert f'href="/chat/m/{room["parent"]}"' in html
    r = client.get("/chat/search?q=from:@no.body")
    assert r.status_code == 200 and "no one called" in r.data.decode()
    assert "Partners only" not in client.get("/chat/search?q=partners").data.decode()
    r = client.get(f"/chat/m/{room['parent']}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/chat/c/{room['id']}?m={room['parent']}")
    assert client.get("/chat/search?q=").status_code == 302


def test_opening_a_channel_writes_only_read_markers(client, room, slot):
    with slot.store() as st:
        seq = st.scalar("SELECT max(seq) FROM _writes")
    client.get(f"/chat/c/{room['id']}")
    client.get(f"/chat/c/{room['id']}?thread={room['parent']}")
    with slot.store() as st:
        rows = st.all("SELECT tbl, fields FROM _writes WHERE seq>?", (seq,))
    assert [(r["tbl"], r["fields"]) for r in rows] == [("chat_members", '["last_read"]')]


def test_new_messages_line_at_the_read_marker(client, room, slot):
    with slot.store() as st:
        S.mark_read(st, Caller("alex.chen"), room["id"])
        S.post_message(st, PRIYA, room["id"], "Something new.")
    html = client.get(f"/chat/c/{room['id']}").data.decode()
    assert re.search(r'id="new-messages".*Something new\.', html, re.S)
    assert 'id="new-messages"' not in client.get(f"/chat/c/{room['id']}").data.decode()


def test_the_open_thread_pane_refreshes_itself_without_taking_the_focus(client, room):
    """A click opens a thread with the focus in its reply box; the open pane re-fetching itself
    (its own request: ``HX-Trigger: thread-pane``) leaves the focus alone, and closes when the
    thread is gone."""
    url = f"/chat/m/{room['parent']}/thread"
    clicked = client.get(url, headers={"HX-Request": "true", "HX-Trigger": "reply-link"})
    assert clicked.status_code == 200 and b"data-focus" in clicked.data
    refreshed = client.get(url, headers={"HX-Request": "true", "HX-Trigger": "thread-pane"})
    assert refreshed.status_code == 200 and b'id="thread-pane"' in refreshed.data and b"data-focus" not in refreshed.data
    gone = client.get("/chat/m/99999/thread", headers={"HX-Request": "true", "HX-Trigger": "thread-pane"})
    assert gone.status_code == 200 and gone.get_data(as_text=True) == '<aside id="thread-pane" class="thread-pane" hidden></aside>'
    assert client.get("/chat/m/99999/thread", headers={"HX-Request": "true"}).status_code == 404
