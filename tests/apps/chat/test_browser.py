"""Chat in a real browser: send with Enter, reply in a thread, react, @mention autocomplete, edit in place;
state checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.chat import service as S
from apps.core.store.db import Caller

pytestmark = pytest.mark.browser

PRIYA = Caller("priya.raman", "priya.raman")


@pytest.fixture
def room(live_slot):
    with live_slot.store() as st:
        cid = S.create_channel(st, PRIYA, "qa-room", members=["alex.chen", "eleanor.vance"])
        mid = S.post_message(st, PRIYA, cid, "Morning — the survey report is final.")
    return cid, mid


def latest(slot, author="alex.chen"):
    with slot.store() as st:
        mid = st.scalar("SELECT max(id) FROM chat_messages WHERE author=?", (author,))
        return S.get_message(st, author, mid) if mid else None


def composer(page):
    return page.get_by_role("textbox", name="Message #qa-room")


def test_enter_sends_shift_enter_is_a_new_line(desk, live_slot, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    box = composer(page)
    expect(box).to_be_focused()
    box.type("Binder index attached")
    page.keyboard.press("Shift+Enter")
    box.type("— see tab 4")
    page.keyboard.press("Enter")
    msg = page.locator("#messages .msg", has_text="Binder index attached")
    expect(msg).to_be_visible()
    expect(msg.locator(".msg-author")).to_have_text("Alex Chen")
    expect(box).to_have_value("")
    m = latest(live_slot)
    assert m["text"] == "Binder index attached\n— see tab 4" and m["conversation"] == room[0]
    page.keyboard.press("Enter")                      # empty: nothing is sent
    assert latest(live_slot)["id"] == m["id"]


def test_reply_in_thread_shows_reply_count(desk, live_slot, room):
    page = desk
    cid, mid = room
    page.goto(f"/chat/c/{cid}")
    msg = page.locator(f"#list-msg-{mid}")
    msg.hover()
    msg.get_by_role("button", name="Reply in thread").click()
    pane = page.get_by_role("complementary", name="Thread")
    expect(pane).to_be_visible()
    reply = pane.get_by_role("textbox", name="Reply…")
    expect(reply).to_be_focused()
    reply.type("Thanks — filing it in 02.")
    page.keyboard.press("Enter")
    expect(pane.locator(".msg", has_text="filing it in 02")).to_be_visible()
    expect(page.locator(f"#list-msg-{mid} .replies-link")).to_contain_text("1 reply")
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reply_count"] == 1
    assert latest(live_slot)["thread"] == mid


def test_react_and_toggle_off(desk, live_slot, room):
    page = desk
    cid, mid = room
    page.goto(f"/chat/c/{cid}")
    msg = page.locator(f"#list-msg-{mid}")
    msg.hover()
    msg.locator(".msg-actions").get_by_role("button", name="Find another reaction").click()
    picker = page.get_by_role("dialog", name="Emoji picker")
    picker.get_by_role("searchbox", name="Search all emoji").fill("thumbsup")
    picker.get_by_role("button", name=":thumbsup:").click()
    chip = page.locator(f"#list-msg-{mid}").get_by_role("button", name="👍 1")
    expect(chip).to_have_attribute("aria-pressed", "true")
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reactions"] == {"👍": ["alex.chen"]}
    chip.click()
    expect(page.locator(f"#list-msg-{mid} .reaction:not(.add)")).to_have_count(0)
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reactions"] == {}


def test_mention_autocomplete_inserts_a_mention(desk, live_slot, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    box = composer(page)
    box.type("Thanks @")
    options = page.get_by_role("listbox", name="People to mention").get_by_role("option")
    expect(options).to_have_count(3)                  # the channel's members
    box.type("pri")
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("Priya Raman")
    page.keyboard.press("Tab")
    expect(box).to_have_value("Thanks @priya.raman ")
    box.type("— can you check §9?")
    page.keyboard.press("Enter")
    expect(page.locator("#messages .mention", has_text="@Priya Raman")).to_be_visible()
    m = latest(live_slot)
    assert m["text"] == "Thanks @priya.raman — can you check §9?" and m["mentions"] == ["priya.raman"]
    # arrow keys choose among several
    box.type("@")
    expect(options).to_have_count(3)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(box).to_have_value("@eleanor.vance ")


def test_edit_own_message_in_place(desk, live_slot, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    composer(page).type("Filing Tuesday.")
    page.keyboard.press("Enter")
    expect(page.locator("#messages .msg", has_text="Filing Tuesday.")).to_be_visible()
    mid = latest(live_slot)["id"]
    msg = page.locator(f"#list-msg-{mid}")
    msg.hover()
    msg.get_by_role("button", name="More actions").click()
    msg.get_by_role("menuitem", name="Edit message").click()
    box = page.get_by_role("textbox", name="Edit message")
    expect(box).to_be_focused()
    page.keyboard.press("Escape")                     # cancel: nothing changes
    expect(box).to_have_count(0)
    msg.hover()
    msg.get_by_role("button", name="More actions").click()
    msg.get_by_role("menuitem", name="Edit message").click()
    box.fill("Filing Wednesday.")
    page.keyboard.press("Enter")
    expect(page.locator(f"#list-msg-{mid} .msg-text")).to_have_text("Filing Wednesday. (edited)")
    m = latest(live_slot)
    assert m["text"] == "Filing Wednesday." and m["edited"]


def test_a_coworkers_message_appears_on_refresh(desk, live_slot, room):
    page = desk
    cid, _ = room
    page.goto(f"/chat/c/{cid}")
    composer(page).type("half-typed")
    with live_slot.store() as st:
        other = S.create_channel(st, PRIYA, "qa-other", members=["alex.chen"])
        S.post_message(st, PRIYA, cid, "Hearing moved to 2 pm.")
        S.post_message(st, PRIYA, other, "@alex.chen over here")
    page.evaluate("document.body.dispatchEvent(new CustomEvent('deskworld:refresh', {bubbles: true}))")
    expect(page.locator("#messages .msg", has_text="Hearing moved to 2 pm.")).to_be_visible()
    link = page.get_by_role("navigation").get_by_role("link", name="qa-other")
    expect(link).to_have_class("chat-item unread")
    expect(link.locator(".badge")).to_have_text("1")
    expect(composer(page)).to_have_value("half-typed")          # the composer is left alone
    with live_slot.store() as st:                               # the open channel is read
        assert {c["id"]: c["unread"] for c in S.list_conversations(st, "alex.chen")["channels"]}[cid] == 0
