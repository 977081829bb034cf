"""The in-page date and time pickers (date_input, deskworld-pickers.js) and the in-page tooltips: what
the boxes show in each product's format, what the form posts when a day or a time is picked or typed,
and that nothing the browser draws outside the page (native date inputs) is left in any template."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from apps.core import locale
from apps.web.pickers import boxes
from apps.web.regional import COOKIE
from tests.conftest import USER, signed_in

ROOT = Path(__file__).resolve().parents[3]
NATIVE = re.compile(r"""<input\b[^>]*\btype=["']?(date|time|datetime-local|month|week|color)\b|<select\b""", re.I)
COMMENTS = re.compile(r"\{#.*?#\}|/\*.*?\*/|^\s*//.*$", re.S | re.M)


def test_no_template_or_script_draws_a_native_picker():
    """Date, time and colour inputs and <select> open the browser's own pop-up, outside the page."""
    found = []
    for path in [*ROOT.glob("apps/**/templates/**/*.html"), *ROOT.glob("apps/**/static/**/*.js")]:
        text = COMMENTS.sub("", path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}: {m.group(0)[:80]}" for m in NATIVE.finditer(text)]
        if path.suffix == ".js":
            found += [f"{path.relative_to(ROOT)}: .type = {m}" for m in
                      re.findall(r"""\.type\s*=\s*["'](date|time|datetime-local|color)["']|createElement\(["']select""", text)]
    assert not found, "native pickers open outside the page:\n" + "\n".join(found)


@pytest.mark.parametrize("value, kind, skin, want", [
    ("2026-12-08", "date", "google", ("2026-12-08", "Dec 8, 2026", "")),
    ("2026-12-08", "date", "salesforce", ("2026-12-08", "12/8/2026", "")),
    ("2026-12-08", "date", "servicenow", ("2026-12-08", "2026-12-08", "")),
    ("2026-12-08T14:30", "datetime", "google", ("2026-12-08T14:30", "Dec 8, 2026", "2:30pm")),
    ("2026-12-08T09:05:00", "datetime", "salesforce", ("2026-12-08T09:05", "12/8/2026", "9:05 AM")),
    ("2026-12-08 00:00", "datetime", "servicenow", ("2026-12-08T00:00", "2026-12-08 00:00:00", "00:00:00")),
    ("12:00", "time", "google", ("12:00", "", "12:00pm")),
    ("", "datetime", "google", ("", "", "")),
    ("2026-02-30", "date", "google", ("2026-02-30", "2026-02-30", "")),      # no such day: shown as it is
])
def test_the_boxes_show_each_products_format_and_post_the_canonical_value(value, kind, skin, want):
    b = boxes(value, kind, skin)
    assert (b["value"], b["date"], b["time"]) == want


def test_a_wrong_kind_or_skin_is_named():
    with pytest.raises(ValueError, match="kind must be one of date, time, datetime, not 'day'"):
        boxes("2026-12-08", "day")
    with pytest.raises(ValueError, match="skin must be one of google, salesforce, servicenow, not 'gmail'"):
        boxes("2026-12-08", "date", "gmail")


FORM = """{% from "_macros.html" import date_input %}
<form id="t-form">
  <label for="t-due">Due</label>{{ date_input('due', '2026-12-08', 'date', id='t-due', label='Due', skin='salesforce') }}
  {{ date_input('start', '2026-12-08T14:30', 'datetime', id='t-start', label='Start', skin='google') }}
  {{ date_input('planned', '', 'datetime', id='t-planned', label='Planned start', skin='servicenow') }}
  <button type="button" id="t-plain">Plain</button>
  <button type="button" id="t-icon" title="Archive" aria-label="Archive">A</button>
</form>"""


def open_form(page, live_server, code: str | None = None):
    """The test form in a modal on a signed-in page, in the locale ``code`` (None: the default)."""
    signed_in(page, live_server, USER)
    if code:
        page.context.add_cookies([{"name": COOKIE, "value": code, "domain": live_server.host, "path": "/"}])
    page.goto(live_server.url + "/")
    with live_server.app.test_request_context("/"), locale.use(code):
        from flask import g
        g._icons = None
        html = live_server.app.jinja_env.from_string(FORM).render()
    page.evaluate("html => { const d = document.createElement('dialog'); d.id = 't-dialog'; d.innerHTML = html;"
                  " document.body.appendChild(d); d.showModal(); }", html)
    posted = lambda: page.evaluate("() => Object.fromEntries(new FormData(document.getElementById('t-form')))")
    return page, posted


@pytest.fixture
def picker_page(page, live_server, live_slot):
    return open_form(page, live_server)


