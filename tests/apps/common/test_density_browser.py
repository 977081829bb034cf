"""The compact density in a browser: each app's main page, opened comfortable then compact, is measurably
denser (a list row, toolbar or message is shorter), and its main controls are still shown and clickable.
CRM and the Service Desk are opened on ``lumen`` (meridian's CRM is empty), the rest on meridian."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.core.store.compile import template_for
from apps.web.density import COOKIE
from tests.conftest import USER, live_server_on, signed_in

pytestmark = pytest.mark.browser

# (app, world it runs on, url, what gets shorter, a main control: (role, name))
APPS = [
    ("mail", "meridian", "/mail/inbox", ".mrow", ("button", "Compose")),
    ("chat", "meridian", "/chat/c/1", ".msg:not(.compact)", ("link", "Browse channels")),
    ("calendar", "meridian", "/calendar/week/2026-04-06", ".cal-toolbar", ("link", "Create")),
    ("drive", "meridian", "/drive/my-drive", ".frow", ("button", "New")),
    ("docs", "meridian", "/docs/d/1", ".doc-toolbar", ("button", "Share")),
    ("sheets", "meridian", "/sheets/s/1", ".doc-toolbar", ("button", "Share")),
    ("slides", "meridian", "/slides/p/1", ".doc-toolbar", ("button", "Share")),
    ("crm", "lumen", "/crm/o/opportunities", ".dt tbody tr", ("button", "New")),
    ("tickets", "lumen", "/tickets/incident?quick=open", ".tk-table tbody tr", ("link", "New")),
]
LUMEN_USER = "jordan.blake"


@pytest.fixture(scope="module")
def lumen_server():
    with live_server_on(template_for("lumen")) as server:
        yield server


def compact_cookie(server) -> dict:
    return {"name": COOKIE, "value": "compact", "domain": server.host, "path": "/"}


def height(page, selector: str) -> float:
    box = page.locator(selector).first
    expect(box).to_be_visible()
    return box.bounding_box()["height"]


@pytest.mark.parametrize("app,on,url,shorter,control", APPS, ids=[a[0] for a in APPS])
def test_compact_is_denser_and_every_main_control_still_works(page, live_server, lumen_server,
                                                               app, on, url, shorter, control):
    server, user = (lumen_server, LUMEN_USER) if on == "lumen" else (live_server, USER)
    server.app.config["SLOT"].restore()
    errors = signed_in(page, server, user)
    page.goto(server.url + url)
    expect(page.locator("html")).not_to_have_attribute("data-density", "compact")
    comfortable = height(page, shorter)

    page.context.add_cookies([compact_cookie(server)])
    page.goto(server.url + url)
    expect(page.locator("html")).to_have_attribute("data-density", "compact")
    compact = height(page, shorter)
    assert compact < comfortable, f"{app}: {shorter} is {compact}px compact vs {comfortable}px comfortable"

    role, name = control
    button = page.get_by_role(role, name=name, exact=True).first
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    button.click(trial=True)          # actionable: visible, stable, not covered — without changing anything
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_gmail_compact_drops_the_attachment_chips(desk, live_server):
    page = desk
    page.goto("/mail/inbox")
    chip = page.locator(".mrow .att-chip").first
    expect(chip).to_be_visible()
    page.context.add_cookies([compact_cookie(live_server)])
    page.goto("/mail/inbox")
    expect(page.locator("html")).to_have_attribute("data-density", "compact")
    expect(chip).to_be_hidden()
    # the conversation, where the attachment lives, still opens from the row
    page.locator(".mrow.has-files a.row-link").first.click()
    expect(page.get_by_role("toolbar", name="Conversation actions")).to_be_visible()


def test_calendar_compact_hours_are_shorter_and_events_sit_on_their_times(desk, live_server):
    """Google Calendar's Compact shortens the hours: the grid's hour rows and the events placed on them
    move together (an event still starts on its hour line)."""
    page = desk

    def measure():
        page.goto("/calendar/week/2026-04-06")
        hour = page.locator(".cal-hour").nth(9).bounding_box()["height"]
        grid = page.locator(".cal-grid").first.bounding_box()
        ev = page.locator(".cal-col .cal-ev").first
        expect(ev).to_be_visible()
        top = ev.bounding_box()["y"] - grid["y"]
        return hour, top / hour                       # where it starts, in hours from midnight
    hour, start = measure()
    page.context.add_cookies([compact_cookie(live_server)])
    c_hour, c_start = measure()
    assert (hour, c_hour) == (48, 40)
    assert abs(start - c_start) < 0.05, (start, c_start)
