"""Insert → Image from Drive in a real browser: the picker lists the Drive images the user can open, a
click puts the image in the page, and the store holds an image block naming the Drive file."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import blank_doc
from tests.apps.docs.test_browser_suggest import wait_store
from tests.apps.docs.test_images import PNG, image_id

pytestmark = pytest.mark.browser


def test_insert_an_image_from_drive(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    with live_slot.store() as st:
        iid = image_id(st)
    page.keyboard.type("Grounding position")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Insert", exact=True).click()
    page.get_by_role("menuitem", name="Image from Drive").click()
    dialog = page.get_by_role("dialog", name="Insert image from Drive")
    dialog.get_by_role("listitem", name=PNG).click()
    expect(dialog).to_have_count(0)
    img = body.locator(f'img[data-drive="{iid}"]')
    expect(img).to_have_count(1)
    page.wait_for_function("document.querySelector('#doc-content img[data-drive]').naturalWidth > 0")   # the bytes load
    page.keyboard.type("Below the image")

    def ok(st):
        got = [(b["type"], b["text"], b["marks"]) for b in service.read_blocks(st, did) if b["text"] or b["type"] == "image"]
        return got == [("paragraph", "Grounding position", []), ("image", "", [[0, 0, "image", iid]]),
                       ("paragraph", "Below the image", [])]
    wait_store(page, live_slot, did, ok, "image inserted")
    page.reload()
    expect(page.get_by_role("textbox", name="Document content").locator(f'img[data-drive="{iid}"]')).to_have_count(1)
