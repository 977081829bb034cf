"""A world's state for the CLI and the MCP server: which world, who acts, where it is kept.

The state lives in an in-memory slot. Without ``--state`` it starts from the
world's template and is gone when the process ends; with ``--state FILE`` a
missing file is created from the template, an existing one is opened as it
is (its world wins), and every call that wrote saves the whole database
back to the file — written next to it and renamed over it, so a crash never
leaves half a state. That is what lets one ``deskworld app`` invocation see
what the previous one did. (``deskworld serve --state`` instead resets its
file at start.)
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from apps.core import people
from apps.core.store.compile import template_for
from apps.core.store.db import AGENT
from apps.core.store.slot import Slot
from apps.core.world import load_world, world_ref
from harness.tools.registry import Tool, call_tool

DEFAULT_WORLD = "meridian"


class SessionError(ValueError):
    """The world, user or state file can't be used; the message says why."""


@dataclass
class Session:
    slot: Slot
    world: str
    user: str
    actor: str = AGENT
    state: Path | None = None

    def call(self, tool: str | Tool, args: Mapping | None = None):
        """Call a tool as the session's user; a call that wrote is saved to the state file."""
        before = self._last_write()
        out = call_tool(self.slot, tool, args, self.user, self.actor)
        if self.state is not None and self._last_write() != before:
            self.save()
        return out

    def describe(self) -> str:
        """Who the agent is and when it is, for a model's instructions."""
        with self.slot.store() as st:
            p = people.person(st, self.user)
            now = st.local(st.now()).strftime("%A %d %B %Y, %H:%M %Z")
        return f"You are {p['name']} <{p['email']}> ({self.user}) in the '{self.world}' workspace. It is {now}."

    def save(self) -> None:
        fd, tmp = tempfile.mkstemp(prefix=f".{self.state.name}-", dir=self.state.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self.slot.serialize())
            os.replace(tmp, self.state)
        finally:
            Path(tmp).unlink(missing_ok=True)

    def _last_write(self) -> int:
        with self.slot.store() as st:
            return st.scalar("SELECT coalesce(max(seq), 0) FROM _writes")


def open_session(world: str | None = None, user: str | None = None, state: str | Path | None = None,
                 actor: str = AGENT) -> Session:
    """The session for ``world`` (default: the state file's, else meridian) acting as ``user``
    (default: the world's user)."""
    path = Path(state) if state else None
    if path is not None and path.exists():
        held = _state_world(path)
        if world and load_world(world).ref != held:
            raise SessionError(f"{path} holds the world '{held}', not '{world}'.")
        world, slot = held, Slot(path)
    else:
        world = world or DEFAULT_WORLD
        slot = Slot(template_for(world))
    with slot.store() as st:
        user = user or st.meta("default_user")
        if people.person(st, user) is None:
            raise SessionError(f"There is no person '{user}' in the world '{world}'.")
    session = Session(slot, world, user, actor, path)
    if path is not None and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        session.save()
    return session


def _state_world(path: Path) -> str:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM _meta WHERE key='world'").fetchone()
            variant = conn.execute("SELECT value FROM _meta WHERE key='variant'").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        row = None
    if row is None:
        raise SessionError(f"{path} is not a deskworld state file.")
    return world_ref(row[0], int(variant[0]) if variant else 0)
