"""Service desk fixtures: a store, a Flask client and a live server on the ``lumen`` world (user jordan.blake)."""
from __future__ import annotations

import pytest

from apps import create_app
from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.slot import Slot
from tests.conftest import live_server_on, make_client, signed_in

USER = "jordan.blake"


@pytest.fixture(scope="session")
def lumen_template():
    return template_for("lumen")


@pytest.fixture
def tslot(lumen_template):
    s = Slot(lumen_template)
    yield s
    s.close()


@pytest.fixture
def st(tslot):
    with tslot.store() as store:
        yield store


@pytest.fixture
def jordan():
    return Caller(USER)


@pytest.fixture
def tapp(tslot):
    return create_app({"SLOT": tslot, "TESTING": True, "SECRET_KEY": "test-secret"})


@pytest.fixture
def tclient(tapp):
    return make_client(tapp, USER)


@pytest.fixture(scope="session")
def tk_live(lumen_template):
    with live_server_on(lumen_template) as server:
        yield server


@pytest.fixture
def tk_desk(page, tk_live):
    """A browser page signed in as Jordan on a freshly restored lumen world."""
    slot = tk_live.app.config["SLOT"]
    slot.restore()
    errors = signed_in(page, tk_live, USER)
    page.slot = slot
    page.base = tk_live.url
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"
