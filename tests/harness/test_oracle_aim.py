"""Where the oracle clicks: a point of the element that a click reaches, not a toast over it."""
from __future__ import annotations

import re

import pytest

from harness.agents.oracle import _where
from harness.tasks.schema import Locator

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><body style="margin:0">
<a href="#" id="row" style="position:absolute; left:274px; top:740px; width:74px; height:18px">INC0010445</a>
<div id="toast" style="position:fixed; left:24px; top:728px; width:288px; height:46px; background:#333">
  INC0010444 updated</div>
<a href="#" id="free" style="position:absolute; left:500px; top:300px; width:80px; height:20px">INC0010421</a>
</body>"""


def _hit(page, point):
    return page.evaluate("([x, y]) => document.elementFromPoint(x, y).id", point)


def test_a_covered_centre_is_not_where_the_oracle_clicks(page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.set_content(PAGE)
    covered = _where(page, Locator(role="link", name="INC0010445"))
    box = covered["box"]
    assert _hit(page, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]) == "toast"   # the centre is covered
    assert _hit(page, covered["point"]) == "row"                                               # the point isn't
    free = _where(page, Locator(role="link", name="INC0010421"))
    fb = free["box"]
    assert free["point"] == [fb["x"] + fb["width"] / 2, fb["y"] + fb["height"] / 2]          # uncovered: its centre
    page.evaluate("document.getElementById('toast').style.width = '1280px'")
    assert _where(page, Locator(role="link", name="INC0010445"))["point"] is None             # covered everywhere


BOARD = """<!doctype html><body style="margin:0">
<div id="board" style="width:400px; height:300px; overflow-x:auto; display:flex">
  <section style="flex:0 0 250px">Prospecting</section><section style="flex:0 0 250px">Proposal</section>
  <section style="flex:0 0 250px"><a href="#" id="won">Closed Won</a></section>
</div>
<div style="height:2000px"></div><a href="#" id="below">Below the fold</a>
</body>"""


def test_a_target_off_to_the_side_of_a_board_is_found_through_its_sideways_scroller(page):
    """A pipeline board that scrolls sideways: the oracle scrolls it left-right (not the page up-down)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.set_content(BOARD)
    side = _where(page, Locator(role="link", name="Closed Won"))
    left, top, width, height, out_x, out_y = side["scroller"][:6]
    assert (left, top, width, height, out_x, out_y) == (0, 0, 400, 300, True, False)
    below = _where(page, Locator(role="link", name="Below the fold"))
    assert below["scroller"][4:6] == [False, True]                 # the window, up-down
    page.evaluate("document.getElementById('board').scrollLeft = 400")
    assert "scroller" not in _where(page, Locator(role="link", name="Closed Won"))   # on screen now


DIALOG = """<!doctype html><body style="margin:0">
<div id="dialog" style="position:absolute; left:200px; top:48px; width:600px; height:544px; overflow:auto">
  <div style="height:150px">Share</div>
  <div id="people" style="height:220px; overflow-y:auto"><div style="height:400px">People with access</div></div>
  <div style="height:250px"></div>
  <button id="general">General access</button>
</div></body>"""


def test_the_wheel_turns_over_the_container_not_a_list_nested_in_it(page):
    """A short window's share dialog scrolls, and a list in its middle scrolls too: the oracle turns the
    wheel over the dialog itself (over the list, the list takes the wheel and keeps it, and the button
    below never comes on: lumen/pricing-proposal-link at zoom 1.25)."""
    page.set_viewport_size({"width": 1024, "height": 640})
    page.set_content(DIALOG)
    got = _where(page, Locator(role="button", name="General access"))
    *_, out_x, out_y, x, y = got["scroller"]
    assert (out_x, out_y) == (False, True)
    inside = page.evaluate("([x, y]) => { const h = document.elementFromPoint(x, y); "
                           "return [!!h.closest('#dialog'), !!h.closest('#people')]; }", [x, y])
    assert inside == [True, False]                                 # the dialog's, not the list's in its middle
    box = page.locator("#people").bounding_box()
    assert box["y"] <= 48 + 544 / 2 <= box["y"] + box["height"]     # (which is where the middle is)
    page.mouse.move(x, y)
    page.mouse.wheel(0, 400)
    page.wait_for_function("document.getElementById('dialog').scrollTop > 0")
    assert page.evaluate("document.getElementById('people').scrollTop") == 0


CANVAS = """<!doctype html><body style="margin:0">
<div id="canvas" style="position:absolute; left:0; top:141px; width:704px; height:499px; overflow:auto">
  <div id="page" contenteditable="true" aria-label="Document content" role="textbox"
       style="margin:88px 96px 0; width:624px; height:800px; background:#fff"></div>
</div></body>"""


def test_a_point_on_a_scroll_containers_scrollbar_is_not_on_the_element(page):
    """A document page wider than its canvas (a narrow window): the canvas has a sideways scrollbar
    along its bottom edge. The page's centre falls on that bar — elementFromPoint answers the canvas,
    an ancestor — and a click there moves the bar, not the caret: the oracle takes a point inside."""
    page.set_viewport_size({"width": 1024, "height": 640})
    page.set_content(CANVAS)
    bar_top = page.evaluate("() => { const c = document.getElementById('canvas'); "
                            "return c.getBoundingClientRect().top + c.clientTop + c.clientHeight; }")
    assert bar_top < 640 - 4                                        # a real scrollbar along the bottom
    box = page.locator("#page").bounding_box()
    assert bar_top <= box["y"] + box["height"] / 2 < 640             # its centre is on the bar
    got = _where(page, Locator(role="textbox", name="Document content"))
    x, y = got["point"]
    assert y < bar_top and _hit(page, [x, y]) == "page"


def test_the_oracle_names_times_and_dates_as_the_episodes_locale_writes_them():
    """A script names the page in en-US ("1:00pm", "Tuesday, December 8, 2026"); in another locale the
    oracle looks for the locale's words, and types a bare date or time the locale's way — a message
    that mentions one is typed as written."""
    from harness.agents.oracle import localized, typed
    loc = Locator.model_validate({"role": "option", "name": "1:00pm",
                                  "within": {"role": "dialog", "name": "Tuesday, December 8, 2026"}})
    gb = localized(loc, "en-GB")
    assert (gb.name, gb.within.name) == ("13:00", "Tuesday 8 December 2026")
    assert localized(loc, "en-US") is loc
    # a regular expression stays one: an escaped amount becomes the locale's, escaped
    money = localized(Locator.model_validate({"role": "gridcell", "name": "re:^\\$16,200"}), "de-DE")
    assert money.name == "re:^16\\.200\\ \\$" and re.compile(money.name[3:]).match("16.200 $")
    assert typed("7/1/2026", "de-DE") == "01.07.2026" and typed("2:30pm", "en-GB") == "14:30"
    assert typed("could we do 3pm on 7/1/2026?", "de-DE") == "could we do 3pm on 7/1/2026?"
