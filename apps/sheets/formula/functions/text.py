"""Text: CONCATENATE, TEXTJOIN, LEN, LEFT/RIGHT/MID, UPPER/LOWER/TRIM, CHAR/CODE, SUBSTITUTE, FIND/SEARCH, TEXT, VALUE."""
from __future__ import annotations

import re

from apps.sheets.formula.base import MAX_TEXT, ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _bool, _fail, _Fail, _int, _joined, _scalar, _text
from apps.sheets.formula.display import _format_pattern
from apps.sheets.formula.functions.base import _flat, _fn
from apps.sheets.formula.inputs import _text_to_number
from apps.sheets.formula.matching import _wild_re


@_fn("CONCATENATE", "CONCAT", hi=None)
def _concatenate(*args: Arg) -> Value:
    return _joined([_text(v) for v in _flat(args)])


@_fn("TEXTJOIN", lo=3, hi=None)
def _textjoin(delim: Arg, ignore_empty: Arg, *args: Arg) -> Value:
    skip = _bool(ignore_empty)
    parts = [_text(v) for v in _flat(args)]
    return _joined([p for p in parts if not (skip and p == "")], _text(delim))


@_fn("LEN")
def _len(s: Arg) -> Value:
    return len(_text(s))


@_fn("LEFT", hi=2)
def _left(s: Arg, n: Arg = 1) -> Value:
    k = _int(n) if n is not None else 1
    if k < 0:
        _fail("#VALUE!", "Function LEFT parameter 2 value is negative.")
    return _text(s)[:k]


@_fn("RIGHT", hi=2)
def _right(s: Arg, n: Arg = 1) -> Value:
    k = _int(n) if n is not None else 1
    if k < 0:
        _fail("#VALUE!", "Function RIGHT parameter 2 value is negative.")
    return _text(s)[-k:] if k else ""


@_fn("MID", lo=3, hi=3)
def _mid(s: Arg, start: Arg, n: Arg) -> Value:
    i, k = _int(start), _int(n)
    if i < 1:
        _fail("#VALUE!", "Function MID parameter 2 value should be greater than or equal to 1.")
    if k < 0:
        _fail("#VALUE!", "Function MID parameter 3 value is negative.")
    return _text(s)[i - 1:i - 1 + k]


@_fn("UPPER")
def _upper(s: Arg) -> Value:
    return _text(s).upper()


@_fn("LOWER")
def _lower(s: Arg) -> Value:
    return _text(s).lower()


@_fn("CHAR")
def _char(n: Arg) -> Value:
    i = _int(n)
    if not 1 <= i <= 0x10FFFF:
        _fail("#VALUE!", f"Function CHAR parameter 1 value {i} is out of range.")
    return chr(i)


@_fn("CODE")
def _code(s: Arg) -> Value:
    t = _text(s)
    if not t:
        _fail("#VALUE!", "Function CODE parameter 1 should not be empty.")
    return ord(t[0])


@_fn("TRIM")
def _trim(s: Arg) -> Value:
    """Leading and trailing spaces gone and runs of spaces made one: only the space character, as in
    Sheets (tabs, line breaks and non-breaking spaces stay)."""
    return re.sub(" {2,}", " ", _text(s)).strip(" ")


@_fn("SUBSTITUTE", lo=3, hi=4)
def _substitute(s: Arg, old: Arg, new: Arg, instance: Arg = None) -> Value:
    text, a, b = _text(s), _text(old), _text(new)
    if not a:
        return text
    if instance is None:
        if len(text) + text.count(a) * (len(b) - len(a)) > MAX_TEXT:
            _fail("#VALUE!", f"Text result is longer than {MAX_TEXT:,} characters.")
        return text.replace(a, b)
    n = _int(instance)
    if n < 1:
        _fail("#VALUE!", "Function SUBSTITUTE parameter 4 should be greater than or equal to 1.")
    pos = -1
    for _ in range(n):
        pos = text.find(a, pos + 1)
        if pos < 0:
            return text
    return text[:pos] + b + text[pos + len(a):]


def _find_text(name: str, needle: Arg, hay: Arg, start: Arg, insensitive: bool) -> Value:
    n, h = _text(needle), _text(hay)
    i = _int(start) if start is not None else 1
    if i < 1 or i > len(h) + 1:
        _fail("#VALUE!", f"Function {name} parameter 3 is out of range.")
    if insensitive:
        m = _wild_re(n).search(h, i - 1)
        pos = m.start() if m else -1
    else:
        pos = h.find(n, i - 1)
    if pos < 0:
        _fail("#VALUE!", f"{name} cannot find '{n}' within '{h}'.")
    return pos + 1


@_fn("FIND", lo=2, hi=3)
def _find_fn(needle: Arg, hay: Arg, start: Arg = 1) -> Value:
    return _find_text("FIND", needle, hay, start, insensitive=False)


@_fn("SEARCH", lo=2, hi=3)
def _search(needle: Arg, hay: Arg, start: Arg = 1) -> Value:
    return _find_text("SEARCH", needle, hay, start, insensitive=True)


@_fn("TEXT", lo=2, hi=2)
def _text_fn(v: Arg, fmt: Arg) -> Value:
    x = _scalar(v)
    if isinstance(x, ErrorValue):
        raise _Fail(x)
    if isinstance(x, str):
        n = _text_to_number(x)
        if n is None or not x.strip():
            return x
        x = n
    if isinstance(x, bool):
        return _text(x)
    return _format_pattern(x or 0, _text(fmt))


@_fn("VALUE")
def _value(v: Arg) -> Value:
    x = _scalar(v)
    if isinstance(x, ErrorValue):
        raise _Fail(x)
    if isinstance(x, bool):
        _fail("#VALUE!", "VALUE parameter 1 expects text, got a boolean.")
    if isinstance(x, str):
        n = _text_to_number(x)
        if n is None:
            _fail("#VALUE!", f"VALUE parameter '{x}' cannot be parsed to number.")
        return n
    return x or 0
