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
  may return ``(bool, str, vouches)`` naming what it vouches for: ``{table: keys}``
  (whole records), ``{table: {key: [fields]}}``, or a list of ``Vouch``.

Every check gives one line saying what was expected and what was found, and
what it vouches for (``harness.verify.guard``): the records it matched — a
record added in the episode whole, one that existed only in the fields its
``where`` names — the field a ``changed`` check names, the records an
``absent`` check wanted gone, the rows its ``related`` joins matched; a ``count``
vouches for nothing (it says how many, not what they hold).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from apps.core.store.export import content_changes
from harness.verify.conditions import CheckSpecError, describe, match
from harness.verify.guard import Vouch

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
    refs: dict = field(default_factory=dict, repr=False, compare=False)   # ref query → keys, per state

    def ref_keys(self, query: dict) -> set[str]:
        """The keys a ``ref`` subquery selects, computed once per context (a ``where`` applies it
        to every record of its table)."""
        k = json.dumps(query, sort_keys=True, default=str)
        if k not in self.refs:
            self.refs[k] = set(_select(self, query))
        return self.refs[k]

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

    def by_agent(self, table: str, *, inserted: bool = False) -> dict[str, int]:
        """Records of ``table`` the agent wrote in this episode (only the ones it added, with ``inserted``),
        from the write log: key → the sequence number of its first such write."""
        return self.written(table, actor="agent", inserted=inserted)

    def written(self, table: str, *, actor: str | None = None, inserted: bool = False) -> dict[str, int]:
        """Records of ``table`` written in this episode by ``actor`` (anyone: None) — the agent, a co-worker —
        key → the sequence number of its first such write (only additions, with ``inserted``)."""
        start = max((w["seq"] for w in self.initial.get("writes", [])), default=0)
        out: dict[str, int] = {}
        for w in self.final.get("writes", []):
            if w["seq"] > start and w["table"] == table and (actor is None or w["actor"] == actor) \
                    and (not inserted or w.get("op", "insert") == "insert"):
                out.setdefault(w["key"], w["seq"])
        return out

    def added_by_agent(self, table: str) -> dict[str, dict]:
        """Records of ``table`` the agent added in this episode, as they are at the end: key → record."""
        mine = self.by_agent(table)
        return {k: r for k, r in self.records(table, which="new").items() if k in mine}

    def added(self, table: str) -> set[str]:
        return {r["key"] for r in self.diff["tables"].get(table, {}).get("added", [])}

    def before(self) -> "Ctx":
        """The same context looking at the start state (for what was there and is gone)."""
        return Ctx(initial=self.initial, final=self.initial, diff={"tables": {}}, answer=self.answer,
                   world_root=self.world_root, task=self.task)


@dataclass
class CheckResult:
    name: str
    passed: bool
    expected: str
    found: str
    vouches: list[Vouch] = field(default_factory=list)

    def line(self) -> str:
        return f"{'✓' if self.passed else '✗'} {self.name}: expected {self.expected}; found {self.found}"


def _select(ctx: Ctx, spec: dict, which: str = "all") -> dict[str, dict]:
    table = spec.get("table")
    if not table:
        raise CheckSpecError("a check needs a table")
    where = spec.get("where", {}) or {}
    if not isinstance(where, dict):
        raise CheckSpecError("where is a mapping of field: condition")
    where = computed(ctx, where)
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
        if all(match(key if f == "id" else rec.get(f), cond, ctx.ref_keys)
               for f, cond in where.items()):
            if _related(ctx, spec, key) is not None:
                out[key] = rec
    return out


def computed(ctx: Ctx, cond):
    """``cond`` with every ``{from: "module:function"}`` replaced by the value it computes from the world."""
    if isinstance(cond, dict):
        if set(cond) == {"from"} and isinstance(cond["from"], str):
            return load_function(cond["from"], ctx.world_root)(ctx)
        return {k: computed(ctx, v) for k, v in cond.items()}
    if isinstance(cond, list):
        return [computed(ctx, v) for v in cond]
    return cond


def _related(ctx: Ctx, spec: dict, key: str) -> list[tuple[dict, dict[str, dict]]] | None:
    """For each ``related`` join, (the join, its rows pointing at ``key``); None if one doesn't hold."""
    out = []
    for rel in spec.get("related", []) or []:
        where = {**(rel.get("where") or {}), rel["field"]: {"equals": int(key) if key.isdigit() else key}}
        rows = _select(ctx, {"table": rel["table"], "where": where})
        n = len(rows)
        if "count" in rel and n != rel["count"]:
            return None
        if n < rel.get("min", 1 if "count" not in rel else 0):
            return None
        out.append(({**rel, "where": where}, rows))
    return out


def vouch_rows(ctx: Ctx, spec: dict, rows: dict[str, dict], fields=None) -> list[Vouch]:
    """What matching ``rows`` of ``spec`` vouches for: a record added in the episode whole, one that
    existed in the fields the query names (or ``fields``); and the rows its joins matched."""
    table, where = spec["table"], spec.get("where") or {}
    new = ctx.added(table)
    named = set(fields) if fields is not None else {f for f in where if f != "id"}
    out = []
    for key in rows:
        out.append(Vouch.of(table, key, None if key in new else named, where))
        for rel, rel_rows in _related(ctx, spec, key) or ():
            out += vouch_rows(ctx, {"table": rel["table"], "where": rel["where"]}, rel_rows)
    return out


