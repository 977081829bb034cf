"""Shared fixtures.

- ``template``: the meridian world compiled once (cached by content hash);
- ``slot``: a fresh in-memory working copy for each test;
- ``app`` / ``client``: the Flask app on that slot, signed in as the world's user;
- ``store``: the slot's store, for service-layer tests;
- browser tests: pytest-playwright's ``page`` on a live app server, launched
  through ``harness.env.browser`` like everything else.
"""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from apps import create_app
from apps.web.session import session_cookie
from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.slot import Slot
from apps.core.world import load_world

# Browser assertions wait for their condition up to 15 s (Playwright's default is 5 s): on a loaded
# 2-core machine a server round trip (a guest's busy badge, a list swap) can take longer than 5 s,
# and a condition that holds sooner ends the wait sooner.
from playwright.sync_api import expect as _expect  # noqa: E402

_expect.set_options(timeout=15_000)

WORLD = "meridian"
USER = "alex.chen"


@pytest.fixture(scope="session")
def world():
    return load_world(WORLD)


@pytest.fixture(scope="session")
def template(world):
    return template_for(world)


@pytest.fixture
def slot(template):
    s = Slot(template)
    yield s
    s.close()


@pytest.fixture
def store(slot):
    with slot.store() as st:
        yield st


@pytest.fixture
def alex():
    return Caller(user=USER)


def make_client(app, user: str = USER):
    client = app.test_client()
    name, value = session_cookie(app, user, app.config["SLOT"].generation)
    client.set_cookie(name, value, domain="localhost")
    return client


@pytest.fixture
def app(slot):
    return create_app({"SLOT": slot, "TESTING": True, "SECRET_KEY": "test-secret"})


@pytest.fixture
def client(app):
    return make_client(app)


@pytest.fixture
def hx(client):
    """The same client, sending requests the way htmx does."""
    class HX:
        def get(self, url, **kw):
            return client.get(url, headers={"HX-Request": "true"}, **kw)

        def post(self, url, **kw):
            return client.post(url, headers={"HX-Request": "true"}, **kw)
    return HX()


# ---------------------------------------------------------------- browser tests
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    from harness.env.browser import launch_args
    return {**browser_type_launch_args, **launch_args()}


@pytest.fixture
def browser_context_args(browser_context_args, base_url):
    # Per test: pytest-playwright's are cached for the session with the first base_url it saw, so
    # after a directory serving another world (tests/apps/crm, lumen) pages opened on that server
    # with this one's cookie ("The workspace was reset"). Each test names its own server.
    from harness.env.browser import context_args
    return {**browser_context_args, **context_args(), "base_url": base_url}


@contextmanager
def live_server_on(template):
    """An app server in this process on a slot of ``template`` (for browser tests)."""
    from harness.env.appserver import AppServer
    slot = Slot(template)
    server = AppServer(create_app({"SLOT": slot, "SECRET_KEY": "test-secret"})).start()
    try:
        yield server
    finally:
        server.stop()
        slot.close()


# Every browser test is also an icon sweep: an icon is a <use> of a symbol the page must define, and
# one drawn by a fragment or a script without it is blank. Each shown <use> whose symbol is missing is
# reported as an error of the page, wherever in a test's clicking it appears.
ICON_SWEEP = """(() => {
  const seen = new Set();
  const check = (root) => {
    if (!root.querySelectorAll) return;
    const uses = root.matches && root.matches('use') ? [root] : root.querySelectorAll('use');
    uses.forEach((u) => {
      const href = u.getAttribute('href') || u.getAttribute('xlink:href') || '';
      if (!href.startsWith('#') || document.getElementById(href.slice(1))) return;
      const svg = u.closest('svg'), box = svg && svg.getBoundingClientRect();
      if (!box || (box.width === 0 && box.height === 0)) return;
      const host = svg.closest('[aria-label], [title], button, a, [role]');
      const what = href + ' in ' + (host ? (host.getAttribute('aria-label') || host.getAttribute('title') ||
        (host.textContent || '').trim().slice(0, 40) || host.tagName) : svg.parentElement.tagName);
      if (!seen.has(what)) { seen.add(what); console.error('deskworld: unresolved icon ' + what); }
    });
  };
  // while the page is parsed its sprite (at the end) isn't there yet: the whole page is checked once parsed
  new MutationObserver((records) => document.readyState !== 'loading' && records.forEach((r) => r.addedNodes.forEach(check)))
    .observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', () => check(document));
})();"""


def signed_in(page, server, user: str) -> list[str]:
    """Sign ``page`` in as ``user`` on ``server``; returns the list its JavaScript errors go to (an icon
    that doesn't resolve is one, see ICON_SWEEP)."""
    page.context.add_cookies([server.cookie(user)])
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(ICON_SWEEP)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and
            m.text.startswith("deskworld: unresolved icon") else None)
    page.errors = errors
    return errors


@pytest.fixture(scope="session")
def live_server(template):
    with live_server_on(template) as server:
        yield server


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server.url


@pytest.fixture
def live_slot(live_server):
    """The live server's slot, restored to the template for this test."""
    slot = live_server.app.config["SLOT"]
    slot.restore()
    return slot


@pytest.fixture
def desk(page, live_server, live_slot):
    """A browser page signed in as Alex on a freshly restored world."""
    errors = signed_in(page, live_server, USER)
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"
