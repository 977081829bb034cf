"""The collateral-damage guard.

Looks only at ``content`` fields written by the agent (DESIGN.md). A change is
allowed when its table (or ``table.field``) is in the task's ``allow`` list, or
when its record was matched by a check, or is linked to one: a record that
points at an allowed record (a mailbox row of an allowed message) or that an
allowed record points at and the agent created (the new thread of an allowed
message). Everything else the agent changed is collateral damage.
"""
from __future__ import annotations

from apps.common.store.export import content_changes


def _refs(export: dict) -> dict[str, dict[str, str]]:
    return {name: t.get("refs", {}) for name, t in export["tables"].items()}


def allowed_records(final: dict, diff: dict, matched: dict[str, set[str]]) -> dict[str, set[str]]:
    refs = _refs(final)
    allowed = {t: set(keys) for t, keys in matched.items()}
    touched: dict[str, set[str]] = {}
    for name, t in diff["tables"].items():
        keys = {r["key"] for r in t["added"]} | {r["key"] for r in t["changed"]} | {r["key"] for r in t["removed"]}
        touched[name] = keys
    removed = {name: {r["key"]: r["record"] for r in t["removed"]} for name, t in diff["tables"].items()}
    grew = True
    while grew:
        grew = False
        for table, keys in touched.items():
            recs = final["tables"].get(table, {}).get("records", {})
            for key in keys - allowed.get(table, set()):
                rec = recs.get(key) or removed.get(table, {}).get(key) or {}
                for fld, target in refs.get(table, {}).items():
                    val = rec.get(fld)
                    if val is not None and str(val) in allowed.get(target, set()):
                        allowed.setdefault(table, set()).add(key)
                        grew = True
                        break
        # Parents the agent created for an allowed record (a new thread, a new blob).
        for table, keys in list(allowed.items()):
            recs = final["tables"].get(table, {}).get("records", {})
            for key in list(keys):
                rec = recs.get(key) or removed.get(table, {}).get(key) or {}
                for fld, target in refs.get(table, {}).items():
                    val = rec.get(fld)
                    if val is not None and str(val) in touched.get(target, set()) \
                            and str(val) not in allowed.get(target, set()):
                        allowed.setdefault(target, set()).add(str(val))
                        grew = True
    return allowed


def collateral(final: dict, diff: dict, matched: dict[str, set[str]], allow: list[str]) -> list[dict]:
    """The agent's content changes that nothing allows."""
    ok = allowed_records(final, diff, matched)
    tables = {a for a in allow if "." not in a}
    fields = {tuple(a.split(".", 1)) for a in allow if "." in a}
    out = []
    for c in content_changes(diff, actor="agent"):
        if c["table"] in tables or (c["table"], c.get("field")) in fields:
            continue
        if c["key"] in ok.get(c["table"], set()):
            continue
        out.append(c)
    return out


def describe(changes: list[dict], limit: int = 5) -> str:
    parts = []
    for c in changes[:limit]:
        if c["op"] == "changed":
            parts.append(f"{c['table']}#{c['key']}.{c['field']}: {c['before']!r} → {c['after']!r}")
        else:
            parts.append(f"{c['table']}#{c['key']} {c['op']}")
    more = f" (+{len(changes) - limit} more)" if len(changes) > limit else ""
    return "; ".join(parts) + more
