"""Chat's Slack behaviours in a real browser (issue 21): the emoji picker and :shortcode:
autocomplete, files from the computer, Ctrl+K, ↑ to edit, Save for later, Pin from ⋮, rename and
archive, Threads / Activity / Later, Mark unread, older pages, toolbars that don't linger, the
formatting bar and search tabs; state checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.chat import service as S
from apps.core.store.db import Caller
from tests.apps.chat.test_browser import PRIYA, composer, latest, room  # noqa: F401  (room: a fixture)

pytestmark = pytest.mark.browser

ALEX = Caller("alex.chen", "alex.chen")


def hover_message(page, cid, mid):
    """Open the conversation and point at the message, so its toolbar shows; returns the message."""
    page.goto(f"/chat/c/{cid}")
    msg = page.locator(f"#list-msg-{mid}")
    msg.hover()
    return msg


def test_emoji_picker_in_composer_and_shortcode_autocomplete(desk, live_slot, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    box = composer(page)
    box.type("Looks good :thu")
    options = page.get_by_role("listbox", name="Emoji").get_by_role("option")
    expect(options.first).to_contain_text(":thumbsup:")
    page.keyboard.press("Tab")
    expect(box).to_have_value("Looks good 👍 ")
    page.locator("#main-composer").get_by_role("button", name="Emoji").click()
    picker = page.get_by_role("dialog", name="Emoji picker")
    expect(picker).to_be_visible()
    picker.get_by_role("tab", name="Food & Drink").click()
    picker.get_by_role("searchbox", name="Search all emoji").fill("tada")
    expect(picker.get_by_role("button", name=":coffee:")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(picker).to_be_hidden()
    page.keyboard.press("Enter")
    expect(page.locator("#messages .msg", has_text="Looks good 👍 🎉")).to_be_visible()
    assert latest(live_slot)["text"] == "Looks good 👍 🎉"


def test_react_from_the_picker_by_search(desk, live_slot, room):
    page = desk
    cid, mid = room
    msg = hover_message(page, cid, mid)
    msg.get_by_role("button", name="Find another reaction").click()
    picker = page.get_by_role("dialog", name="Emoji picker")
    picker.get_by_role("searchbox", name="Search all emoji").fill("rocket")
    picker.get_by_role("button", name=":rocket:").click()
    expect(page.locator(f"#list-msg-{mid}").get_by_role("button", name="🚀 1")).to_be_visible()
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["reactions"] == {"🚀": ["alex.chen"]}


def test_upload_a_file_from_the_computer(desk, live_slot, room):
    page = desk
    with live_slot.store() as st:
        local = st.one("SELECT id, name FROM local_files WHERE owner='alex.chen' ORDER BY path")
    assert local, "the world gives Alex files on his computer"
    page.goto(f"/chat/c/{room[0]}")
    page.locator("#main-composer").get_by_role("button", name="Attach", exact=True).click()
    page.get_by_role("menuitem", name="Upload from your computer").click()
    dialog = page.get_by_role("dialog", name="Choose files from your computer")
    row = dialog.get_by_role("checkbox", name=local["name"])
    if not row.count():                                  # in a sub-folder: open folders until found
        dialog.locator("button.picker-row").first.click()
    dialog.get_by_role("checkbox", name=local["name"]).check()
    dialog.get_by_role("button", name="Upload").click()
    expect(page.locator("#main-composer .att", has_text=local["name"])).to_be_visible()
    composer(page).type("Here it is")
    page.keyboard.press("Enter")
    card = page.locator("#messages .file-card", has_text=local["name"])
    expect(card).to_be_visible()
    m = latest(live_slot)
    assert m["uploads"] == [local["name"]] and m["files"] == []
    with live_slot.store() as st:
        f = st.one("SELECT * FROM chat_files WHERE message=?", (m["id"],))
        assert f["blob"] and f["item"] is None
    card.click()
    expect(page.get_by_role("heading", name=local["name"])).to_be_visible()


def test_ctrl_k_switcher_and_up_arrow_edits_last_message(desk, live_slot, room):
    page = desk
    with live_slot.store() as st:
        S.create_channel(st, PRIYA, "qa-elsewhere", members=["alex.chen"])
    page.goto(f"/chat/c/{room[0]}")
    composer(page).type("Filing Tuesday.")
    page.keyboard.press("Enter")
    expect(page.locator("#messages .msg", has_text="Filing Tuesday.")).to_be_visible()
    page.keyboard.press("ArrowUp")
    edit = page.get_by_role("textbox", name="Edit message")
    expect(edit).to_be_focused()
    edit.fill("Filing Wednesday.")
    page.keyboard.press("Enter")
    expect(page.locator("#messages .msg-text", has_text="Filing Wednesday.")).to_be_visible()
    assert latest(live_slot)["text"] == "Filing Wednesday."
    composer(page).click()
    page.keyboard.press("Control+k")
    jump = page.get_by_role("combobox", name="Jump to")
    expect(jump).to_be_focused()
    jump.type("qa-else")
    expect(page.get_by_role("option", name="qa-elsewhere")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="qa-elsewhere", level=1)).to_be_visible()
    page.keyboard.press("Control+k")
    page.get_by_role("combobox", name="Jump to").type("eleanor")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Eleanor Vance", level=1)).to_be_visible()


def test_save_for_later_and_pin_from_more_actions(desk, live_slot, room):
    page = desk
    cid, mid = room
    msg = hover_message(page, cid, mid)
    msg.get_by_role("button", name="Save for later").click()
    expect(page.locator(f"#list-msg-{mid} .saved-flag")).to_be_visible()
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["saved"] and not S.get_message(st, "alex.chen", mid)["pinned"]
    msg.hover()
    msg.get_by_role("button", name="More actions").click()
    msg.get_by_role("menuitem", name="Pin to channel").click()
    expect(page.locator(f"#list-msg-{mid} .pin-flag", has_text="Pinned")).to_be_visible()
    with live_slot.store() as st:
        assert S.get_message(st, "alex.chen", mid)["pinned"]
    page.get_by_role("link", name="Later").click()
    item = page.get_by_role("list", name="Saved for later").get_by_role("listitem")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("survey report is final")
    item.get_by_role("button", name="Remove from Later").click()
    expect(item).to_have_count(0)
    with live_slot.store() as st:
        assert not S.get_message(st, "alex.chen", mid)["saved"]


def test_toolbar_does_not_linger_after_the_pointer_leaves(desk, room):
    """A click leaves focus on the toolbar's button: the toolbar still goes when the pointer does."""
    page = desk
    cid, mid = room
    msg = hover_message(page, cid, mid)
    actions = page.locator(f"#list-msg-{mid} .msg-actions")
    more = msg.get_by_role("button", name="More actions")
    more.click()
    expect(msg.get_by_role("menuitem", name="Mark unread")).to_be_visible()
    more.click()                                          # closes the menu; the button keeps focus
    expect(msg.get_by_role("menuitem", name="Mark unread")).to_be_hidden()
    expect(more).to_be_focused()
    page.mouse.move(5, 790)
    expect(actions).to_be_hidden()
    msg.hover()
    msg.get_by_role("button", name="Save for later").click()
    expect(page.locator(f"#list-msg-{mid} .saved-flag")).to_be_visible()   # the swap has settled
    page.mouse.move(5, 790)
    expect(actions).to_be_hidden()


