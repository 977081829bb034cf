"""World facts: the figures, dates, names and rules a world's outline fixes, in one file.

``worlds/<w>/facts.yaml`` lists each fact with its value in the published world (variant 0) and
either a ``draw`` (how another variant picks it) or ``is`` (an expression of other facts: a fund
computed at the old rate, a shortfall that is the difference). ``constraints`` are expressions every
variant must satisfy (deadlines in order, a superseded figure that differs from the final one). A
variant ``k`` is drawn by a generator seeded with ``(world, revision, k)``; it redraws until every
constraint holds, so no variant contradicts its world::

    revision: 1
    variants: 240
    facts:
      gross_tonnage: {value: 58400, draw: {int: [42000, 86000], step: 100}}
      old_rate: {value: 2600, draw: {choice: [2450, 2500, 2600]}}
      fund: {value: 151840000, is: "gross_tonnage * old_rate"}
      hearing: {value: 2026-04-22, draw: {date: [2026-04-20, 2026-04-30], weekdays: true}}
    constraints:
      - "hearing < claims_deadline"

World files use facts as ``{{ expr | format }}`` (``template.py``). Errors name the file and fact:
``worlds/meridian/facts.yaml: facts.fund: value 151840000 but gross_tonnage * old_rate is 151840001``.
"""
from __future__ import annotations

import ast
import datetime as dt
import hashlib
import math
import operator
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

FACTS_FILE = "facts.yaml"
MAX_TRIES = 2000


class FactsError(Exception):
    """facts.yaml is invalid, an expression is wrong, or no draw satisfies the constraints."""


# ---------------------------------------------------------------- expressions
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_CMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
        ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.In: lambda a, b: a in b,
        ast.NotIn: lambda a, b: a not in b}


def _workdays(d: dt.date, n: int) -> dt.date:
    """``d`` moved by ``n`` working days (Monday–Friday)."""
    step = 1 if n >= 0 else -1
    while n:
        d += dt.timedelta(days=step)
        if d.weekday() < 5:
            n -= step
    return d


FUNCTIONS = {
    "round": round, "min": min, "max": max, "abs": abs, "int": int, "float": float, "len": len,
    "sum": sum, "sorted": sorted, "str": str, "floor": math.floor, "ceil": math.ceil,
    "days": lambda n: dt.timedelta(days=n), "workdays": _workdays,
    "weekday": lambda d: d.weekday(), "distinct": lambda *xs: len(set(map(_hashable, xs))) == len(xs),
    "date": lambda y, m, d: dt.date(y, m, d),
}


def _hashable(x):
    return tuple(map(_hashable, x)) if isinstance(x, list) else \
        tuple(sorted((k, _hashable(v)) for k, v in x.items())) if isinstance(x, dict) else x


@lru_cache(maxsize=4096)
def parse_expr(text: str) -> ast.Expression:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise FactsError(f"not an expression: {text!r} ({e.msg})") from None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Starred, ast.SetComp,
                             ast.DictComp, ast.GeneratorExp, ast.Await, ast.Yield, ast.JoinedStr)):
            raise FactsError(f"{text!r}: {type(node).__name__} is not allowed in a fact expression")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise FactsError(f"{text!r}: no private attributes")
        if isinstance(node, ast.ListComp) and (len(node.generators) != 1 or node.generators[0].is_async
                                               or not isinstance(node.generators[0].target, ast.Name)):
            raise FactsError(f"{text!r}: a list comprehension has one 'for name in …' (and any 'if's)")
    return tree


def names_in(text: str) -> set[str]:
    """The fact names an expression reads (its first-level names)."""
    tree = parse_expr(text)
    bound = {g.target.id for n in ast.walk(tree) if isinstance(n, ast.ListComp) for g in n.generators}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(FUNCTIONS) \
        - {"True", "False", "None"} - bound


def evaluate(text: str, env: dict):
    """The value of ``text`` (arithmetic, comparisons, ``and``/``or``/``not``, ``x if c else y``,
    indexing, ``a.b`` for a mapping's key, lists and ``[x for x in xs if …]``, the functions in
    ``FUNCTIONS``) over ``env``."""
    return _eval(parse_expr(text).body, env, text)


