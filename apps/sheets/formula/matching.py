"""Criteria and lookups: wildcard text matching, SUMIF-style criteria, exact and approximate search."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _compare, _Fail, _is_number, _rank, _scalar
from apps.sheets.formula.inputs import _text_to_number


@lru_cache(maxsize=512)
def _wild_re(pattern: str) -> re.Pattern[str]:
    """``*`` any run, ``?`` one character, ``~`` escapes; case-insensitive."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "*?~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL)


def _text_matcher(pattern: str) -> Callable[[str], bool]:
    if any(ch in pattern for ch in "*?~"):
        rx = _wild_re(pattern)
        return lambda s: rx.fullmatch(s) is not None
    low = pattern.lower()
    return lambda s: s.lower() == low


ERROR_CODES = frozenset({"#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#ERROR!"})

_ORDER: dict[str, Callable[[object, object], bool]] = {
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,  # type: ignore[operator]
}


def _criterion(c: Arg) -> Callable[[Value], bool]:
    """Predicate for SUMIF-style criteria: values, "text" (wildcards), ">100", "<>x", "=5", ""."""
    c = _scalar(c)
    if isinstance(c, ErrorValue):
        raise _Fail(c)
    if c is None:
        return lambda v: v is None or v == ""
    if isinstance(c, bool):
        return lambda v: isinstance(v, bool) and v == c
    if not isinstance(c, str):
        return lambda v: _is_number(v) and v == c
    op = next((o for o in ("<>", ">=", "<=", "=", ">", "<") if c.startswith(o)), "")
    operand = c[len(op):]
    num = _text_to_number(operand) if operand.strip() else None
    if op in ("", "=", "<>"):
        eq: Callable[[Value], bool]
        if operand == "":
            eq = lambda v: v is None or v == ""  # noqa: E731
        elif operand.strip().upper() in ERROR_CODES:
            err = operand.strip().upper()
            eq = lambda v: isinstance(v, ErrorValue) and v.code == err  # noqa: E731
        elif num is not None:
            low = operand.strip().lower()
            eq = lambda v: ((_is_number(v) and v == num)  # noqa: E731
                            or (isinstance(v, str) and v.strip().lower() == low))
        elif operand.strip().upper() in ("TRUE", "FALSE"):
            flag = operand.strip().upper() == "TRUE"
            eq = lambda v: isinstance(v, bool) and v == flag  # noqa: E731
        else:
            match = _text_matcher(operand)
            eq = lambda v: isinstance(v, str) and match(v)  # noqa: E731
        return eq if op != "<>" else (lambda v: not eq(v))
    cmp = _ORDER[op]
    if num is not None:
        return lambda v: _is_number(v) and cmp(v, num)
    low = operand.lower()
    return lambda v: isinstance(v, str) and cmp(v.lower(), low)


def _find(key: Value, values: list[Value], mode: int, wildcards: bool = True) -> int | None:
    """Index of ``key`` in ``values``: mode 0 exact (text case-insensitive, wildcards optional),
    1 last value <= key in ascending data, -1 last value >= key in descending data."""
    if key is None or isinstance(key, ErrorValue):
        return None
    if mode == 0:
        if isinstance(key, str):
            match = _text_matcher(key) if wildcards else (lambda s, low=key.lower(): s.lower() == low)
            return next((i for i, v in enumerate(values) if isinstance(v, str) and match(v)), None)
        rk = _rank(key)
        return next((i for i, v in enumerate(values)
                     if v is not None and not isinstance(v, ErrorValue) and _rank(v) == rk and v == key), None)
    best, rk = None, _rank(key)
    for i, v in enumerate(values):
        if v is None or isinstance(v, ErrorValue) or _rank(v) != rk:
            continue
        c = _compare(v, key)
        if (c <= 0) if mode == 1 else (c >= 0):
            best = i
        else:
            break
    return best
