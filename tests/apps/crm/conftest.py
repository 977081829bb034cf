"""CRM tests run on the ``lumen`` world (signed in as Jordan Blake, Revenue Operations).

The shared fixtures in tests/conftest.py build on ``world`` and ``template``; overriding those two
here makes ``slot``, ``store``, ``app`` and the live server use lumen for the tests in this folder.
"""
from __future__ import annotations

import pytest

from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.world import load_world
from tests.conftest import live_server_on, make_client, signed_in

WORLD = "lumen"
USER = "jordan.blake"


@pytest.fixture(scope="session")
def world():
    return load_world(WORLD)


@pytest.fixture(scope="session")
def template(world):
    return template_for(world)


@pytest.fixture
def jordan():
    return Caller(user=USER)


@pytest.fixture
def miguel():
    return Caller(user="miguel.santos", actor="miguel.santos")


@pytest.fixture
def client(app):
    return make_client(app, USER)


@pytest.fixture(scope="session")
def live_server(template):
    with live_server_on(template) as server:
        yield server


@pytest.fixture
def desk(page, live_server, live_slot):
    """A browser page signed in as Jordan on a freshly restored lumen world."""
    errors = signed_in(page, live_server, USER)
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="session")
def base_url(live_server):
    # Overridden with the live server: the shared one is cached for the first (meridian) server.
    return live_server.url


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, live_server):
    # pytest-playwright caches the context arguments (base_url included) for the session.
    return {**browser_context_args, "base_url": live_server.url}
