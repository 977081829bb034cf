"""The web floor as every app uses it: package assets (each app's own, served by its blueprint),
the one ServiceError handler with each app's wording, and the co-workers' request tick."""
from __future__ import annotations

import re

import pytest

from apps import create_app
from apps.core.registry import APP_NAMES

ASSET = re.compile(r"""<(?:script|link)\b[^>]*?(?:src|href)="(/[^"]*\.(?:js|css))\"""")
HOME = {"mail": "/mail/inbox", "chat": "/chat/", "calendar": "/calendar/", "drive": "/drive/my-drive",
        "docs": "/docs/", "sheets": "/sheets/", "slides": "/slides/", "crm": "/crm/", "tickets": "/tickets/"}


def test_every_app_has_a_page_to_look_at():
    assert set(HOME) == set(APP_NAMES)


@pytest.mark.parametrize("name", APP_NAMES)
def test_an_apps_pages_load_their_assets_from_the_app_and_anyone_may_fetch_them(app, client, name):
    page = client.get(HOME[name], follow_redirects=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assets = set(ASSET.findall(page.get_data(as_text=True)))
    assert {"/static/deskworld.css", "/static/deskworld.js"} <= assets
    anonymous = app.test_client()                        # no session cookie: assets need none
    for url in assets:
        r = anonymous.get(url)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=3600", url
        assert url.startswith(("/static/", "/_vendor/", f"/{name}/static/")), url


@pytest.mark.parametrize("name, asset", [("mail", "mail.js"), ("drive", "drive.js"), ("calendar", "calendar.css"),
                                         ("chat", "chat.js"), ("crm", "crm.css"), ("tickets", "tickets.js")])
def test_an_apps_own_script_or_style_is_on_its_pages(client, name, asset):
    page = client.get(HOME[name], follow_redirects=True).get_data(as_text=True)
    assert f"/{name}/static/{asset}" in ASSET.findall(page)


def test_vendored_files_need_no_session_and_are_cached(app):
    anonymous = app.test_client()
    for url in ("/_vendor/htmx.min.js", "/_fonts/Roboto-Regular.ttf", "/favicon.ico"):
        r = anonymous.get(url)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=3600", url
    assert anonymous.get("/_fonts/Comic-Sans.ttf").status_code == 404
    assert anonymous.get("/mail/static/nothing-here.js").headers["Cache-Control"] == "no-store"
    assert anonymous.get("/mail/inbox").status_code == 401                  # pages do need one


@pytest.mark.parametrize("url, status, title", [
    ("/calendar/event/1/edit", 403, "You can&#39;t do that"),          # eleanor.vance organizes it
    ("/crm/o/accounts/99999", 404, "Not found"),
    ("/tickets/incident/INC9999999", 404, "Record not found"),
    ("/chat/c/99999", 404, "Not found"),
    ("/mail/thread/99999", 404, "Not found"),
])
def test_a_service_error_is_a_page_titled_in_the_apps_words(client, url, status, title):
    r = client.get(url)
    assert r.status_code == status and f"<h1>{title}</h1>" in r.get_data(as_text=True)


def test_a_service_error_is_a_toast_for_htmx(hx):
    r = hx.get("/calendar/event/1/edit")
    assert r.status_code == 403 and r.headers["HX-Reswap"] == "none" and "Only the organizer" in r.get_data(as_text=True)


def test_drive_and_the_editors_say_you_need_access(client):
    r = client.post("/drive/items/10/rename", data={"name": "x"})      # a folder shared with Alex as viewer
    assert r.status_code == 403 and "<h1>You need access</h1>" in r.get_data(as_text=True)


def test_a_json_request_to_sheets_gets_its_error_in_json(client):
    r = client.post("/sheets/s/99999/cells", json={"edits": []})
    assert r.status_code >= 400 and r.is_json and set(r.get_json()) == {"error", "field"}
    r = client.get("/mail/thread/99999", headers={"Accept": "application/json"})
    assert r.status_code == 404 and not r.is_json                        # other apps answer with the page


def test_the_co_workers_tick_after_a_write_only_with_tick_on_request(slot):
    """``apps.coworkers.hooks`` (installed by create_app): a write that a co-worker answers sends
    ``HX-Trigger: deskworld:refresh`` in serve mode, and nothing in agent mode (the harness ticks)."""
    with slot.store() as st:
        conv = st.one("SELECT c.id FROM chat_conversations c JOIN chat_members m ON m.conversation=c.id "
                      "WHERE c.kind='dm' AND m.person='priya.raman'")["id"]
    message = {"text": "Which case do we cite for gross negligence?"}
    hx = {"HX-Request": "true", "X-Requested-By": "deskworld"}
    agent_mode = create_app({"SLOT": slot, "AUTO_LOGIN": True}).test_client()
    r = agent_mode.post(f"/chat/c/{conv}/messages", data=message, headers=hx)
    assert r.status_code == 200 and r.headers["HX-Trigger"] == "chat-nav"
    serve = create_app({"SLOT": slot, "AUTO_LOGIN": True, "TICK_ON_REQUEST": True}).test_client()
    r = serve.post(f"/chat/c/{conv}/messages", data=message, headers=hx)
    assert r.status_code == 200 and r.headers["HX-Trigger"] == "deskworld:refresh"
    assert r.headers["Cache-Control"] == "no-store"
