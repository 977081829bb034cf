"""What a user typed into a cell, as a value: numbers as people write them, dates, booleans, text."""
from __future__ import annotations

import math
import re
from datetime import date
from functools import lru_cache

from apps.sheets.formula.base import _EPOCH, Value


_NUM_BODY = re.compile(r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?"
                       r"|\.[0-9]+(?:[eE][+-]?[0-9]+)?")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_US_DATE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")


def _tidy(x: int | float) -> int | float:
    """Round a float to 15 significant digits; whole values (below 1e15) become int."""
    if type(x) is float and math.isfinite(x):
        x = float(f"{x:.15g}")
        if x.is_integer() and abs(x) < 1e15:
            return int(x)
    return x


def _parse_number(s: str) -> int | float | None:
    """Numbers as users type them: "1,234.5", "-3", "12%", "$1,200", "(1,200)", "1e3"."""
    t = s.strip()
    neg = False
    if len(t) > 2 and t[0] == "(" and t[-1] == ")":
        neg, t = True, t[1:-1].strip()
    signed = t[:1] in ("+", "-")
    if signed:
        neg, t = neg ^ (t[0] == "-"), t[1:].lstrip()
    pct = t.endswith("%")
    if pct:
        t = t[:-1].rstrip()
    if t.startswith("$"):
        t = t[1:].lstrip()
        if not signed and t[:1] in ("+", "-"):
            neg, t = neg ^ (t[0] == "-"), t[1:]
    if not _NUM_BODY.fullmatch(t):
        return None
    digits = t.replace(",", "")
    x: int | float
    if pct or "." in digits or "e" in digits or "E" in digits:
        x = float(digits)
        if not math.isfinite(x):
            return None
        if pct:
            x /= 100
    else:
        x = int(digits)
    return _tidy(-x if neg else x)


def _parse_date(s: str) -> int | None:
    """"2026-03-24" or "3/24/2026" -> serial day number; None if not a valid date."""
    t = s.strip()
    m = _ISO_DATE.fullmatch(t)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    else:
        m = _US_DATE.fullmatch(t)
        if m is None:
            return None
        mo, d, y = int(m[1]), int(m[2]), int(m[3])
    try:
        return (date(y, mo, d) - _EPOCH).days
    except ValueError:
        return None


def _text_to_number(s: str) -> int | float | None:
    """Coercion of text in arithmetic: blank is 0, numbers and dates parse, anything else is None."""
    if not s.strip():
        return 0
    n = _parse_number(s)
    return n if n is not None else _parse_date(s)


@lru_cache(maxsize=65536)
def _constant(raw: str) -> Value:
    """Cached :func:`parse_input` for the workbook's non-formula cells (values are immutable)."""
    return parse_input(raw)


def parse_input(raw: str | None) -> Value:
    """Value of what a user typed (not a formula): number, boolean, date serial, text or None.

    A leading apostrophe forces text ("'00123" -> "00123"). Formula text ("=...") is returned as is;
    formulas are evaluated by :class:`Workbook`.
    """
    if raw is None or raw == "":
        return None
    if raw[0] == "'":
        return raw[1:]
    s = raw.strip()
    if not s or raw[0] == "=":
        return raw
    upper = s.upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    n = _parse_number(s)
    if n is not None:
        return n
    d = _parse_date(s)
    return d if d is not None else raw
