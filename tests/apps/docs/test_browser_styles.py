"""Styles in a real browser: Title, Subtitle and Heading 4 from the style menu, then font, size, text colour,
highlight and alignment from the toolbar on selected text; the store holds them as block types and marks."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.docs import service
from tests.apps.docs.test_browser import blank_doc
from tests.apps.docs.test_browser_suggest import wait_store

pytestmark = pytest.mark.browser


def style(page, name):
    page.get_by_role("button", name=re.compile("^Styles")).click()
    page.get_by_role("option", name=name, exact=True).click()
    expect(page.get_by_role("button", name=f"Styles: {name}")).to_be_visible()


def test_paragraph_styles_font_size_colours_and_alignment(desk, live_slot):
    page = desk
    did, body = blank_doc(page)
    page.keyboard.type("Hearing memo")
    style(page, "Title")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Styles: Normal text")).to_be_visible()      # Enter leaves the Title
    page.keyboard.type("Fund adequacy")
    style(page, "Subtitle")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type("Figures")
    style(page, "Heading 4")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.type("Pay the fund now")
    for _ in range(3):
        page.keyboard.press("Shift+ArrowLeft")                                         # "now" selected
    page.get_by_role("button", name="Text color").click()
    page.get_by_role("group", name="Text color").get_by_role("button", name="red", exact=True).click()
    page.get_by_role("button", name="Highlight color").click()
    page.get_by_role("group", name="Highlight color").get_by_role("button", name="yellow", exact=True).click()
    page.get_by_role("button", name=re.compile("^Font: ")).click()
    page.get_by_role("option", name="Georgia").click()
    size = page.get_by_role("textbox", name="Font size")
    size.click()
    size.fill("18")
    size.press("Enter")
    page.get_by_role("button", name="Increase font size").click()
    page.get_by_role("button", name="Center align").click()
    expect(page.get_by_role("button", name="Center align")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Font: Georgia")).to_be_visible()
    expect(size).to_have_value("19")

    def ok(st):
        bs = service.read_blocks(st, did)
        if [(b["type"], b["level"], b["text"]) for b in bs] != [
                ("title", 0, "Hearing memo"), ("subtitle", 0, "Fund adequacy"), ("heading", 4, "Figures"),
                ("paragraph", 0, "Pay the fund now")]:
            return False
        marks = sorted(bs[3]["marks"])
        return marks == sorted([[0, 16, "align", "center"], [13, 16, "color", "#ff0000"],
                                [13, 16, "highlight", "#ffff00"], [13, 16, "font", "Georgia"], [13, 16, "size", 19]])
    wait_store(page, live_slot, did, ok, "styled")
    page.reload()
    body = page.get_by_role("textbox", name="Document content")
    expect(body.locator('p[data-style="title"]')).to_have_text("Hearing memo")
    expect(body.locator("h4")).to_have_text("Figures")
    expect(body.locator('p[style="text-align:center"]')).to_have_text("Pay the fund now")
