"""Gmail's search chips: the row of filters under the search box on a results page (From, Any time,
Has attachment, To, Is unread, …). Each chip writes its operator into the query, replacing the one
it set before, so the query stays the one source of what is searched."""
from __future__ import annotations

import re

from apps.core import people as directory
from apps.core.store.db import Store
from apps.mail.service import me

AGES = (("Any time", ""), ("Older than a week", "7d"), ("Older than a month", "1m"),   # older_than:<age>
        ("Older than 6 months", "6m"), ("Older than a year", "1y"))


def _drop(q: str, op: str) -> str:
    return re.sub(rf'(?:(?<=\s)|^)-?{op}:(?:"[^"]*"|\S+)\s*', "", q).strip()


def _has(q: str, token: str) -> bool:
    return re.search(rf'(?:(?<=\s)|^){re.escape(token)}(?=\s|$)', q) is not None


def with_op(q: str, op: str, value: str | None) -> str:
    """``q`` with its ``op:`` terms replaced by ``op:value`` (none when value is empty)."""
    rest = _drop(q, op)
    if not value:
        return rest
    v = f'"{value}"' if " " in value else value
    return f"{rest} {op}:{v}".strip()


def toggled(q: str, token: str) -> str:
    if _has(q, token):
        return re.sub(rf'(?:(?<=\s)|^){re.escape(token)}(?=\s|$)\s*', "", q).strip()
    return f"{q} {token}".strip()


def _current(q: str, op: str) -> str | None:
    m = re.search(rf'(?:(?<=\s)|^){op}:("([^"]*)"|\S+)', q)
    return (m.group(2) if m.group(2) is not None else m.group(1)) if m else None


def chips(store: Store, user: str, q: str) -> list[dict]:
    """The chips for query ``q``, in Gmail's order: each with its label, whether it is on, and either
    the query a click leads to (``q``) or a menu of (label, query, on, address)."""
    mine = me(store, user)
    people = sorted((p for p in directory.everyone(store) if p["email"] != mine), key=lambda p: p["name"].lower())

    def person(op: str, title: str) -> dict:
        cur = _current(q, op)
        shown = next((p["name"] for p in people if p["email"] == cur), cur)
        return {"id": op, "label": shown if cur else title, "on": cur is not None, "search": True,
                "menu": [(p["name"], with_op(q, op, p["email"]), p["email"] == cur, p["email"]) for p in people]
                + ([("Clear", with_op(q, op, None), False, "")] if cur else [])}

    age = next((label for label, v in AGES if v and _has(q, f"older_than:{v}")), None)
    return [
        person("from", "From"),
        {"id": "age", "label": age or "Any time", "on": age is not None, "search": False,
         "menu": [(label, with_op(q, "older_than", v), label == (age or "Any time"), "") for label, v in AGES]},
        {"id": "attachment", "label": "Has attachment", "on": _has(q, "has:attachment"),
         "q": toggled(q, "has:attachment")},
        person("to", "To"),
        {"id": "unread", "label": "Is unread", "on": _has(q, "is:unread"), "q": toggled(q, "is:unread")},
    ]
