"""Comments on slides: threads, replies, resolve and reopen; who may comment; the routes and a real
browser (comment from the Insert menu, reply, resolve), checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.slides import comments as C
from apps.slides import service as S
from tests.conftest import make_client

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
HENRY = Caller(user="henry.adeyemi")            # viewer on the matter folder


def ids(store):
    did = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (CLIENT,))
    return did, S.read_slides(store, did)[1]["id"]


def test_threads_replies_resolve(store, alex):
    did, sid = ids(store)
    cid = C.add(store, alex, sid, "  Is 17,950 bbl final?  ")
    rid = C.reply(store, alex, cid, "Yes — survey of 6 March")
    assert C.resolve(store, alex, rid) is True and C.resolve(store, alex, cid) is False      # the thread's flag
    [t] = C.threads(store, "alex.chen", did, sid)
    assert (t["text"], t["author"], t["author_name"], t["resolved"], t["resolved_by"]) == (
        "Is 17,950 bbl final?", "alex.chen", "Alex Chen", True, "alex.chen")
    assert [r["text"] for r in t["replies"]] == ["Yes — survey of 6 March"]
    C.reply(store, alex, cid, "Reopening: check the units")                                 # a reply reopens
    assert C.threads(store, "alex.chen", did)[0]["resolved"] is False
    assert C.threads(store, "alex.chen", did, sid + 1) == []
    for fn, err in [(lambda: C.add(store, alex, sid, "   "), Invalid), (lambda: C.add(store, alex, sid, "x" * 2001), Invalid),
                    (lambda: C.reply(store, alex, 999999, "x"), NotFound), (lambda: C.add(store, HENRY, sid, "x"), Forbidden),
                    (lambda: C.resolve(store, HENRY, cid), Forbidden), (lambda: C.add(store, alex, 999999, "x"), NotFound)]:
        with pytest.raises(err):
            fn()
    S.delete_slide(store, alex, sid)
    assert store.scalar("SELECT COUNT(*) FROM slides_comments") == 0


def test_comment_routes(hx, slot, app):
    with slot.store() as st:
        did, sid = ids(st)
    r = hx.post(f"/slides/p/{did}/s/{sid}/comments", data={"text": "Check the date", "comments": "1"})
    assert r.status_code == 200 and b"show-comments" in r.data and b"Check the date" in r.data
    with slot.store() as st:
        cid = C.threads(st, "alex.chen", did)[0]["id"]
    assert hx.post(f"/slides/p/{did}/c/{cid}/reply", data={"text": "Done", "slide": str(sid)}).status_code == 200
    r = hx.post(f"/slides/p/{did}/c/{cid}/resolve", data={"resolved": "1", "slide": str(sid)})
    assert r.status_code == 200 and b"Reopen" in r.data
    for url, data in [(f"/slides/p/{did}/s/{sid}/comments", {"text": ""}), (f"/slides/p/{did}/c/{cid}/reply", {}),
                      (f"/slides/p/{did}/c/{cid}/resolve", {"resolved": "maybe"})]:
        assert hx.post(url, data=data).status_code == 422, url
    assert hx.post(f"/slides/p/{did + 1}/c/{cid}/reply", data={"text": "x"}).status_code == 404
    henry = make_client(app, "henry.adeyemi")
    assert henry.post(f"/slides/p/{did}/s/{sid}/comments", data={"text": "x"}, headers={"HX-Request": "true"}).status_code == 403
    body = henry.get(f"/slides/p/{did}?slide={sid}").data
    assert b"Check the date" in body and b'aria-label="Add a comment"' not in body


@pytest.mark.browser
def test_comment_reply_and_resolve_in_the_browser(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        did, sid = ids(st)
    page.goto(f"/slides/p/{did}?slide={sid}")
    expect(page.get_by_role("complementary", name="Comments")).to_be_hidden()
    page.get_by_role("button", name="Insert", exact=True).click()
    page.get_by_role("menuitem", name="Comment Ctrl+Alt+M").click()
    box = page.get_by_role("textbox", name="Add a comment")
    expect(box).to_be_focused()
    box.fill("Is 17,950 bbl the final figure?")
    page.get_by_role("button", name="Comment", exact=True).click()
    thread = page.get_by_role("article", name="Comment by Alex Chen")
    expect(thread).to_contain_text("Is 17,950 bbl the final figure?")
    thread.get_by_role("textbox", name="Reply to Alex Chen").fill("Yes, per the survey")
    thread.get_by_role("button", name="Reply").click()
    expect(page.get_by_role("article", name="Comment by Alex Chen")).to_contain_text("Yes, per the survey")
    page.get_by_role("article", name="Comment by Alex Chen").get_by_role("button", name="Resolve").click()
    expect(page.get_by_role("article", name="Comment by Alex Chen").get_by_role("button", name="Reopen")).to_be_visible()
    with live_slot.store() as st:
        [t] = C.threads(st, "alex.chen", did, sid)
    assert (t["text"], [r["text"] for r in t["replies"]], t["resolved"]) == (
        "Is 17,950 bbl the final figure?", ["Yes, per the survey"], True)
