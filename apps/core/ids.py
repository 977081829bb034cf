"""Ids and integers from outside (URLs, query strings, forms), kept to what SQLite holds.

SQLite's INTEGER is a signed 64-bit number; binding a Python int outside it
raises ``OverflowError`` deep inside a query. So every integer that comes from
a request is checked here first:

- ``<int:…>`` in any route is ``apps.web.routing.IdConverter``: ASCII digits
  only, ``0 ≤ n ≤ 2**63 - 1``; anything else (``2**63``, ``-1``, ``٣``, a
  5,000-digit string) does not match the route, so it is a plain 404;
- ``as_id(v)`` is the same test for a value read from a form or query string
  (``None`` when it is not an id);
- ``parse_int(v, field)`` is for integers a form must carry: a malformed or
  out-of-range one is an ``Invalid`` (422) naming the field.
"""
from __future__ import annotations

import re

from apps.core.errors import Invalid

INT64_MAX = 2**63 - 1
_ID = re.compile(r"[0-9]{1,19}")
_INT = re.compile(r"[+-]?[0-9]{1,19}")


def as_id(v: object) -> int | None:
    """``v`` as a row id (an int ``0 ≤ n < 2**63``, or its ASCII digits), else ``None``."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 0 <= v <= INT64_MAX else None
    if not isinstance(v, str):
        return None
    s = v.strip()
    if not _ID.fullmatch(s):
        return None
    n = int(s)
    return n if n <= INT64_MAX else None


def in_range(n: int) -> bool:
    return -INT64_MAX - 1 <= n <= INT64_MAX


def parse_int(v: object, field: str, *, what: str | None = None, minimum: int | None = 0) -> int:
    """An integer a request carries in ``field``; a malformed, out-of-range or (below
    ``minimum``) negative one is an ``Invalid`` (422) naming the field."""
    s = str(v).strip()
    n = int(s) if _INT.fullmatch(s) else None
    if n is None or not in_range(n) or (minimum is not None and n < minimum):
        shown = s if len(s) <= 40 else s[:40] + "…"
        raise Invalid(f"“{shown}” is not a valid {what or field}.", field)
    return n
