"""Episode slots: a working copy of a world's template database.

``restore()`` puts the slot back to the template. Two modes:

- memory (``path=None``): the template bytes are ``deserialize``d into an
  in-memory connection — the fastest reset (well under a millisecond);
- file: the template file is copied over the slot's file and reopened, so
  the state survives the process (``deskworld serve`` uses this).

Each restore bumps ``generation``; sessions carry the generation they were
issued for, so a late request from the previous episode's page is refused.
"""
from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from .db import Store
from .schema import Table


def connect(path: str | Path, *, memory_bytes: bytes | None = None) -> sqlite3.Connection:
    """Open a slot connection: autocommit (services use savepoints), rows by name."""
    conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    if memory_bytes is not None:
        conn.deserialize(memory_bytes)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA foreign_keys=OFF")
    return conn


class Slot:
    def __init__(self, template: str | Path, path: str | Path | None = None,
                 tables: Mapping[str, Table] | None = None):
        if tables is None:
            from apps.core.registry import all_tables
            tables = {t.name: t for t in all_tables()}
        self.template = Path(template)
        self.path = Path(path) if path is not None else None
        self.tables = tables
        self.lock = threading.RLock()
        self.generation = 0
        self._bytes = self.template.read_bytes() if self.path is None else None
        self._conn: sqlite3.Connection | None = None
        self.restore()

    def retarget(self, template: str | Path) -> None:
        """Make ``template`` (another variant of the world) the one ``restore()`` goes back to;
        the next restore starts from it."""
        with self.lock:
            self.template = Path(template)
            if self.path is None:
                self._bytes = self.template.read_bytes()

    @property
    def memory(self) -> bool:
        return self.path is None

    def restore(self, snapshot: bytes | None = None) -> int:
        """Reset to the template (or, for a memory slot, to ``snapshot``: bytes from
        ``serialize()``); returns the new generation."""
        with self.lock:
            if snapshot is not None and self.path is not None:
                raise ValueError("only a memory slot restores from a snapshot")
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if self.path is None:
                self._conn = connect(":memory:", memory_bytes=snapshot if snapshot is not None else self._bytes)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                for suffix in ("-journal", "-wal", "-shm"):
                    Path(str(self.path) + suffix).unlink(missing_ok=True)
                shutil.copyfile(self.template, self.path)
                self._conn = connect(self.path)
            self.generation += 1
            return self.generation

    @contextmanager
    def store(self) -> Iterator[Store]:
        """The slot's store, held under the slot lock for the duration."""
        with self.lock:
            if self._conn is None:
                raise RuntimeError("slot is closed")
            yield Store(self._conn, self.tables)

    def serialize(self) -> bytes:
        with self.lock:
            return self._conn.serialize()

    def close(self) -> None:
        with self.lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
