"""Declarative checks over the exported state (and its diff from the start).

Each check is a mapping with one kind key:

- ``exists: {table, where, new?, changed?, count?, min?, related?}`` — records match;
  ``new: true`` only looks at records added during the episode, ``changed: true``
  at added or changed ones; ``related`` joins records of another table that
  point at the match (``{table, field, where, count?, min?}``).
- ``absent: {table, where, new?}`` — no record matches.
- ``count: {table, where, new?, equals|min|max}``.
- ``changed: {table, where, field, from?, to?}`` — a matching record's field changed.
- ``unchanged: {table, where?, field?}`` — the agent changed none of them.
- ``tables_changed: [tables]`` — exactly the tables whose content the agent changed.
- ``order: {table, by, sequence: [where, …]}`` — first matches appear in this order.
- ``python: "module:function"`` — ``function(ctx) -> (bool, str)`` for what the
  vocabulary can't say (module from the world's ``checks.py`` or importable); it
  may return ``(bool, str, {table: keys})`` to name the records it vouches for.

Every check gives one line saying what was expected and what was found, and
records which rows it matched (the collateral-damage guard allows changes to those).
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from apps.common.store.export import content_changes
from harness.verify.conditions import CheckSpecError, describe, match

KINDS = ("exists", "absent", "count", "changed", "unchanged", "tables_changed", "order", "python")


@dataclass
class Ctx:
    """What a check sees: the start and end exports, their diff, the answer, the world folder."""
    initial: dict
    final: dict
    diff: dict
    answer: str | None = None
    world_root: Path | None = None
    task: object = None

    def records(self, table: str, *, which: str = "all") -> dict[str, dict]:
        t = self.final["tables"].get(table)
        if t is None:
            raise CheckSpecError(f"unknown table {table!r}")
        recs = t["records"]
        if which == "all":
            return recs
        d = self.diff["tables"].get(table, {})
        keys = {r["key"] for r in d.get("added", [])}
        if which == "changed":
            keys |= {r["key"] for r in d.get("changed", [])}
        return {k: v for k, v in recs.items() if k in keys}

    def agent_content_changes(self) -> list[dict]:
        return content_changes(self.diff, actor="agent")


@dataclass
class CheckResult:
    name: str
    passed: bool
    expected: str
    found: str
    matched: dict[str, set[str]] = field(default_factory=dict)     # table -> keys

    def line(self) -> str:
        return f"{'✓' if self.passed else '✗'} {self.name}: expected {self.expected}; found {self.found}"


def _select(ctx: Ctx, spec: dict, which: str = "all") -> dict[str, dict]:
    table = spec.get("table")
    if not table:
        raise CheckSpecError("a check needs a table")
    where = spec.get("where", {}) or {}
    if not isinstance(where, dict):
        raise CheckSpecError("where is a mapping of field: condition")
    scope = "new" if spec.get("new") else ("changed" if spec.get("changed") else which)
    recs = ctx.records(table, which=scope)
    fields = ctx.final["tables"][table]["fields"]
    for f in where:
        if f != "id" and f not in fields:
            raise CheckSpecError(f"{table} has no field {f!r}")
    by = spec.get("by")
    if by is not None:
        # Who wrote it: records this actor added or changed during the episode (the write log).
        seen = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
        mine = {w["key"] for w in ctx.final.get("writes", [])
                if w["seq"] > seen and w["table"] == table and w["actor"] == by}
        recs = {k: v for k, v in recs.items() if k in mine}
    out = {}
    for key, rec in recs.items():
        if all(match(key if f == "id" else rec.get(f), cond, lambda q: set(_select(ctx, q)))
               for f, cond in where.items()):
            if _related_ok(ctx, spec, key):
                out[key] = rec
    return out


def _related_ok(ctx: Ctx, spec: dict, key: str) -> bool:
    for rel in spec.get("related", []) or []:
        rows = _select(ctx, {"table": rel["table"], "where": {**(rel.get("where") or {}),
                                                               rel["field"]: {"equals": int(key) if key.isdigit() else key}}})
        n = len(rows)
        if "count" in rel and n != rel["count"]:
            return False
        if n < rel.get("min", 1 if "count" not in rel else 0):
            return False
    return True


def _label(spec: dict, kind: str) -> str:
    if spec.get("name"):
        return spec["name"]
    if kind == "python":
        return f"python {spec[kind]}"
    body = spec[kind]
    if isinstance(body, dict):
        where = body.get("where") or {}
        conds = "; ".join(f"{k} {describe(v)}" for k, v in where.items())
        scope = " new" if body.get("new") else ""
        return f"{kind}{scope} {body.get('table', '')}" + (f" where {conds}" if conds else "")
    return f"{kind} {body}"


def run_check(ctx: Ctx, spec: dict) -> CheckResult:
    kinds = [k for k in spec if k in KINDS]
    if len(kinds) != 1:
        raise CheckSpecError(f"a check has exactly one of {', '.join(KINDS)}; got {sorted(spec)}")
    kind = kinds[0]
    body = spec[kind]
    name = _label(spec, kind)
    if kind == "exists":
        rows = _select(ctx, body)
        n = len(rows)
        if "count" in body:
            ok, exp = n == body["count"], f"exactly {body['count']} matching record(s)"
        else:
            lo = body.get("min", 1)
            ok, exp = n >= lo and n <= body.get("max", n), f"at least {lo} matching record(s)"
        return CheckResult(name, ok, exp, f"{n}", {body["table"]: set(rows)})
    if kind == "absent":
        rows = _select(ctx, body)
        return CheckResult(name, not rows, "no matching record", f"{len(rows)}" + (f" (keys {sorted(rows)[:5]})" if rows else ""))
    if kind == "count":
        rows = _select(ctx, body)
        n = len(rows)
        ok = True
        parts = []
        for op, label in (("equals", "exactly"), ("min", "at least"), ("max", "at most")):
            if op in body:
                parts.append(f"{label} {body[op]}")
                ok &= {"equals": n == body[op], "min": n >= body[op], "max": n <= body[op]}[op]
        return CheckResult(name, ok, " and ".join(parts) or "a count", str(n), {body["table"]: set(rows)})
    if kind == "changed":
        table, fld = body["table"], body["field"]
        rows = _select(ctx, {k: v for k, v in body.items() if k in ("table", "where", "related")})
        d = {r["key"]: r for r in ctx.diff["tables"].get(table, {}).get("changed", [])}
        hits = set()
        for key in rows:
            ch = d.get(key, {}).get("fields", {}).get(fld)
            if ch is None:
                continue
            if "from" in body and not match(ch["before"], body["from"]):
                continue
            if "to" in body and not match(ch["after"], body["to"]):
                continue
            hits.add(key)
        exp = f"{fld} changed" + (f" from {body['from']!r}" if "from" in body else "") + \
              (f" to {body['to']!r}" if "to" in body else "")
        return CheckResult(name, bool(hits), exp, f"{len(hits)} of {len(rows)} matching record(s)", {table: hits})
    if kind == "unchanged":
        table = body["table"]
        keys = set(_select(ctx, {"table": table, "where": body.get("where", {})}))
        if body.get("where") is None:
            keys |= set(ctx.initial["tables"].get(table, {}).get("records", {}))
        changes = [c for c in ctx.agent_content_changes() if c["table"] == table and c["key"] in keys
                   and (body.get("field") is None or c.get("field") == body.get("field"))]
        return CheckResult(name, not changes, "no change by the agent", f"{len(changes)} change(s)")
    if kind == "tables_changed":
        want = set(body)
        got = {c["table"] for c in ctx.agent_content_changes()}
        return CheckResult(name, got == want, f"content changed in exactly {sorted(want)}", str(sorted(got)))
    if kind == "order":
        table, by = body["table"], body["by"]
        positions = []
        for where in body["sequence"]:
            rows = _select(ctx, {"table": table, "where": where})
            if not rows:
                return CheckResult(name, False, "every item present, in order", f"nothing matches {where}")
            positions.append(min((int(k) if k.isdigit() else k) if by == "id" else r.get(by)
                                 for k, r in rows.items()))
        return CheckResult(name, positions == sorted(positions), "items in the given order", str(positions))
    if kind == "python":
        fn = load_function(body, ctx.world_root)
        ok, found, *rest = fn(ctx)
        matched = {t: {str(k) for k in keys} for t, keys in (rest[0] if rest else {}).items()}
        return CheckResult(name, bool(ok), spec.get("expected", "the check holds"), str(found), matched)
    raise CheckSpecError(f"unknown check {kind!r}")


def load_function(ref: str, world_root: Path | None):
    """``module:function`` — ``checks:x`` is the world's own ``checks.py``."""
    mod_name, _, fn_name = ref.partition(":")
    if not fn_name:
        raise CheckSpecError(f"python checks are module:function, not {ref!r}")
    path = (world_root / f"{mod_name}.py") if world_root else None
    if path is not None and path.is_file():
        spec = importlib.util.spec_from_file_location(f"deskworld_world_{world_root.name}_{mod_name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(mod_name)
    try:
        return getattr(module, fn_name)
    except AttributeError:
        raise CheckSpecError(f"{mod_name} has no function {fn_name!r}") from None
