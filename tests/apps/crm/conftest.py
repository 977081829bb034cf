"""CRM tests run on the ``lumen`` world (signed in as Jordan Blake, Revenue Operations).

The shared fixtures in tests/conftest.py build on ``world`` and ``template``; overriding those two
here makes ``slot``, ``store``, ``app`` and the live server use lumen for the tests in this folder.
"""
from __future__ import annotations

import pytest

from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.world import load_world
from apps.crm import service as S
from tests.conftest import live_server_on, make_client, signed_in

WORLD = "lumen"
USER = "jordan.blake"


# ---------------------------------------------------------------- helpers the test modules import
def writes(store) -> int:
    """How many writes the store has logged (a refused change must add none)."""
    return store.scalar("SELECT count(*) FROM _writes")


def opp(store, slug="harrowgate-fy27-renewal"):
    return S.by_slug(store, USER, "opportunities", slug)


def rec(slot, obj, slug):
    """A record by slug, read from a (live) slot's store, as Jordan sees it."""
    with slot.store() as st:
        return S.by_slug(st, USER, obj, slug)


def get(slot, obj, rid):
    """A record by id, read from a (live) slot's store, as Jordan sees it."""
    with slot.store() as st:
        return S.get(st, USER, obj, rid)


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
    # This directory's (lumen) server; tests/conftest.py's browser_context_args reads it per test.
    return live_server.url