def test_rename_and_archive_a_channel(desk, live_slot, room):
    page = desk
    cid, _ = room
    page.goto(f"/chat/c/{cid}")
    page.get_by_role("button", name="Channel details: qa-room").click()
    dlg = page.get_by_role("dialog")
    dlg.get_by_role("tab", name="Settings").click()
    name = dlg.get_by_role("textbox", name="Channel name")
    name.fill("QA Room")
    dlg.get_by_role("button", name="Save").click()
    expect(dlg.get_by_role("alert")).to_contain_text("can't contain spaces")
    dlg.get_by_role("textbox", name="Channel name").fill("qa-room-renamed")
    dlg.get_by_role("button", name="Save").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="qa-room-renamed")).to_be_visible()
    with live_slot.store() as st:
        assert st.get("chat_conversations", cid)["name"] == "qa-room-renamed"
    page.get_by_role("dialog").get_by_role("button", name="Archive channel for everyone").click()
    page.get_by_role("alertdialog", name="Archive #qa-room-renamed?").get_by_role("button", name="Archive channel").click()
    expect(page.get_by_role("status").filter(has_text="an archived channel")).to_be_visible()
    expect(page.get_by_role("navigation").get_by_role("link", name="qa-room-renamed")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Message #qa-room-renamed")).to_have_count(0)
    with live_slot.store() as st:
        assert st.get("chat_conversations", cid)["archived"]


def test_add_channels_menu_closes_under_the_dialog(desk, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    page.get_by_role("button", name="Add channels").click()
    page.get_by_role("button", name="Create a new channel").click()
    expect(page.get_by_role("dialog", name="Create a channel")).to_be_visible()
    expect(page.locator(".add-menu")).not_to_have_attribute("open", "")


def test_threads_and_activity_views(desk, live_slot, room):
    page = desk
    cid, mid = room
    with live_slot.store() as st:
        mine = S.post_message(st, ALEX, cid, "Draft is in the folder.")
        S.post_message(st, PRIYA, cid, "Thanks — reviewing.", thread=mine)
        S.react(st, PRIYA, mine, "🙏")
        S.post_message(st, PRIYA, cid, "@alex.chen can you call the clerk?")
    page.goto(f"/chat/c/{cid}")
    page.get_by_role("link", name="Threads").click()
    card = page.get_by_role("region", name="Thread in qa-room")
    expect(card).to_contain_text("Draft is in the folder.")
    expect(card).to_contain_text("Thanks — reviewing.")
    page.get_by_role("link", name="Activity").click()
    acts = page.get_by_role("list", name="Activity")
    expect(acts.get_by_role("link").filter(has_text="can you call the clerk")).to_be_visible()
    expect(acts.get_by_role("link").filter(has_text="🙏 Priya Raman reacted")).to_be_visible()


def test_mark_unread_from_the_menu(desk, live_slot, room):
    page = desk
    cid, mid = room
    with live_slot.store() as st:
        second = S.post_message(st, PRIYA, cid, "Second point: the index.")
    msg = hover_message(page, cid, mid)
    msg.get_by_role("button", name="More actions").click()
    msg.get_by_role("menuitem", name="Mark unread").click()
    expect(page.get_by_text("Marked as unread.")).to_be_visible()
    expect(page.get_by_role("separator", name="New messages")).to_be_visible()
    other = page.locator(f"#list-msg-{second}")              # another action while it is open keeps it unread
    other.hover()
    other.get_by_role("button", name="Save for later").click()
    expect(page.locator(f"#list-msg-{second} .saved-flag")).to_be_visible()
    with live_slot.store() as st:
        assert S.last_read(st, "alex.chen", cid) < mid
        assert {c["id"]: c["unread"] for c in S.list_conversations(st, "alex.chen")["channels"]}[cid] == 2
    page.get_by_role("link", name="Later").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="qa-room")).to_have_class("chat-item unread")


