"""``{{ expr | format }}`` in world and task files: facts (and a task's params) written into text.

``expr`` is a fact expression (``facts.py``: ``gross_tonnage``, ``copla_limit - fund``,
``claim.amount``); the formats turn its value into the words the file had:

| format | 160600000 / 2026-04-22 / 10250 | gives |
|---|---|---|
| (none) | the value as text | ``160600000`` |
| ``comma`` / ``comma:2`` | thousands separators, decimals | ``160,600,000`` / ``10,250.00`` |
| ``usd`` / ``usd:2`` | dollars | ``$160,600,000`` / ``$10,250.00`` |
| ``fixed:2`` | decimals, no separators | ``10250.00`` |
| ``millions`` / ``millions:2`` | ÷ 10⁶, shortest (or fixed) decimals | ``160.6`` / ``160.60`` |
| ``thousands`` / ``billions`` | ÷ 10³ / ÷ 10⁹ likewise | |
| ``short`` | shortest decimals | ``2.5`` |
| ``pct:1`` | a share (0.125) as a percentage | ``12.5`` |
| ``date:%B %-d, %Y`` | strftime | ``April 22, 2026`` |
| ``upper`` ``lower`` ``title`` ``slug`` | text | |
| ``words`` | a whole number 0–999,999 in words | ``twelve``, ``three hundred seventy-four`` |

Formats chain (``{{ x | millions | upper }}``). A file without ``{{`` is left as it is; a
literal ``{{`` is written ``{{ '{{' }}``. Errors name the file, the line and the expression.
"""
from __future__ import annotations

import datetime as dt
import re

from apps.core.facts import FactsError, evaluate

MARK = re.compile(r"\{\{(.+?)\}\}", re.S)
WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen twenty").split()


def _shortest(x: float, scale: float) -> str:
    v = x / scale
    s = f"{v:.6f}".rstrip("0").rstrip(".")
    return s or "0"


def _num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise FactsError(f"{v!r} is not a number")
    return v


def _comma(v, arg):
    d = int(arg) if arg else 0
    return f"{_num(v):,.{d}f}"


def _date(v, arg):
    if isinstance(v, str):
        v = dt.date.fromisoformat(v)
    if not isinstance(v, (dt.date, dt.datetime)):
        raise FactsError(f"{v!r} is not a date")
    return v.strftime(arg or "%Y-%m-%d")


def slug(text) -> str:
    """``Port Calder Tourism`` → ``port-calder-tourism`` (instance ids, the ``slug`` format)."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


def _fixed(v, arg):
    return f"{_num(v):.{int(arg or 0)}f}"


def _scaled(scale):
    def fmt(v, arg):
        return f"{_num(v) / scale:.{int(arg)}f}" if arg else _shortest(_num(v), scale)
    return fmt


def _usd(v, arg):
    v = _num(v)
    return ("-" if v < 0 else "") + "$" + _comma(abs(v), arg)


TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _words(v, arg):
    """A whole number in words, the way a letter spells it out: "three hundred seventy-four"."""
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 999_999:
        raise FactsError(f"{v!r}: words covers whole numbers 0–999,999")
    if v >= 1000:
        return _words(v // 1000, arg) + " thousand" + (" " + _words(v % 1000, arg) if v % 1000 else "")
    if v >= 100:
        return WORDS[v // 100] + " hundred" + (" " + _words(v % 100, arg) if v % 100 else "")
    if v > 20:
        return TENS[v // 10] + ("-" + WORDS[v % 10] if v % 10 else "")
    return WORDS[v]


FORMATS = {
    "comma": _comma, "usd": _usd, "fixed": _fixed, "date": _date, "slug": lambda v, arg: slug(v), "words": _words,
    "millions": _scaled(1e6), "thousands": _scaled(1e3), "billions": _scaled(1e9), "short": _scaled(1),
    "pct": lambda v, arg: (f"{_num(v) * 100:.{int(arg)}f}" if arg else _shortest(_num(v) * 100, 1)),
    "upper": lambda v, arg: str(v).upper(), "lower": lambda v, arg: str(v).lower(),
    "title": lambda v, arg: str(v).title(),
}


def _text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    return str(v)


def render_expr(body: str, env: dict) -> str:
    expr, *formats = [p.strip() for p in _split_pipes(body)]
    value = evaluate(expr, env)
    for spec in formats:
        name, _, arg = spec.partition(":")
        fn = FORMATS.get(name.strip())
        if fn is None:
            raise FactsError(f"unknown format {name.strip()!r} (formats: {', '.join(sorted(FORMATS))})")
        value = fn(value, arg)
    return _text(value)


def _split_pipes(body: str) -> list[str]:
    """``a | b:x`` → parts; a ``|`` inside quotes belongs to the expression."""
    parts, cur, quote = [], "", None
    for ch in body:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur += ch
        elif ch == "|":
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [*parts, cur]


def render(text: str, env: dict, where: str = "") -> str:
    """``text`` with every ``{{ … }}`` replaced; errors name ``where`` and the line."""
    if "{{" not in text:
        return text

    def sub(m):
        try:
            return render_expr(m.group(1), env)
        except FactsError as e:
            line = text.count("\n", 0, m.start()) + 1
            raise FactsError(f"{where}:{line}: {{{{{m.group(1)}}}}}: {e}") from None
        except Exception as e:
            line = text.count("\n", 0, m.start()) + 1
            raise FactsError(f"{where}:{line}: {{{{{m.group(1)}}}}}: {type(e).__name__}: {e}") from None
    return MARK.sub(sub, text)


def expressions(text: str) -> list[str]:
    """The expressions (before any format) a text uses."""
    return [_split_pipes(m.group(1))[0].strip() for m in MARK.finditer(text)]
