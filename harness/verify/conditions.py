"""Field conditions used by checks: ``equals``, ``contains``, ``matches``,
``one_of``, ``approx``, ``date``, ``gt``/``gte``/``lt``/``lte``, ``empty``,
``not``, ``any`` (an element of a list field), ``ref`` (the field holds the
key of a record matching a nested query), ``says`` (the text states a value
the way the answer matcher reads an answer: ``{number: 8760000}``,
``{date: 2026-05-29}``, ``{text: Tidewatch, aliases: […]}``, ``{set: [3P, 4P]}``;
a hedge or a competing value fails; ``{number: {from: "checks:fn"}}`` computes
the value from the world; ``about: <regex>``: where the text names it, the
figure named is the value — "the deductible is $2.5M", not "the deductible is
$2.75M; $2.5M is another figure"; a text that never names it only states it).

A bare value means ``equals``. Strings compare after Unicode NFKC
normalisation; ``contains`` and ``matches`` ignore case.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date, datetime

from harness.verify.answer import normalise, states, states_by_label
from harness.verify.dates import parse_date

OPS = {"equals", "contains", "matches", "one_of", "approx", "tolerance", "date", "gt", "gte", "lt", "lte",
       "empty", "not", "any", "ref", "all", "says"}
SAYS = {"number": "number", "date": "date", "text": "string", "set": "set"}


class CheckSpecError(ValueError):
    """A check in a task file can't be understood."""


def norm(s: object) -> object:
    if isinstance(s, str):
        return unicodedata.normalize("NFKC", s).replace("\u00a0", " ").strip()
    return s


def _num(v) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.replace(",", "").replace("$", "").strip())
        except ValueError:
            return None
    return None


def _as_date(v) -> date | None:
    if isinstance(v, datetime):
        return v.date()
    if isinstance(v, date):
        return v
    if isinstance(v, str):
        return parse_date(v)
    return None


def says(value, arg) -> bool:
    if not isinstance(arg, dict) or len(set(arg) & set(SAYS)) != 1:
        raise CheckSpecError(f"says takes one of {sorted(SAYS)} (with tolerance or aliases), not {arg!r}")
    kind = next(k for k in arg if k in SAYS)
    expected = arg[kind]
    if isinstance(expected, dict):
        raise CheckSpecError(f"says: {kind}: {expected!r} was not computed (use it inside a check)")
    unknown = set(arg) - set(SAYS) - {"tolerance", "aliases", "unit", "about"}
    if unknown:
        raise CheckSpecError(f"says: unknown keys {sorted(unknown)}")
    text = "\n".join(map(str, value)) if isinstance(value, list) else value
    if not isinstance(text, str):
        return False
    kw = dict(tolerance=float(arg.get("tolerance", 0)), aliases=arg.get("aliases", ()),
              values=expected if kind == "set" else (), unit=arg.get("unit"))
    if arg.get("about") and re.search(arg["about"], normalise(text), re.I):
        # stated where it is named: "the deductible is $2.5M", not "the deductible is $2.75M … $2.5M is
        # another figure"; a reply that never names it ("USD 2500000 per occurrence") only states it
        # a date without a year ("Wednesday 15 April") is read in the expected date's year
        akw = {**kw, "today": parse_date(str(expected))} if kind == "date" else kw
        ok, _ = states_by_label(text, {"it": (arg["about"], expected)}, SAYS[kind], **akw)
        return ok and states(text, SAYS[kind], expected, **kw)[0]
    ok, _ = states(text, SAYS[kind], expected, **kw)
    return ok


def describe(cond) -> str:
    if not isinstance(cond, dict):
        return f"= {cond!r}"
    return ", ".join(f"{k} {v!r}" for k, v in cond.items())


def match(value, cond, resolve_ref: Callable[[dict], set] | None = None) -> bool:
    """Does ``value`` satisfy ``cond``?"""
    if not isinstance(cond, dict):
        if isinstance(value, list) and not isinstance(cond, list):
            return False
        return norm(value) == norm(cond) or (_num(value) is not None and _num(value) == _num(cond)
                                             and not isinstance(value, str))
    unknown = set(cond) - OPS
    if unknown:
        raise CheckSpecError(f"unknown condition {sorted(unknown)[0]!r}; use one of {sorted(OPS)}")
    for op, arg in cond.items():
        if op == "tolerance":
            continue
        if not _one(op, arg, value, cond, resolve_ref):
            return False
    return True


def _one(op, arg, value, cond, resolve_ref) -> bool:
    if op == "equals":
        return match(value, arg, resolve_ref)
    if op == "contains":
        if isinstance(value, list):
            return any(norm(x) == norm(arg) or (isinstance(x, str) and isinstance(arg, str)
                                                 and norm(x).lower() == norm(arg).lower()) for x in value)
        return isinstance(value, str) and norm(arg).lower() in norm(value).lower()
    if op == "matches":
        target = " ".join(value) if isinstance(value, list) else value
        return isinstance(target, str) and re.search(arg, norm(target), re.I | re.S) is not None
    if op == "one_of":
        return any(match(value, a, resolve_ref) for a in arg)
    if op == "approx":
        tol = float(cond.get("tolerance", 0))
        a, b = _num(value), _num(arg)
        return a is not None and b is not None and abs(a - b) <= tol
    if op == "date":
        a, b = _as_date(value), _as_date(arg)
        return a is not None and a == b
    if op in ("gt", "gte", "lt", "lte"):
        a, b = _num(value), _num(arg)
        if a is None or b is None:
            a, b = value, arg
            if not (isinstance(a, str) and isinstance(b, str)):
                return False
        return {"gt": a > b, "gte": a >= b, "lt": a < b, "lte": a <= b}[op]
    if op == "empty":
        is_empty = value in (None, "", [], {})
        return is_empty == bool(arg)
    if op == "not":
        return not match(value, arg, resolve_ref)
    if op == "any":
        return isinstance(value, list) and any(match(x, arg, resolve_ref) for x in value)
    if op == "all":
        return isinstance(value, list) and all(match(x, arg, resolve_ref) for x in value)
    if op == "says":
        return says(value, arg)
    if op == "ref":
        if resolve_ref is None:
            raise CheckSpecError("ref can't be used here")
        keys = resolve_ref(arg)
        return value is not None and str(value) in keys
    raise CheckSpecError(f"unknown condition {op!r}")