def vouch_gone(ctx: Ctx, spec: dict) -> list[Vouch]:
    """What an ``absent`` query vouches for: records that matched it at the start and don't now —
    whole when removed, else the fields it names (the inbox flag of a conversation filed away)."""
    if spec.get("new"):
        return []
    table, where = spec["table"], spec.get("where") or {}
    then = _select(ctx.before(), {k: v for k, v in spec.items() if k not in ("new", "changed", "by")})
    now = ctx.records(table)
    named = {f for f in where if f != "id"}
    return [Vouch.of(table, k, None if k not in now else named, where) for k in then]


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
        return CheckResult(name, ok, exp, f"{n}", vouch_rows(ctx, body, rows))
    if kind == "absent":
        rows = _select(ctx, body)
        return CheckResult(name, not rows, "no matching record", f"{len(rows)}" + (f" (keys {sorted(rows)[:5]})" if rows else ""),
                           vouch_gone(ctx, body))
    if kind == "count":
        rows = _select(ctx, body)
        n = len(rows)
        ok = True
        parts = []
        for op, label in (("equals", "exactly"), ("min", "at least"), ("max", "at most")):
            if op in body:
                want = computed(ctx, body[op])
                parts.append(f"{label} {want}")
                ok &= {"equals": n == want, "min": n >= want, "max": n <= want}[op]
        # A count says how many, not what they hold: it vouches for nothing (the check that names the
        # content does), so "only one such call" doesn't let an extra guest on that call through.
        return CheckResult(name, ok, " and ".join(parts) or "a count", str(n))
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
        return CheckResult(name, bool(hits), exp, f"{len(hits)} of {len(rows)} matching record(s)",
                           [Vouch.of(table, k, {fld}) for k in sorted(hits)])
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
        return CheckResult(name, bool(ok), spec.get("expected", "the check holds"), str(found),
                           python_vouches(rest[0] if rest else None))
    raise CheckSpecError(f"unknown check {kind!r}")


def python_vouches(value) -> list[Vouch]:
    """A python check's vouches: ``{table: keys}``, ``{table: {key: fields}}`` or a list of ``Vouch``."""
    if not value:
        return []
    if isinstance(value, list):
        if not all(isinstance(v, Vouch) for v in value):
            raise CheckSpecError("a python check's vouches are {table: keys}, {table: {key: fields}} or Vouch objects")
        return value
    out = []
    for table, keys in value.items():
        if isinstance(keys, dict):
            out += [Vouch.of(table, k, f) for k, f in keys.items() if k is not None]
        else:
            out += [Vouch.of(table, k) for k in keys if k is not None]
    return out


def allow_vouches(ctx: Ctx, query: dict) -> list[Vouch]:
    """An ``allow`` query's vouches: the records it matches now (whole, or its ``fields``) and
    those it matched at the start that are gone."""
    spec = {k: v for k, v in query.items() if k != "fields"}
    fields = query.get("fields")
    rows = _select(ctx, spec)
    table, where = spec["table"], spec.get("where") or {}
    new = ctx.added(table)
    out = [Vouch.of(table, k, None if (fields is None or k in new) else fields, where) for k in rows]
    if not spec.get("new"):
        now = ctx.records(table)
        out += [Vouch.of(table, k, None, where) for k in _select(ctx.before(), spec) if k not in now]
    return out


_WORLD_MODULES: dict[tuple[str, float], object] = {}
_WORLD_FILES: dict[tuple[int, int, int], object] = {}


def world_yaml(path: Path):
    """A world file parsed once while it is unchanged (checks read the world's files on every call;
    treat the result as read-only)."""
    st = os.stat(path)                        # follows a variant folder's links to the world's files
    key = (st.st_dev, st.st_ino, st.st_mtime_ns)
    if key not in _WORLD_FILES:
        _WORLD_FILES[key] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return _WORLD_FILES[key]


def numbered(prefix: str, fn, count: int, *extra) -> dict:
    """One check function per item a task names by position: ``{f"{prefix}{i}": ctx -> fn(ctx, i, *extra)}``
    for i in 1..count, each with ``fn``'s docstring — a task file lists ``checks_x:lead_3``, and a world
    module does ``globals().update(numbered("lead_", _worked, 11))``."""
    def bind(i):
        def check(ctx):
            return fn(ctx, i, *extra)
        check.__doc__ = fn.__doc__
        return check
    return {f"{prefix}{i}": bind(i) for i in range(1, count + 1)}


def world_module(world_root: Path, name: str):
    """A world's own module (``checks`` is ``worlds/<w>/checks.py``), loaded once while the file is
    unchanged, one for all of the world's variants: it reads a variant's data from ``ctx.world_root``,
    never from its own folder. A world module can use another this way: ``world_module(Path(__file__).parent, "checks")``."""
    path = (Path(world_root) / f"{name}.py").resolve()   # a variant's folder links to the world's own
    key = (str(path), path.stat().st_mtime)
    mod = _WORLD_MODULES.get(key)
    if mod is None:
        spec = importlib.util.spec_from_file_location(f"deskworld_world_{path.parent.name}_{name}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _WORLD_MODULES[key] = mod
    return mod


def load_function(ref: str, world_root: Path | None):
    """``module:function`` — ``checks:x`` is the world's own ``checks.py``."""
    mod_name, _, fn_name = ref.partition(":")
    if not fn_name:
        raise CheckSpecError(f"python checks are module:function, not {ref!r}")
    path = (world_root / f"{mod_name}.py") if world_root else None
    if path is not None and path.is_file():
        module = world_module(world_root, mod_name)
    else:
        module = importlib.import_module(mod_name)
    try:
        return getattr(module, fn_name)
    except AttributeError:
        raise CheckSpecError(f"{mod_name} has no function {fn_name!r}") from None