def _eval(node, env, text):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in FUNCTIONS:
            return FUNCTIONS[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise FactsError(f"{text!r}: unknown fact {node.id!r}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_eval(node.left, env, text), _eval(node.right, env, text))
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env, text)
        return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}[type(node.op)](v)
    if isinstance(node, ast.BoolOp):
        vals = (_eval(v, env, text) for v in node.values)
        return all(vals) if isinstance(node.op, ast.And) else any(vals)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env, text)
        for op, comp in zip(node.ops, node.comparators):
            right = _eval(comp, env, text)
            if not _CMP[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _eval(node.body if _eval(node.test, env, text) else node.orelse, env, text)
    if isinstance(node, ast.Call):
        fn = _eval(node.func, env, text)
        if not callable(fn):
            raise FactsError(f"{text!r}: {ast.unparse(node.func)} is not a function")
        return fn(*[_eval(a, env, text) for a in node.args])
    if isinstance(node, ast.Subscript):
        return _eval(node.value, env, text)[_eval(node.slice, env, text)]
    if isinstance(node, ast.Attribute):
        base = _eval(node.value, env, text)
        if isinstance(base, dict):
            if node.attr not in base:
                raise FactsError(f"{text!r}: no key {node.attr!r} in {ast.unparse(node.value)}")
            return base[node.attr]
        if isinstance(base, (dt.date, dt.datetime)) and node.attr in ("year", "month", "day"):
            return getattr(base, node.attr)
        raise FactsError(f"{text!r}: {ast.unparse(node.value)} has no {node.attr!r}")
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_eval(e, env, text) for e in node.elts]
    if isinstance(node, ast.ListComp):          # [c for c in claims if c.status != 'withdrawn']
        gen = node.generators[0]
        out = []
        for item in _eval(gen.iter, env, text):
            inner = {**env, gen.target.id: item}
            if all(_eval(cond, inner, text) for cond in gen.ifs):
                out.append(_eval(node.elt, inner, text))
        return out
    if isinstance(node, ast.Dict):
        return {_eval(k, env, text): _eval(v, env, text) for k, v in zip(node.keys, node.values)}
    raise FactsError(f"{text!r}: {type(node).__name__} is not allowed in a fact expression")


# ---------------------------------------------------------------- the file
@dataclass
class Fact:
    name: str
    value: object = None          # variant 0
    draw: dict | None = None
    is_: str | None = None
    deps: set = field(default_factory=set)


@dataclass
class FactSet:
    """A world's facts.yaml: ``facts`` in dependency order, ``constraints``, ``variants``."""
    world: str
    path: Path
    revision: int
    variants: int
    facts: dict[str, Fact]
    constraints: list[str]
    digest: str

    def values(self, variant: int = 0) -> dict:
        """The facts of ``variant`` (0: the published world)."""
        return dict(_values(self, variant))


DRAW_KINDS = {"int", "number", "choice", "date", "shuffle", "sample"}


def load_facts(world_root: Path, world: str | None = None) -> FactSet | None:
    """The facts of the world at ``world_root``, or None when it has no facts.yaml (one variant)."""
    path = Path(world_root) / FACTS_FILE
    if not path.is_file():
        return None
    data = path.read_bytes()
    return _load(str(path), data, world or Path(world_root).name)


@lru_cache(maxsize=16)
def _load(path: str, data: bytes, world: str) -> FactSet:
    try:
        raw = yaml.safe_load(data.decode("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise FactsError(f"{path}: invalid YAML: {e}") from None
    if not isinstance(raw, dict):
        raise FactsError(f"{path}: a mapping with revision, variants, facts and constraints")
    unknown = set(raw) - {"revision", "variants", "facts", "constraints"}
    if unknown:
        raise FactsError(f"{path}: unknown key {sorted(unknown)[0]!r} (keys: revision, variants, facts, constraints)")
    variants = raw.get("variants", 1)
    if not isinstance(variants, int) or variants < 1:
        raise FactsError(f"{path}: variants: a whole number ≥ 1, not {variants!r}")
    facts: dict[str, Fact] = {}
    for name, spec in (raw.get("facts") or {}).items():
        where = f"{path}: facts.{name}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", str(name)):
            raise FactsError(f"{where}: fact names are lower_snake_case")
        if not isinstance(spec, dict):
            spec = {"value": spec}
        extra = set(spec) - {"value", "draw", "is", "note"}
        if extra:
            raise FactsError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: value, draw, is, note)")
        if "draw" in spec and "is" in spec:
            raise FactsError(f"{where}: a fact is drawn or computed (is), not both")
        f = Fact(name, spec.get("value"), spec.get("draw"), spec.get("is"))
        if f.is_ is not None:
            try:
                f.deps = names_in(str(f.is_))
            except FactsError as e:
                raise FactsError(f"{where}.is: {e}") from None
        elif "value" not in spec:
            raise FactsError(f"{where}: a value (variant 0) is required unless the fact is computed (is)")
        if f.draw is not None:
            _check_draw(where, f)
        facts[name] = f
    for f in facts.values():
        for d in f.deps:
            if d not in facts:
                raise FactsError(f"{path}: facts.{f.name}.is: unknown fact {d!r}")
    ordered = _toposort(path, facts)
    constraints = [str(c) for c in (raw.get("constraints") or [])]
    for i, c in enumerate(constraints):
        try:
            for d in names_in(c):
                if d not in facts:
                    raise FactsError(f"unknown fact {d!r}")
        except FactsError as e:
            raise FactsError(f"{path}: constraints.{i}: {e}") from None
    fs = FactSet(world, Path(path), int(raw.get("revision", 1)), variants, ordered, constraints,
                 hashlib.sha256(data).hexdigest())
    v0 = _values(fs, 0)                      # checks the computed facts and constraints of variant 0
    for f in ordered.values():
        if f.is_ is not None and "value" in (raw["facts"][f.name] if isinstance(raw["facts"][f.name], dict) else {}) \
                and v0[f.name] != f.value:
            raise FactsError(f"{path}: facts.{f.name}: value {f.value!r} but {f.is_} is {v0[f.name]!r}")
    return fs


