"""Every Mail route through the Flask client, with bad input: 404 pages,
inline errors, nothing written, and world or user HTML rendered inert."""
from __future__ import annotations

import re

import pytest

from apps.core.store.export import diff, export
from apps.mail import compose

from tests.conftest import make_client


def thread_id(slot, like="Board pack%"):
    with slot.store() as st:
        return st.scalar("SELECT thread FROM mail_messages WHERE subject LIKE ? ORDER BY id", (like,))


def msg_id(slot, like="Board pack%"):
    with slot.store() as st:
        return st.scalar("SELECT id FROM mail_messages WHERE subject LIKE ? ORDER BY id DESC", (like,))


def snapshot(slot):
    with slot.store() as st:
        return export(st)


@pytest.mark.parametrize("url", ["/mail/", "/mail/inbox", "/mail/starred", "/mail/sent", "/mail/drafts",
                                 "/mail/archive", "/mail/all", "/mail/trash", "/mail/label/1", "/mail/compose",
                                 "/mail/search?q=survey", "/mail/shortcuts", "/mail/search/options",
                                 "/mail/labels/new", "/mail/labels/1/edit", "/mail/labels/1/delete",
                                 "/mail/trash/empty"])
def test_pages_render(client, url):
    r = client.get(url, follow_redirects=True)
    assert r.status_code == 200
    assert r.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("url", ["/mail/nowhere", "/mail/label/999", "/mail/thread/99999", "/mail/labels/999/edit",
                                 "/mail/attachments/99999", "/mail/attachments/99999/view",
                                 "/mail/compose?draft=424242"])
