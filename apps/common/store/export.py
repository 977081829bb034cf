"""Canonical state export and field-by-field diff.

``export(store)`` is JSON-safe and stable: tables, records and fields in
sorted order, record keys as strings, every field classed. It carries the
write log since the template, so ``diff(before, after)`` — a pure function
of two exports — can name the actor of every added, removed or changed field.
"""
from __future__ import annotations

import json

from .db import Store
from .schema import FieldClass

SCHEMA_VERSION = 1


def export(store: Store) -> dict:
    tables = {}
    for name in sorted(store.tables):
        t = store.tables[name]
        if not t.exported:
            continue
        fields = [f for f in t.fields if f.exported and f.cls is not FieldClass.KEY]
        cols = ", ".join([t.key] + [f'"{f.name}"' for f in fields])
        records = {}
        for row in store.all(f"SELECT {cols} FROM {t.name} ORDER BY {t.key}"):
            rec = store.decode(name, row)
            pk = rec.pop(t.key)
            records[str(pk)] = {k: rec[k] for k in sorted(rec)}
        tables[name] = {
            "key": t.key,
            "fields": dict(sorted(t.classes().items())),
            "refs": dict(sorted(t.refs().items())),
            "records": records,
        }
    writes = [
        {"seq": r["seq"], "table": r["tbl"], "key": str(r["pk"]), "op": r["op"],
         "fields": json.loads(r["fields"]), "actor": r["actor"], "at": r["at"]}
        for r in store.all("SELECT * FROM _writes ORDER BY seq")
    ]
    return {
        "schema": SCHEMA_VERSION,
        "world": store.meta("world"),
        "template": store.meta("template_hash"),
        "clock": store.now_iso(),
        "tables": tables,
        "writes": writes,
    }


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
        b = before["tables"].get(name, {"records": {}, "fields": {}})
        a = after["tables"].get(name, {"records": {}, "fields": {}})
        classes = a.get("fields") or b.get("fields")
        br, ar = b["records"], a["records"]
        added = [{"key": k, "record": ar[k], "actor": by_op.get((name, k, "insert"), "unknown")}
                 for k in sorted(set(ar) - set(br), key=_natural)]
        removed = [{"key": k, "record": br[k], "actor": by_op.get((name, k, "delete"), "unknown")}
                   for k in sorted(set(br) - set(ar), key=_natural)]
        changed = []
        for k in sorted(set(ar) & set(br), key=_natural):
            fields = {}
            for f in sorted(set(ar[k]) | set(br[k])):
                if ar[k].get(f) != br[k].get(f):
                    fields[f] = {"before": br[k].get(f), "after": ar[k].get(f),
                                 "class": classes.get(f, "content"),
                                 "actor": by_field.get((name, k, f), "unknown")}
            if fields:
                changed.append({"key": k, "fields": fields})
        if added or removed or changed:
            out[name] = {"fields": classes, "added": added, "removed": removed, "changed": changed}
    return {"tables": out}


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
        for rec in t["removed"] if has_content else ():
            if actor is None or rec["actor"] == actor:
                out.append({"table": name, "key": rec["key"], "op": "removed", "actor": rec["actor"]})
        for rec in t["changed"]:
            for f, ch in rec["fields"].items():
                if ch["class"] == "content" and (actor is None or ch["actor"] == actor):
                    out.append({"table": name, "key": rec["key"], "op": "changed", "field": f,
                                "actor": ch["actor"], "before": ch["before"], "after": ch["after"]})
    return out
