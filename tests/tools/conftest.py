"""Tool tests run on both worlds: meridian (Alex Chen) for the workspace apps, lumen
(Jordan Blake) for the CRM and the service desk, each a fresh in-memory slot per test."""
from __future__ import annotations

import pytest

from apps.common.store.compile import template_for
from apps.common.store.slot import Slot

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