def test_unknown_ids_are_404_pages(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert b"<!doctype html>" in r.data.lower()


def test_not_signed_in_and_stale_pages_are_refused(app, slot):
    assert app.test_client().get("/mail/inbox").status_code == 401
    client = make_client(app)
    slot.restore()
    r = client.get("/mail/inbox")
    assert r.status_code == 409 and b"expired" in r.data


def test_folder_page_and_list_fragment(client, hx):
    full = client.get("/mail/inbox")
    assert b"<html" in full.data and b"Board pack" in full.data
    frag = hx.get("/mail/inbox")
    assert b"<html" not in frag.data and b'id="threads"' in frag.data
    assert "HX-Request" in frag.headers["Vary"]
    assert client.get("/mail/inbox?page=abc").status_code == 422


def test_thread_page_marks_read(client, slot):
    t = thread_id(slot)
    r = client.get(f"/mail/thread/{t}?v=inbox")
    assert r.status_code == 200 and b"For Thursday" in r.data
    with slot.store() as st:
        assert st.scalar("SELECT min(read) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 1


def test_bulk_actions_and_undo(hx, client, slot):
    t = thread_id(slot)
    r = hx.post("/mail/act", data={"t": [t], "action": "archive", "v": "inbox"})
    assert r.status_code == 200 and b"Conversation archived." in r.data and b'hx-swap-oob' in r.data
    token = re.search(rb'name="token" value="([^"]+)"', r.data).group(1).decode()
    with slot.store() as st:
        assert st.scalar("SELECT max(inbox) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 0
    r = hx.post("/mail/undo", data={"token": token, "v": "inbox"})
    assert r.status_code == 200
    with slot.store() as st:
        assert st.scalar("SELECT max(inbox) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 1
    assert hx.post("/mail/undo", data={"token": "forged", "v": "inbox"}).status_code == 422
    # Without JavaScript the same form redirects back to the list.
    r = client.post("/mail/act", data={"t": [t], "op": "move_to_label:2", "v": "inbox"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/mail/inbox")


@pytest.mark.parametrize("data,status", [
    ({"action": "archive", "v": "inbox"}, 422),                     # nothing selected
    ({"t": ["abc"], "action": "archive"}, 422),
    ({"t": ["99999"], "action": "archive"}, 404),
    ({"t": ["1"], "action": "explode"}, 422),
    ({"t": ["1"], "action": "add_label"}, 422),                     # no label
    ({"t": ["1"], "action": "add_label", "label": "999"}, 404),
])
def test_bad_bulk_actions_change_nothing(hx, slot, data, status):
    before = snapshot(slot)
    r = hx.post("/mail/act", data=data)
    assert r.status_code == status
    assert r.headers.get("HX-Reswap") == "none"
    assert diff(before, snapshot(slot)) == {"tables": {}}


def test_row_buttons_star_and_single_actions(hx, slot):
    t = thread_id(slot, "Calder Tower – elevator%")
    r = hx.post(f"/mail/threads/{t}/star?v=inbox")
    assert r.status_code == 200 and b'aria-pressed="true"' in r.data
    assert hx.post(f"/mail/threads/{t}/do/trash?v=inbox").status_code == 200
    with slot.store() as st:
        assert st.scalar("SELECT min(trashed) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 1
    assert hx.post(f"/mail/threads/{t}/do/nonsense?v=inbox").status_code == 422


def test_message_star_unread_and_label_chip(client, slot):
    m = msg_id(slot)
    t = thread_id(slot)
    assert client.post(f"/mail/messages/{m}/star?v=inbox").status_code == 302
    assert client.post(f"/mail/messages/{m}/unread?v=inbox").status_code == 302
    with slot.store() as st:
        box = st.select("mail_boxes", "owner='alex.chen' AND message=?", (m,))[0]
        lab = box["labels"][0]
    assert box["starred"] and not box["read"]
    assert client.post(f"/mail/thread/{t}/labels/{lab}/remove?v=inbox").status_code == 302
    with slot.store() as st:
        assert lab not in st.select("mail_boxes", "owner='alex.chen' AND message=?", (m,))[0]["labels"]
    assert client.post("/mail/messages/99999/star").status_code == 404


def test_labels_routes_validate_inline(hx, client, slot):
    r = hx.post("/mail/labels", data={"name": ""})
    assert r.status_code == 422 and b"Please enter a label name." in r.data and b"<dialog" in r.data
    r = hx.post("/mail/labels", data={"name": "CLE"})
    assert r.status_code == 422 and b"already exists" in r.data
    r = hx.post("/mail/labels", data={"name": "Board pack"})
    assert r.status_code == 204 and "/mail/label/" in r.headers["HX-Redirect"]
    with slot.store() as st:
        lid = st.scalar("SELECT id FROM mail_labels WHERE name='Board pack'")
    assert hx.post(f"/mail/labels/{lid}", data={"name": "CLE"}).status_code == 422
    assert hx.post(f"/mail/labels/{lid}", data={"name": "Board"}).status_code == 204
    assert hx.post(f"/mail/labels/{lid}/delete").status_code == 204
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_labels WHERE id=?", (lid,)) == 0


def test_trash_delete_forever_and_empty(hx, slot):
    t = thread_id(slot)
    hx.post("/mail/act", data={"t": [t], "action": "trash", "v": "inbox"})
    r = hx.post("/mail/threads/delete-forever/confirm", data={"t": [t], "v": "trash"})
    assert r.status_code == 200 and b"alertdialog" in r.data
    assert hx.post("/mail/threads/delete-forever/confirm", data={"v": "trash"}).status_code == 422
    assert hx.post("/mail/threads/delete-forever", data={"t": [t], "v": "trash"}).status_code == 204
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 0
    assert hx.post("/mail/trash/empty").status_code == 204


def test_search_routes(client):
    assert client.get("/mail/search?q=").status_code == 302
    r = client.get("/mail/search?q=before:2026-99-99")
    assert r.status_code == 200 and b"Couldn&#39;t understand the date" in r.data
    r = client.get("/mail/search/advanced?from=sofia&subject=final+survey&has_attachment=1&in=inbox")
    assert r.status_code == 302
    from urllib.parse import parse_qs, urlparse
    q = parse_qs(urlparse(r.headers["Location"]).query)["q"][0]
    assert q == 'from:sofia subject:"final survey" in:inbox has:attachment'
    assert client.get("/mail/search/advanced").status_code == 302


def test_compose_flow_through_routes(hx, client, slot):
    with slot.store() as st:
        before = st.scalar("SELECT count(*) FROM mail_drafts")
    r = hx.post("/mail/compose")
    # Opening compose saves nothing (Gmail keeps no draft until something is typed).
    assert r.status_code == 200 and b'name="draft_id" id="draft-id-c" value=""' in r.data
    r = hx.post("/mail/compose/save", data={"draft_id": "", "fk": "c", "to": [""], "subject": "", "body": ""})
    assert r.status_code == 200 and b"Draft saved" not in r.data
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts") == before
    r = hx.post("/mail/compose/save", data={"draft_id": "", "fk": "c", "to": ["priya.raman@meridianshaw.com"],
                                            "subject": "Binder", "body": "Draft"})
    assert r.status_code == 200 and b"Draft saved" in r.data
    # The first save gives the form the draft's id (out of band), so later saves update that draft.
    draft = int(re.search(rb'name="draft_id" id="draft-id-c" value="(\d+)" hx-swap-oob="true"', r.data).group(1))
    r = hx.post("/mail/compose/save", data={"draft_id": draft, "fk": "c", "to": ["priya.raman@meridianshaw.com"],
                                            "subject": "Binder", "body": "Draft"})
    assert r.status_code == 200 and b"Draft saved" in r.data and b"hx-swap-oob" not in r.data
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts") == before + 1
    r = hx.post("/mail/compose/pick/drive", data={"draft_id": draft, "fk": "c"})
    assert r.status_code == 200 and b"Insert files using Drive" in r.data
    assert hx.get(f"/mail/compose/pick/drive?draft_id={draft}&fk=c&tab=shared").status_code == 200
    r = hx.post("/mail/compose/pick/local", data={"draft_id": draft, "fk": "c"})
    assert r.status_code == 200 and b"Choose files from your computer" in r.data
    with slot.store() as st:
        local = st.scalar("SELECT id FROM local_files ORDER BY id")
        item = st.scalar("SELECT id FROM drive_items WHERE name LIKE 'Vessel Particulars – MT%'")
    r = hx.post("/mail/compose/attach", data={"draft_id": draft, "fk": "c", "local": [local], "drive": [item]})
    assert r.status_code == 200 and b'id="cfiles-c"' in r.data
    assert hx.post("/mail/compose/attach", data={"draft_id": draft, "fk": "c"}).status_code == 422
    with slot.store() as st:
        files = st.select("mail_draft_files", "draft=?", (draft,))
    assert len(files) == 2
    assert hx.post(f"/mail/compose/attachments/{files[0]['id']}/remove", data={"draft_id": draft, "fk": "c"}).status_code == 200
    assert hx.post("/mail/compose/attachments/99999/remove", data={"draft_id": draft, "fk": "c"}).status_code == 404
    r = hx.post("/mail/compose/send", data={"draft_id": draft, "fk": "c", "to": ["priya.raman@meridianshaw.com"],
                                            "subject": "Binder", "body": "Attached."})
    assert r.status_code == 200 and b"Message sent." in r.data and r.headers["HX-Trigger"] == "mail-changed"
    with slot.store() as st:
        m = st.select("mail_messages", "subject='Binder'")[0]
        assert st.scalar("SELECT count(*) FROM mail_attachments WHERE message=?", (m["id"],)) == 1
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE id=?", (draft,)) == 0


def test_send_errors_are_inline_and_lose_nothing(hx, slot):
    r = hx.post("/mail/compose/send", data={"fk": "c", "to": ["not an address"], "subject": "Hi",
                                            "body": "Keep me"})
    assert r.status_code == 422
    assert b"was not recognized" in r.data and b"Keep me" in r.data and b'role="alert"' in r.data
    r = hx.post("/mail/compose/send", data={"fk": "c", "to": [""], "subject": "Hi", "body": "Keep me"})
    assert r.status_code == 422 and b"Please specify at least one recipient." in r.data
    r = hx.post("/mail/compose/send", data={"fk": "c", "to": ["priya.raman@meridianshaw.com"]})
    assert r.status_code == 200 and b"without a subject or text in the body?" in r.data
    draft = int(re.search(rb'id="draft-id-c" value="(\d+)"', r.data).group(1))
    r = hx.post("/mail/compose/send", data={"fk": "c", "draft_id": draft, "to": ["priya.raman@meridianshaw.com"],
                                            "allow_empty": "1"})
    assert r.status_code == 200 and b"Message sent." in r.data


def test_reply_discard_close(hx, slot):
    m = msg_id(slot)
    r = hx.post(f"/mail/messages/{m}/reply?mode=reply_all&v=inbox")
    assert r.status_code == 200 and b'id="compose-r"' in r.data
    assert hx.post(f"/mail/messages/{m}/reply?mode=sideways").status_code == 422
    # A reply is saved only once something changes: opened and closed, it leaves nothing.
    assert b'id="draft-id-r" value=""' in r.data and f'name="reply_of" value="{m}"'.encode() in r.data
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE owner='alex.chen'") == 0
    body = re.search(rb'aria-label="Message Body"[^>]*>\n(.*?)</textarea>', r.data, re.S).group(1).decode()
    to = re.findall(rb'name="to" value="([^"]+)"', r.data)
    same = {"draft_id": "", "fk": "r", "reply_of": m, "mode": "reply_all", "to": [t.decode() for t in to],
            "cc": re.findall(r'name="cc" value="([^"]+)"', r.data.decode()), "bcc": [],
            "subject": re.search(rb'name="subject" type="text" value="([^"]*)"', r.data).group(1).decode()
            .replace("&#39;", "'").replace("&amp;", "&"), "body": body}
    r2 = hx.post("/mail/compose/save", data=same)
    assert r2.status_code == 200 and b"Draft saved" not in r2.data
    r2 = hx.post("/mail/compose/save", data={**same, "body": "Thanks."})
    assert b"Draft saved" in r2.data
    draft = int(re.search(rb'id="draft-id-r" value="(\d+)"', r2.data).group(1))
    with slot.store() as st:
        d = st.get("mail_drafts", draft)
        assert d["in_reply_to"] == m and d["body"] == "Thanks."
    assert hx.post("/mail/compose/discard", data={"draft_id": draft, "fk": "r"}).status_code == 200
    r = hx.post("/mail/compose")
    assert b'id="draft-id-c" value=""' in r.data
    assert hx.post("/mail/compose/close", data={"draft_id": "", "fk": "c", "to": [""], "subject": "",
                                                 "body": ""}).status_code == 200
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE owner='alex.chen'") == 0
    # Something typed, then closed: a draft is kept.
    r = hx.post("/mail/compose/close", data={"draft_id": "", "fk": "c", "to": [""], "subject": "Notes", "body": ""})
    assert r.status_code == 200 and b"Draft saved." in r.data
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE owner='alex.chen'") == 1


def test_unsaved_forward_keeps_the_attachments_and_removing_one_saves_it(hx, slot):
    with slot.store() as st:
        a = st.select("mail_attachments", "mime='application/pdf'", order="id")[0]
        m = a["message"]
    r = hx.post(f"/mail/messages/{m}/forward?mode=forward".replace("/forward?", "/reply?"))
    assert r.status_code == 200 and a["name"].encode() in r.data and b"---------- Forwarded message ---------" in r.data
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts") == 0
    r = hx.post(f"/mail/compose/attachments/{a['id']}/remove",
                data={"draft_id": "", "fk": "r", "reply_of": m, "mode": "forward", "to": [""], "body": "x"})
    assert r.status_code == 200 and b'hx-swap-oob="true"' in r.data
    with slot.store() as st:
        d = st.select("mail_drafts", "forward_of=?", (m,))[0]
        assert st.select("mail_draft_files", "draft=? AND name=?", (d["id"], a["name"])) == []
    assert hx.post("/mail/compose/attachments/99999/remove",
                   data={"draft_id": "", "fk": "r", "reply_of": m, "mode": "forward"}).status_code == 404
    with slot.store() as st:                        # the refused removal saved no second draft
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE forward_of=?", (m,)) == 1


def test_attachment_download_preview_and_save_to_drive(client, hx, slot):
    with slot.store() as st:
        pdf = st.scalar("SELECT id FROM mail_attachments WHERE mime='application/pdf' ORDER BY id")
        csv = st.scalar("SELECT id FROM mail_attachments WHERE mime='text/csv' ORDER BY id")
    r = client.get(f"/mail/attachments/{pdf}")
    assert r.status_code == 200 and r.data.startswith(b"%PDF") and "attachment;" in r.headers["Content-Disposition"]
    assert client.get(f"/mail/attachments/{pdf}/page/0.png").data.startswith(b"\x89PNG")
    assert client.get(f"/mail/attachments/{pdf}/page/99.png").status_code == 404
    assert client.get(f"/mail/attachments/{pdf}/raw").status_code == 404
    v = hx.get(f"/mail/attachments/{pdf}/view")
    assert v.status_code == 200 and b'class="viewer"' in v.data and b"<html" not in v.data
    assert b"<table" in client.get(f"/mail/attachments/{csv}/view").data
    r = hx.post(f"/mail/attachments/{pdf}/save")
    assert r.status_code == 200 and b"saved to My Drive" in r.data
    with slot.store() as st:
        name = st.scalar("SELECT name FROM mail_attachments WHERE id=?", (pdf,))
        assert st.scalar("SELECT count(*) FROM drive_items WHERE name=? AND owner='alex.chen' AND parent IS NULL",
                         (name,)) == 1


def test_html_in_world_data_and_user_input_is_inert(hx, client, slot, alex):
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    with slot.store() as st:
        compose.send(st, alex, to="alex.chen@meridianshaw.com", subject=evil, body=evil)
        st.update("people", st.scalar("SELECT id FROM people WHERE slug='priya.raman'"), "system", name=evil)
    for url in ["/mail/inbox", "/mail/sent", "/mail/search?q=alert"]:
        body = client.get(url).data
        assert b"<script>alert" not in body and b"<img src=x" not in body
        assert b"&lt;script&gt;" in body
    with slot.store() as st:
        t = st.scalar("SELECT thread FROM mail_messages WHERE subject LIKE '<script>%'")
    body = client.get(f"/mail/thread/{t}").data
    assert b"<script>alert" not in body and b"&lt;script&gt;" in body
    r = hx.get("/people/suggest?field=to&to=priya")
    assert b"<script>" not in r.data


def test_settings_signature_route_and_its_bad_inputs(hx, client, slot):
    r = client.get("/mail/settings")
    assert r.status_code == 200 and b'aria-label="Signature"' in r.data
    assert client.post("/mail/settings", data={}).status_code == 422
    r = client.post("/mail/settings", data={"signature": "x" * 10001})
    assert r.status_code == 422 and b"10,000 characters" in r.data
    assert client.post("/mail/settings", data={"signature": "Alex"}).status_code in (302, 303)
    with slot.store() as st:
        assert st.scalar("SELECT signature FROM mail_settings WHERE owner='alex.chen'") == "Alex"


def test_drafts_discard_route_and_its_bad_inputs(hx, slot):
    from apps.core.store.db import Caller
    from apps.mail import compose
    with slot.store() as st:
        mine = [compose.create_draft(st, Caller("alex.chen", "agent"), subject=s) for s in ("A", "B")]
        theirs = compose.create_draft(st, Caller("eleanor.vance", "agent"), subject="Hers")
        st.conn.commit()
    assert hx.post("/mail/drafts/discard", data={}).status_code == 422
    assert hx.post("/mail/drafts/discard", data={"t": "abc"}).status_code == 422
    assert hx.post("/mail/drafts/discard", data={"t": [mine[0], theirs]}).status_code == 404
    with slot.store() as st:                        # one that isn't the user's discards none
        assert st.scalar("SELECT count(*) FROM mail_drafts") == 3
    r = hx.post("/mail/drafts/discard", data={"t": mine})
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith("/mail/drafts")
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts") == 1


def test_snooze_routes_and_their_bad_inputs(hx, slot):
    with slot.store() as st:
        t = st.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Calder Tower – elevator bank B%'")
    assert hx.get("/mail/snooze/pick").status_code == 422
    r = hx.get(f"/mail/snooze/pick?t={t}&v=inbox")
    assert r.status_code == 200 and b'name="until"' in r.data and b"Pick date &amp; time" in r.data
    assert hx.post("/mail/act", data={"t": t, "action": "snooze", "until": "2020-01-01T08:00"}).status_code == 422
    assert hx.post("/mail/act", data={"t": t, "action": "snooze", "until": "soon"}).status_code == 422
    assert hx.post("/mail/act", data={"t": t, "op": "snooze:"}).status_code == 422
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_boxes WHERE snoozed_until IS NOT NULL") == 0
    r = hx.post("/mail/act", data={"t": t, "op": "snooze:2026-04-13T08:00", "v": "inbox"})
    assert r.status_code == 200 and "snoozed until Mon, Apr 13, 8:00 AM" in r.data.decode()
    r = hx.post("/mail/act", data={"t": t, "action": "spam", "v": "inbox", "from_thread": "1"})
    assert r.status_code == 204 and r.headers["HX-Redirect"].endswith("/mail/inbox")
    r = hx.post("/mail/act", data={"t": t, "op": "add_label:1", "v": "inbox", "from_thread": "1"})
    assert r.headers["HX-Redirect"].startswith(f"/mail/thread/{t}")      # labelling stays on the conversation
    r = hx.post("/mail/act", data={"t": t, "action": "unread", "v": "inbox", "from_thread": "1"})
    assert r.headers["HX-Redirect"].endswith("/mail/inbox")             # Mark as unread goes back to the list
    for page in ("/mail/snoozed", "/mail/spam", "/mail/search?q=survey"):
        assert hx.get(page).status_code == 200
    assert b'aria-label="Search filters"' in hx.get("/mail/search?q=survey").data