def test_older_messages_load_at_the_top(desk, live_slot, room):
    page = desk
    cid, mid = room
    with live_slot.store() as st:
        for i in range(60):
            S.post_message(st, PRIYA, cid, f"Line {i:02d}")
    page.goto(f"/chat/c/{cid}")
    expect(page.locator("#messages .msg", has_text="Line 59")).to_be_visible()
    expect(page.locator(f"#list-msg-{mid}")).to_have_count(0)
    page.get_by_role("button", name="Load earlier messages").click()
    expect(page.locator(f"#list-msg-{mid}")).to_be_attached()
    expect(page.locator("#messages .msg")).to_have_count(61)
    expect(page.locator("#messages .chan-intro")).to_contain_text("This is the very beginning of the #qa-room channel")
    expect(page.locator("#messages .day-divider")).to_have_count(1)     # one day: one divider, not one a page


def test_formatting_bar_writes_slack_markup(desk, live_slot, room):
    page = desk
    page.goto(f"/chat/c/{room[0]}")
    box = composer(page)
    bar = page.locator("#main-composer").get_by_role("toolbar", name="Formatting")
    bar.get_by_role("button", name="Bold").click()
    box.type("urgent")
    page.keyboard.press("End")
    box.type(" and ")
    bar.get_by_role("button", name="Strikethrough").click()
    box.type("old")
    page.keyboard.press("End")
    box.type(" ")
    bar.get_by_role("button", name="Code").click()
    box.type("v2")
    page.keyboard.press("Enter")
    m = page.locator("#messages .msg", has_text="urgent")
    expect(m.locator("strong")).to_have_text("urgent")
    expect(m.locator("s")).to_have_text("old")
    expect(m.locator("code")).to_have_text("v2")
    assert latest(live_slot)["text"] == "*urgent* and ~old~ `v2`"


def test_search_tabs(desk, live_slot, room):
    page = desk
    page.goto("/chat/search?q=survey")
    expect(page.get_by_role("tab", name="Messages")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("list", name="Messages", exact=True)).to_contain_text("survey report is final")
    page.get_by_role("tab", name="People").click()
    expect(page.get_by_role("tab", name="People")).to_have_attribute("aria-selected", "true")
    page.goto("/chat/search?q=priya&tab=people")
    page.get_by_role("button", name="Message Priya Raman").click()
    expect(page.get_by_role("heading", name="Priya Raman", level=1)).to_be_visible()
