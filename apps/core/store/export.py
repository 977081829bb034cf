"""Canonical state export and field-by-field diff.

``export(store)`` is JSON-safe and stable: tables, records and fields in
sorted order, record keys as strings, every field classed. It carries the
write log since the template, so ``diff(before, after)`` — a pure function
of two exports — can name the actor of every added, removed or changed field.
"""
from __future__ import annotations

import json

from .db import Store
from .schema import FieldClass, Kind

SCHEMA_VERSION = 1


_JSON: dict[str, object] = {}


def _json(text: str):
    """A JSON column's value, parsed once per distinct text (exports are read-only, so records may
    share it: a thousand rows of ``[]`` are one list)."""
    v = _JSON.get(text)
    if v is None:
        if len(_JSON) > 200_000:
            _JSON.clear()
        v = _JSON[text] = json.loads(text)
    return v


def export_table(store: Store, name: str) -> dict:
    """One table of the export."""
    t = store.tables[name]
    fields = sorted((f for f in t.fields if f.exported and f.cls is not FieldClass.KEY), key=lambda f: f.name)
    cols = ", ".join([t.key] + [f'"{f.name}"' for f in fields])
    kinds = [(f.name, f.kind) for f in fields]
    records = {}
    for row in store.all(f"SELECT {cols} FROM {t.name} ORDER BY {t.key}"):
        rec = {}
        for (fname, kind), v in zip(kinds, row[1:]):
            if v is not None:
                if kind is Kind.JSON:
                    v = _json(v)
                elif kind is Kind.BOOL:
                    v = bool(v)
            rec[fname] = v
        records[str(row[0])] = rec
    return {
        "key": t.key,
        "fields": dict(sorted(t.classes().items())),
        "refs": dict(sorted(t.refs().items())),
        **({"links": dict(sorted(t.links().items()))} if t.links() else {}),
        **({"order": [list(o) for o in t.order]} if t.order else {}),
        "records": records,
    }


def _writes(store: Store) -> list[dict]:
    return [
        {"seq": r["seq"], "table": r["tbl"], "key": str(r["pk"]), "op": r["op"],
         "fields": json.loads(r["fields"]), "actor": r["actor"], "at": r["at"]}
        for r in store.all("SELECT * FROM _writes ORDER BY seq")
    ]


def _top(store: Store) -> dict:
    return {
        "schema": SCHEMA_VERSION,
        "world": store.meta("world"),
        "variant": int(store.meta("variant") or 0),
        "template": store.meta("template_hash"),
        "user": store.meta("default_user"),
        "timezone": store.meta("timezone"),
        "clock": store.now_iso(),
    }


def export(store: Store) -> dict:
    tables = {name: export_table(store, name) for name in sorted(store.tables) if store.tables[name].exported}
    return {**_top(store), "tables": tables, "writes": _writes(store)}


def export_since(store: Store, base: dict) -> dict:
    """``export(store)`` for a store that started as ``base`` (an export of its start): the tables
    no write touched since are ``base``'s own (shared, not copied — exports are read-only)."""
    seen = max((w["seq"] for w in base.get("writes", [])), default=0)
    touched = {r["tbl"] for r in store.all("SELECT DISTINCT tbl FROM _writes WHERE seq > ?", (seen,))}
    tables = {name: (export_table(store, name) if name in touched or name not in base["tables"]
                     else base["tables"][name])
              for name in sorted(store.tables) if store.tables[name].exported}
    return {**_top(store), "tables": tables, "writes": _writes(store)}


class _LazyTables(dict):
    def __init__(self, store: Store):
        super().__init__()
        self._store = store

    def _load(self, name: str) -> bool:
        if not dict.__contains__(self, name):
            t = self._store.tables.get(name)
            if t is None or not t.exported:
                return False
            dict.__setitem__(self, name, export_table(self._store, name))
        return True

    def __getitem__(self, name):
        if not self._load(name):
            raise KeyError(name)
        return dict.__getitem__(self, name)

    def get(self, name, default=None):
        return dict.__getitem__(self, name) if self._load(name) else default

    def __contains__(self, name):
        return self._load(name)


def lazy_export(store: Store) -> dict:
    """An export whose tables are read when first looked at (for queries over a live store:
    a solution step's ``find``). Same shape as ``export``; only valid while ``store`` is unchanged."""
    return {**_top(store), "tables": _LazyTables(store), "writes": _writes(store)}


class _LazyDiff(dict):
    def __init__(self, before: dict, after: dict):
        super().__init__()
        self._before, self._after = before, after
        self._attr = None

    def get(self, name, default=None):
        if not dict.__contains__(self, name):
            if self._attr is None:
                self._attr = _attribution(self._before, self._after)
            d = _table_diff(name, self._before["tables"].get(name), self._after["tables"].get(name), *self._attr)
            dict.__setitem__(self, name, d)
        return dict.__getitem__(self, name) or default

    def __getitem__(self, name):
        got = self.get(name)
        if got is None:
            raise KeyError(name)
        return got


