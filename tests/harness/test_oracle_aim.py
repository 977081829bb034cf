"""Where the oracle clicks: a point of the element that a click reaches, not a toast over it."""
from __future__ import annotations

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
    left, top, width, height, out_x, out_y = side["scroller"]
    assert (left, top, width, height, out_x, out_y) == (0, 0, 400, 300, True, False)
    below = _where(page, Locator(role="link", name="Below the fold"))
    assert below["scroller"][4:] == [False, True]                  # the window, up-down
    page.evaluate("document.getElementById('board').scrollLeft = 400")
    assert "scroller" not in _where(page, Locator(role="link", name="Closed Won"))   # on screen now


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
    assert typed("7/1/2026", "de-DE") == "01.07.2026" and typed("2:30pm", "en-GB") == "14:30"
    assert typed("could we do 3pm on 7/1/2026?", "de-DE") == "could we do 3pm on 7/1/2026?"