def _check_draw(where: str, f: Fact) -> None:
    d = f.draw
    if d in ("shuffle",):
        f.draw = d = {"shuffle": True}
    if not isinstance(d, dict) or not (set(d) & DRAW_KINDS) or len(set(d) & DRAW_KINDS) > 1:
        raise FactsError(f"{where}.draw: one of {', '.join(sorted(DRAW_KINDS))}")
    kind = next(k for k in d if k in DRAW_KINDS)
    extra = set(d) - {kind, "step", "decimals", "weekdays", "n"}
    if extra:
        raise FactsError(f"{where}.draw: unknown key {sorted(extra)[0]!r}")
    arg = d[kind]
    if kind in ("int", "number", "date") and not (isinstance(arg, list) and len(arg) == 2):
        raise FactsError(f"{where}.draw.{kind}: [low, high]")
    if kind in ("choice", "sample") and not (isinstance(arg, list) and arg):
        raise FactsError(f"{where}.draw.{kind}: a non-empty list")
    if kind == "shuffle" and not isinstance(f.value, list):
        raise FactsError(f"{where}.draw.shuffle: the value must be a list")


def _toposort(path, facts: dict[str, Fact]) -> dict[str, Fact]:
    out: dict[str, Fact] = {}
    state: dict[str, int] = {}

    def visit(name, chain):
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise FactsError(f"{path}: facts.{name}: computed from itself ({' → '.join(chain + [name])})")
        state[name] = 1
        for d in sorted(facts[name].deps):
            visit(d, chain + [name])
        state[name] = 2
        out[name] = facts[name]
    for name in facts:
        visit(name, [])
    return out


def _draw(f: Fact, rng: random.Random):
    d = f.draw
    if "int" in d:
        lo, hi = d["int"]
        step = d.get("step", 1)
        return lo + step * rng.randrange((hi - lo) // step + 1)
    if "number" in d:
        lo, hi = d["number"]
        return round(rng.uniform(lo, hi), d.get("decimals", 2))
    if "choice" in d:
        return rng.choice(d["choice"])
    if "sample" in d:
        return rng.sample(d["sample"], d.get("n", len(d["sample"])))
    if "date" in d:
        lo, hi = (x if isinstance(x, dt.date) else dt.date.fromisoformat(str(x)) for x in d["date"])
        days = [lo + dt.timedelta(days=i) for i in range((hi - lo).days + 1)]
        if d.get("weekdays"):
            days = [x for x in days if x.weekday() < 5]
        return rng.choice(days)
    if "shuffle" in d:
        out = list(f.value)
        rng.shuffle(out)
        return out
    raise FactsError(f"facts.{f.name}.draw: unknown kind")


def _values(fs: FactSet, variant: int) -> dict:
    if variant < 0 or variant >= fs.variants:
        raise FactsError(f"{fs.path}: the world has variants 0–{fs.variants - 1}, not {variant}")
    return dict(_values_cached(fs.digest, fs, variant))


_CACHE: dict = {}


def _values_cached(digest: str, fs: FactSet, variant: int) -> dict:
    key = (digest, fs.world, variant)
    if key not in _CACHE:
        _CACHE[key] = _solve(fs, variant)
    return _CACHE[key]


def _solve(fs: FactSet, variant: int) -> dict:
    for attempt in range(MAX_TRIES if variant else 1):
        env: dict = {}
        for f in fs.facts.values():
            if f.is_ is not None:
                try:
                    env[f.name] = evaluate(f.is_, env)
                except FactsError as e:
                    raise FactsError(f"{fs.path}: facts.{f.name}.is: {e}") from None
                except Exception as e:   # an arithmetic error in the world's own expression
                    raise FactsError(f"{fs.path}: facts.{f.name}.is: {f.is_}: {type(e).__name__}: {e}") from None
            elif variant == 0 or f.draw is None:
                env[f.name] = f.value
            else:
                rng = random.Random(f"{fs.world}/{fs.revision}/{variant}/{attempt}/{f.name}")
                env[f.name] = _draw(f, rng)
        failed = [c for c in fs.constraints if not _holds(fs, c, env)]
        if not failed:
            return env
        if variant == 0:
            raise FactsError(f"{fs.path}: variant 0 breaks the constraint {failed[0]!r}")
    raise FactsError(f"{fs.path}: no draw of variant {variant} satisfies the constraints "
                     f"in {MAX_TRIES} tries (last broken: {failed[0]!r})")


def _holds(fs, c, env) -> bool:
    try:
        return bool(evaluate(c, env))
    except FactsError as e:
        raise FactsError(f"{fs.path}: constraint {c!r}: {e}") from None