def lazy_diff(before: dict, after: dict) -> dict:
    """``diff`` computed table by table as it is looked at (goes with ``lazy_export``)."""
    return {"tables": _LazyDiff(before, after)}


def _attribution(before: dict, after: dict) -> tuple[dict, dict]:
    """Last actor per (table, key, field) and per (table, key, op) for the
    writes in ``after`` that are not in ``before``."""
    seen = max((w["seq"] for w in before.get("writes", [])), default=0)
    fields: dict[tuple, str] = {}
    ops: dict[tuple, str] = {}
    for w in after.get("writes", []):
        if w["seq"] <= seen:
            continue
        ops[(w["table"], w["key"], w["op"])] = w["actor"]
        for f in w["fields"]:
            fields[(w["table"], w["key"], f)] = w["actor"]
    return fields, ops


def diff(before: dict, after: dict) -> dict:
    """Added / removed / changed records per table, field by field.

    ``{"tables": {name: {"added": [...], "removed": [...], "changed": [...]}}}``
    with only the tables that differ. Changed records list each field with
    ``before``, ``after``, its ``class`` and the ``actor`` of the last write.
    """
    by_field, by_op = _attribution(before, after)
    out: dict[str, dict] = {}
    for name in sorted(set(before["tables"]) | set(after["tables"])):
        d = _table_diff(name, before["tables"].get(name), after["tables"].get(name), by_field, by_op)
        if d:
            out[name] = d
    return {"tables": out}


def _table_diff(name: str, b: dict | None, a: dict | None, by_field: dict, by_op: dict) -> dict | None:
    if b is a:                      # export_since shares the tables no write touched
        return None
    b = b or {"records": {}, "fields": {}}
    a = a or {"records": {}, "fields": {}}
    classes = a.get("fields") or b.get("fields")
    br, ar = b["records"], a["records"]
    added = []
    for k in sorted(set(ar) - set(br), key=_natural):
        actor = by_op.get((name, k, "insert"), "unknown")
        rec = {"key": k, "record": ar[k], "actor": actor}
        # A record someone else added in the episode and another actor then edited (a lead a co-worker
        # imported that the agent set Qualified): the fields each later actor left as they are.
        edits = {f: by_field[(name, k, f)] for f in ar[k] if by_field.get((name, k, f), actor) != actor}
        if edits:
            rec["edits"] = edits
        added.append(rec)
    removed = [{"key": k, "record": br[k], "actor": by_op.get((name, k, "delete"), "unknown")}
               for k in sorted(set(br) - set(ar), key=_natural)]
    changed = []
    for k in sorted((k for k, rec in ar.items() if k in br and rec != br[k]), key=_natural):
        fields = {}
        for f in sorted(set(ar[k]) | set(br[k])):
            if ar[k].get(f) != br[k].get(f):
                fields[f] = {"before": br[k].get(f), "after": ar[k].get(f),
                             "class": classes.get(f, "content"),
                             "actor": by_field.get((name, k, f), "unknown")}
        if fields:
            changed.append({"key": k, "fields": fields})
    if added or removed or changed:
        return {"fields": classes, "added": added, "removed": removed, "changed": changed}
    return None


def _natural(k: str):
    return (0, int(k)) if k.isdigit() else (1, k)


def content_changes(d: dict, actor: str | None = None) -> list[dict]:
    """Flatten a diff to the ``content`` changes (optionally by one actor):
    what the collateral-damage guard looks at."""
    out = []
    for name, t in d["tables"].items():
        has_content = "content" in t["fields"].values()
        for rec in t["added"] if has_content else ():
            if actor is None or rec["actor"] == actor:
                out.append({"table": name, "key": rec["key"], "op": "added", "actor": rec["actor"]})
            elif rec.get("edits"):              # added by someone else, then edited: what the actor wrote
                for f, who in rec["edits"].items():
                    if who == actor and t["fields"].get(f, "content") == "content":
                        out.append({"table": name, "key": rec["key"], "op": "changed", "field": f, "actor": who,
                                    "before": None, "after": rec["record"].get(f)})
        for rec in t["removed"] if has_content else ():
            if actor is None or rec["actor"] == actor:
                out.append({"table": name, "key": rec["key"], "op": "removed", "actor": rec["actor"]})
        for rec in t["changed"]:
            for f, ch in rec["fields"].items():
                if ch["class"] == "content" and (actor is None or ch["actor"] == actor):
                    out.append({"table": name, "key": rec["key"], "op": "changed", "field": f,
                                "actor": ch["actor"], "before": ch["before"], "after": ch["after"]})
    return out