@pytest.mark.browser
def test_picking_a_day_in_the_month_calendar_posts_it_and_shows_it_in_the_products_format(picker_page):
    page, posted = picker_page
    assert posted()["due"] == "2026-12-08" and posted()["start"] == "2026-12-08T14:30"
    page.get_by_label("Due", exact=True).click()
    cal = page.get_by_role("dialog", name="Choose date")
    expect(cal).to_be_visible()                      # drawn above the modal dialog it was opened from
    expect(cal.get_by_role("button", name="Tuesday, December 8, 2026")).to_have_attribute("aria-pressed", "true")
    cal.get_by_role("button", name="Next month").click()
    expect(cal).to_contain_text("January 2027")
    cal.get_by_role("button", name="Friday, January 15, 2027").click()
    expect(cal).to_have_count(0)
    expect(page.get_by_label("Due", exact=True)).to_have_value("1/15/2027")
    assert posted()["due"] == "2027-01-15"


@pytest.mark.browser
def test_picking_a_time_from_the_list_and_typing_a_date_post_the_canonical_value(picker_page):
    page, posted = picker_page
    page.get_by_label("Start time").click()
    times = page.get_by_role("listbox", name="Choose time")
    times.get_by_role("option", name="4:15pm").click()
    expect(page.get_by_label("Start time")).to_have_value("4:15pm")
    assert posted()["start"] == "2026-12-08T16:15"
    page.evaluate("""() => { window.changes = [];
        document.querySelector('[name=start]').addEventListener('change', (e) => changes.push(e.target.value)); }""")
    page.get_by_label("Start", exact=True).fill("2027-03-01")
    assert posted()["start"] == "2027-03-01T16:15"
    page.get_by_label("Start", exact=True).press("Tab")           # the typing done: shown as the product does
    expect(page.get_by_label("Start", exact=True)).to_have_value("Mar 1, 2027")
    assert page.evaluate("changes") == ["2027-03-01T16:15"]       # and announced once, as a change
    page.get_by_label("Planned start").fill("2026-12-24 17:45:00")
    assert posted()["planned"] == "2026-12-24T17:45"
    page.get_by_label("Due", exact=True).fill("31/12/2026")          # not a day: posted as typed, for the server to refuse
    assert posted()["due"] == "31/12/2026"


@pytest.mark.browser
def test_a_title_is_shown_in_the_page_on_hover_and_hidden_on_a_press(picker_page):
    page, _ = picker_page
    tip = page.locator(".dw-tip")
    page.locator("#t-icon").hover()
    expect(tip).to_be_visible()
    expect(tip).to_have_text("Archive")
    box, under = page.locator("#t-icon").bounding_box(), tip.bounding_box()
    assert under["y"] >= box["y"] + box["height"]                  # below the control
    page.mouse.down()
    expect(tip).to_be_hidden()
    page.mouse.up()
    page.locator("#t-plain").hover()
    expect(tip).to_be_hidden()


@pytest.mark.parametrize("code,due,start,day,typed,read,shown", [
    ("en-GB", "08/12/2026", ("8 Dec 2026", "14:30"), "Friday 15 January 2027", "05/11/2026", "2026-11-05", "05/11/2026"),
    ("de-DE", "08.12.2026", ("8 Dec 2026", "14:30"), "Friday, 15 January 2027", "05.11.2026", "2026-11-05", "05.11.2026"),
])
@pytest.mark.browser
def test_the_pickers_write_and_read_the_locales_formats(page, live_server, live_slot, code, due, start, day, typed,
                                                        read, shown):
    """In en-GB and de-DE the boxes show the locale's dates and 24-hour times (drawn by the server and
    rewritten by the script alike), the calendar names days the locale's way, and a typed numeric
    date is read day first."""
    page, posted = open_form(page, live_server, code)
    expect(page.get_by_label("Due", exact=True)).to_have_value(due)
    expect(page.get_by_label("Start", exact=True)).to_have_value(start[0])
    expect(page.get_by_label("Start time")).to_have_value(start[1])
    page.get_by_label("Due", exact=True).click()
    cal = page.get_by_role("dialog", name="Choose date")
    cal.get_by_role("button", name="Next month").click()
    cal.get_by_role("button", name=day).click()
    expect(page.get_by_label("Due", exact=True)).to_have_value(re.sub(r"\d\d(.)\d\d(.)2026", r"15\g<1>01\g<2>2027", due))
    assert posted()["due"] == "2027-01-15"
    page.get_by_label("Start time").click()
    page.get_by_role("listbox", name="Choose time").get_by_role("option", name="16:15").click()
    assert posted()["start"] == "2026-12-08T16:15"
    page.get_by_label("Due", exact=True).fill(typed)
    assert posted()["due"] == read                       # 5 November, not May 11
    page.get_by_label("Due", exact=True).press("Tab")
    expect(page.get_by_label("Due", exact=True)).to_have_value(shown)
