"""Tool tests run on both worlds: meridian (Alex Chen) for the workspace apps, lumen
(Jordan Blake) for the CRM and the service desk, each a fresh in-memory slot per test."""
from __future__ import annotations

import pytest

from apps.core.store.compile import template_for
from apps.core.store.slot import Slot

USERS = {"meridian": "alex.chen", "lumen": "jordan.blake"}
WORLD_OF = {"crm": "lumen", "tickets": "lumen"}          # every other app: meridian


@pytest.fixture(scope="session")
def templates():
    return {w: template_for(w) for w in USERS}


@pytest.fixture
def slot_of(templates):
    """``slot_of(world)``: a fresh slot of that world, closed after the test."""
    opened = []

    def make(world: str) -> Slot:
        opened.append(Slot(templates[world]))
        return opened[-1]
    yield make
    for s in opened:
        s.close()


def last_seq(store) -> int:
    return store.scalar("SELECT coalesce(max(seq), 0) FROM _writes")


def run_async(fn) -> None:
    """``anyio.run(fn)`` on a thread of its own: once pytest-playwright's sync API has a browser
    running, the main thread already has a running event loop, and a second one can't start there."""
    import threading

    import anyio
    errors: list[BaseException] = []

    def target():
        try:
            anyio.run(fn)
        except BaseException as e:          # re-raised in the test's thread
            errors.append(e)
    t = threading.Thread(target=target, name="mcp-client")
    t.start()
    t.join(timeout=120)
    if t.is_alive():
        raise TimeoutError("the MCP client did not finish within 120 s")
    if errors:
        raise errors[0]
