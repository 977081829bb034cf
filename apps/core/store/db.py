"""The store: one SQLite database per episode slot, written only through here.

Every write names its actor (``agent``, a co-worker's person id, ``system``)
and is appended to the ``_writes`` log, so a diff can say who changed each
field. World time lives in ``_meta``; nothing here reads the wall clock.
"""
from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from .schema import FieldClass, Kind, Table

SYSTEM = "system"
AGENT = "agent"


_DECODE_PLANS: dict[tuple, tuple] = {}      # (table, columns) -> the columns to decode, by kind


class StoreError(Exception):
    """A programming error against the store (unknown table or field)."""


@dataclass(frozen=True)
class Caller:
    """Who is acting: ``user`` is the person whose view and permissions apply,
    ``actor`` is what the write log records (``agent`` for the signed-in
    user at the keyboard, a co-worker's id when a co-worker acts)."""
    user: str
    actor: str = AGENT


@functools.lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def utc_iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


META_DDL = "CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
WRITES_DDL = ("CREATE TABLE _writes (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL,"
              " pk INTEGER NOT NULL, op TEXT NOT NULL, fields TEXT NOT NULL,"
              " actor TEXT NOT NULL, at TEXT NOT NULL)")


class Store:
    """Typed access to one slot's database. Not thread-safe: the slot hands
    out a store under its lock."""

    def __init__(self, conn: sqlite3.Connection, tables: Mapping[str, Table]):
        self.conn = conn
        self.tables = tables
        self._meta: dict[str, str | None] = {}     # read-through cache for this store's lifetime

    # ------------------------------------------------------------------ schema
    @classmethod
    def create(cls, conn: sqlite3.Connection, tables: Iterable[Table]) -> "Store":
        tables = {t.name: t for t in tables}
        conn.execute(META_DDL)
        conn.execute(WRITES_DDL)
        for t in tables.values():
            for stmt in t.ddl():
                conn.execute(stmt)
        return cls(conn, tables)

    def table(self, name: str) -> Table:
        try:
            return self.tables[name]
        except KeyError:
            raise StoreError(f"unknown table {name!r}") from None

    # ------------------------------------------------------------------ meta and time
    def meta(self, key: str, default: str | None = None) -> str | None:
        if key not in self._meta:
            row = self.conn.execute("SELECT value FROM _meta WHERE key=?", (key,)).fetchone()
            self._meta[key] = row[0] if row else None
        value = self._meta[key]
        return default if value is None else value

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT INTO _meta(key, value) VALUES(?, ?) "
                          "ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))
        self._meta[key] = value

    def now(self) -> datetime:
        """World time (UTC-aware)."""
        return parse_iso(self.meta("clock"))

    def now_iso(self) -> str:
        return self.meta("clock")

    @property
    def tz(self) -> ZoneInfo:
        return _zone(self.meta("timezone", "UTC"))

    def local(self, iso: str | datetime) -> datetime:
        dt = parse_iso(iso) if isinstance(iso, str) else iso
        return dt.astimezone(self.tz)

    def advance(self, seconds: float) -> None:
        """Move world time forward; only the harness calls this."""
        self.set_meta("clock", utc_iso(self.now() + timedelta(seconds=seconds)))

    # ------------------------------------------------------------------ reads
    def all(self, sql: str, params: Iterable = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, tuple(params)).fetchall()

    def one(self, sql: str, params: Iterable = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, tuple(params)).fetchone()

    def scalar(self, sql: str, params: Iterable = ()):
        row = self.conn.execute(sql, tuple(params)).fetchone()
        return row[0] if row else None

    def decode(self, table: str, row: sqlite3.Row | None) -> dict | None:
        """A row of ``table`` as a dict with JSON and bool columns decoded."""
        if row is None:
            return None
        keys = row.keys()
        plan = _DECODE_PLANS.get((table, tuple(keys)))
        if plan is None:
            t = self.table(table)
            plan = tuple((k, f.kind if f is not None and f.kind in (Kind.JSON, Kind.BOOL) else None)
                         for k in keys for f in [t.by_name.get(k)])
            _DECODE_PLANS[(table, tuple(keys))] = plan
        out = dict(zip(keys, row))
        for k, kind in plan:
            if kind is not None and out[k] is not None:
                out[k] = json.loads(out[k]) if kind is Kind.JSON else bool(out[k])
        return out

    def get(self, table: str, pk: int) -> dict | None:
        t = self.table(table)
        if isinstance(pk, int) and not -2**63 <= pk < 2**63:
            return None                     # SQLite can't hold it, so no row has it
        row = self.one(f"SELECT * FROM {t.name} WHERE {t.key}=?", (pk,))
        return self.decode(table, row)

    def select(self, table: str, where: str = "1", params: Iterable = (),
               order: str | None = None) -> list[dict]:
        t = self.table(table)
        sql = f"SELECT * FROM {t.name} WHERE {where} ORDER BY {order or t.key}"
        return [self.decode(table, r) for r in self.all(sql, params)]

    # ------------------------------------------------------------------ writes
    def _encode(self, t: Table, values: Mapping[str, object]) -> dict[str, object]:
        out = {}
        for k, v in values.items():
            f = t.by_name.get(k)
            if f is None or f.cls is FieldClass.KEY:
                raise StoreError(f"{t.name} has no writable field {k!r}")
            if v is not None:
                if f.kind is Kind.JSON:
                    v = _dumps(v)
                elif f.kind is Kind.BOOL:
                    v = int(bool(v))
            out[k] = v
        return out

    def _log(self, table: str, pk: int, op: str, fields: Iterable[str], actor: str) -> None:
        self.conn.execute("INSERT INTO _writes(tbl, pk, op, fields, actor, at) VALUES(?,?,?,?,?,?)",
                          (table, pk, op, _dumps(sorted(fields)), actor, self.now_iso()))

    def insert(self, table: str, actor: str, **values) -> int:
        t = self.table(table)
        for f in t.fields:
            if f.cls is not FieldClass.KEY and f.name not in values and f.default is not None:
                values[f.name] = f.default
        enc = self._encode(t, values)
        cols = ", ".join(f'"{c}"' for c in enc)
        qs = ", ".join("?" for _ in enc)
        cur = self.conn.execute(f"INSERT INTO {t.name} ({cols}) VALUES ({qs})", tuple(enc.values()))
        pk = cur.lastrowid
        self._log(t.name, pk, "insert", enc.keys(), actor)
        return pk

    def reinsert(self, table: str, pk: int, actor: str, **values) -> None:
        """Put back a deleted row under its old key (undo): the row keeps its identity."""
        t = self.table(table)
        enc = self._encode(t, values)
        cols = ", ".join(f'"{c}"' for c in (t.key, *enc))
        qs = ", ".join("?" for _ in range(len(enc) + 1))
        self.conn.execute(f"INSERT INTO {t.name} ({cols}) VALUES ({qs})", (pk, *enc.values()))
        self._log(t.name, pk, "insert", enc.keys(), actor)

    def update(self, table: str, pk: int, actor: str, **values) -> list[str]:
        """Write the fields that differ; return their names (nothing is logged
        for a write that changes nothing, so saving unchanged is not a change)."""
        t = self.table(table)
        enc = self._encode(t, values)
        row = self.one(f"SELECT * FROM {t.name} WHERE {t.key}=?", (pk,))
        if row is None:
            raise StoreError(f"{t.name} {pk} does not exist")
        changed = {k: v for k, v in enc.items() if row[k] != v}
        if changed:
            sets = ", ".join(f'"{k}"=?' for k in changed)
            self.conn.execute(f"UPDATE {t.name} SET {sets} WHERE {t.key}=?", (*changed.values(), pk))
            self._log(t.name, pk, "update", changed.keys(), actor)
        return sorted(changed)

    def delete(self, table: str, pk: int, actor: str) -> None:
        t = self.table(table)
        cur = self.conn.execute(f"DELETE FROM {t.name} WHERE {t.key}=?", (pk,))
        if cur.rowcount:
            self._log(t.name, pk, "delete", (), actor)

    @contextmanager
    def transaction(self) -> Iterator["Store"]:
        """All-or-nothing: a service call that fails half-way leaves nothing."""
        self.conn.execute("SAVEPOINT tx")
        try:
            yield self
        except BaseException:
            self.conn.execute("ROLLBACK TO tx")
            self.conn.execute("RELEASE tx")
            raise
        else:
            self.conn.execute("RELEASE tx")
