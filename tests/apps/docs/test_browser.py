"""Docs in a real browser: type, format, autosave, comment, resolve; state checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

OBJECTION = "Objection to Amount of Limitation Fund – DRAFT"


def doc(slot, title):
    with slot.store() as st:
        item = st.one("SELECT * FROM drive_items WHERE name=? AND kind='doc'", (title,))
        return item["ref"], [dict(b) for b in st.select("docs_blocks", "doc=?", (item["ref"],), order="seq")]


def blocks(slot, did):
    with slot.store() as st:
        return st.select("docs_blocks", "doc=?", (did,), order="seq")


def blank_doc(page):
    """A new blank document from the list, its page clicked into: (its id, the page's textbox)."""
    page.goto("/docs/")
    page.get_by_role("button", name="Blank document").click()
    expect(page).to_have_url(re.compile(r"/docs/d/\d+$"))
    body = page.get_by_role("textbox", name="Document content")
    body.click()
    return int(page.url.rsplit("/", 1)[1]), body


def saved(page):
    expect(page.locator("#save-status")).to_have_text(re.compile("Saved|All changes saved"))


def test_open_from_drive_and_write_a_section(desk, live_slot):
    page = desk
    did, before = doc(live_slot, OBJECTION)
    placeholder = next(b for b in before if b["text"].startswith("[Alex to draft"))
    page.goto("/drive/search?q=objection")
    page.get_by_role("link", name=OBJECTION, exact=True).dblclick()
    expect(page).to_have_url(re.compile(rf"/docs/d/{did}$"))
    body = page.get_by_role("textbox", name="Document content")
    para = body.locator("p", has_text=placeholder["text"][:30])
    para.click()
    page.keyboard.press("End")
    page.keyboard.press("Shift+Home")
    page.keyboard.type("Halcyon's limit is $160,600,000; the fund is $151,840,000.")
    page.keyboard.press("Enter")
    page.keyboard.type("The shortfall is ")
    page.keyboard.press("Control+b")
    page.keyboard.type("$8,760,000")
    page.keyboard.press("Control+b")
    page.keyboard.type(".")
    saved(page)
    after = blocks(live_slot, did)
    texts = [b["text"] for b in after]
    i = texts.index("Halcyon's limit is $160,600,000; the fund is $151,840,000.")
    assert texts[i + 1] == "The shortfall is $8,760,000."
    assert [17, 27, "bold", True] in after[i + 1]["marks"]
    assert placeholder["text"] not in texts
    assert len(after) == len(before) + 1
    # reload: what was saved is what is shown
    page.reload()
    expect(page.get_by_role("textbox", name="Document content").locator("strong")).to_contain_text(["$8,760,000"])


def test_heading_and_list_from_the_toolbar(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("Hearing checklist")
    page.get_by_role("button", name=re.compile("^Styles")).click()
    page.get_by_role("option", name="Heading 1").click()
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Bulleted list").click()
    page.keyboard.type("Exhibit list")
    page.keyboard.press("Enter")
    page.keyboard.type("Tonnage certificate")
    saved(page)
    got = [(b["type"], b["level"], b["text"]) for b in blocks(live_slot, did)]
    assert got == [("heading", 1, "Hearing checklist"), ("bullet", 1, "Exhibit list"),
                   ("bullet", 1, "Tonnage certificate")]
    # rename from the title box
    title = page.get_by_role("textbox", name="Rename")
    title.fill("Hearing checklist – April 22")
    title.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Renamed")).to_be_visible()
    with live_slot.store() as st:
        assert st.scalar("SELECT name FROM drive_items WHERE kind='doc' AND ref=?", (did,)) == "Hearing checklist – April 22"


def test_comment_on_a_selection_then_resolve_the_partners_comment(desk, live_slot):
    page = desk
    did, _ = doc(live_slot, OBJECTION)
    page.goto(f"/docs/d/{did}")
    body = page.get_by_role("textbox", name="Document content")
    target = body.locator("h2, h1, h3", has_text="The Shortfall").first
    target.click(position={"x": 4, "y": 8})
    page.keyboard.press("Home")
    page.keyboard.press("Shift+End")
    page.get_by_role("button", name="Add comment").click()
    page.get_by_role("textbox", name="New comment").fill("Numbers from the FINAL memo and the complaint.")
    page.get_by_role("button", name="Comment", exact=True).click()
    expect(page.get_by_role("article", name="Comment by Alex Chen")).to_contain_text("Numbers from the FINAL memo")
    with live_slot.store() as st:
        c = st.one("SELECT * FROM docs_comments WHERE doc=? AND author='alex.chen'", (did,))
        texts = [b["text"] for b in st.select("docs_blocks", "doc=?", (did,))]
    assert c["quote"] == "The Shortfall"
    assert "The Shortfall" in " ".join(texts)                 # commenting did not change the text
    eleanor = page.get_by_role("article", name="Comment by Eleanor Vance").first
    eleanor.get_by_role("textbox", name=re.compile("Reply to")).fill("Drafted — please review.")
    eleanor.get_by_role("textbox", name=re.compile("Reply to")).press("Enter")
    expect(page.get_by_role("article", name="Comment by Eleanor Vance").first).to_contain_text("Drafted — please review.")
    page.get_by_role("article", name="Comment by Eleanor Vance").first.get_by_role("button", name="Resolve comment").click()
    expect(page.get_by_role("status").filter(has_text="Comment resolved")).to_be_visible()
    with live_slot.store() as st:
        ec = st.select("docs_comments", "doc=? AND author='eleanor.vance'", (did,))
        replies = st.select("docs_replies", "comment=?", (ec[0]["id"],))
    assert all(c["resolved"] for c in ec) and replies[-1]["text"] == "Drafted — please review."


def test_ctrl_f_finds_highlights_and_steps_through_matches_without_touching_the_document(desk, live_slot):
    """Ctrl+F opens the find bar; the count is the document's own ("1 of N", N counted in the store's
    text); Enter steps on; Escape returns to the page with the match selected; nothing is saved."""
    page = desk
    did, before = doc(live_slot, OBJECTION)
    word = "fund"
    n = sum(b["text"].lower().count(word) for b in before)
    assert n >= 2
    page.goto(f"/docs/d/{did}")
    page.get_by_role("textbox", name="Document content").click()
    page.keyboard.press("Control+f")
    box = page.get_by_role("textbox", name="Find in document")
    expect(box).to_be_focused()
    box.type(word)
    count = page.get_by_role("search", name="Find in document").get_by_role("status")
    expect(count).to_have_text(f"1 of {n}")
    box.press("Enter")
    expect(count).to_have_text(f"2 of {n}")
    box.press("Shift+Enter")
    box.press("Shift+Enter")
    expect(count).to_have_text(f"{n} of {n}")
    assert page.evaluate("CSS.highlights.get('doc-find').size") == n
    box.press("Escape")
    expect(box).to_have_count(0)
    assert page.evaluate("getSelection().toString().toLowerCase()") == word
    assert page.evaluate("CSS.highlights.has('doc-find')") is False
    assert [(b["text"], b["marks"]) for b in blocks(live_slot, did)] == [(b["text"], b["marks"]) for b in before]
    # a word that isn't there
    page.keyboard.press("Control+f")
    page.get_by_role("textbox", name="Find in document").type("zzqx")
    expect(page.get_by_role("search", name="Find in document").get_by_role("status")).to_have_text("No results")


def test_list_autoformat_a_horizontal_line_and_a_page_break(desk, live_slot):
    """"* " and "1. " start lists as they do in Docs; Insert → Horizontal line and Ctrl+Enter (a page break)
    become blocks of their own in the store."""
    import time
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("* Exhibit list")
    expect(body.locator("ul > li")).to_have_text("Exhibit list")
    page.keyboard.press("Enter")
    page.keyboard.type("Tonnage certificate")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")                      # an empty item ends the list, as in Docs
    page.keyboard.type("1. Call the registry")
    expect(body.locator("ol > li")).to_have_text("Call the registry")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Insert", exact=True).click()
    page.get_by_role("menuitem", name="Horizontal line").click()
    expect(body.locator("hr")).to_have_count(1)
    page.keyboard.type("Below the line")
    page.keyboard.press("Control+Enter")
    expect(body.locator('hr[data-break="page"]')).to_have_count(1)
    page.keyboard.type("Next page")
    want = [("bullet", "Exhibit list"), ("bullet", "Tonnage certificate"), ("numbered", "Call the registry"),
            ("rule", ""), ("paragraph", "Below the line"), ("page_break", ""), ("paragraph", "Next page")]
    end = time.monotonic() + 20                       # autosave after a pause: poll the store, not the clock
    got = None
    while time.monotonic() < end:
        got = [(b["type"], b["text"]) for b in blocks(live_slot, did) if b["text"] or b["type"] in ("rule", "page_break")]
        if got == want:
            break
        time.sleep(0.1)
    assert got == want, (got, body.inner_html())


def test_word_count_counts_the_document_and_the_selection(desk, live_slot):
    page = desk
    blank_doc(page)
    page.keyboard.type("The fund is $151,840,000.")
    page.keyboard.press("Enter")
    page.keyboard.type("Short by $8,760,000")
    page.keyboard.press("Shift+Home")                              # the second line selected
    page.keyboard.press("Control+Shift+c")
    dialog = page.get_by_role("dialog", name="Word count")
    expect(dialog.get_by_role("row", name="Words")).to_contain_text("3 of 7")
    expect(dialog.get_by_role("row", name="Characters excluding spaces")).to_contain_text("17 of 39")
    dialog.get_by_role("button", name="OK").click()
    expect(dialog).to_have_count(0)
    page.get_by_role("button", name="Tools", exact=True).click()
    page.get_by_role("menuitem", name="Word count").click()
    expect(page.get_by_role("dialog", name="Word count").get_by_role("row", name="Words")).to_contain_text("7")
