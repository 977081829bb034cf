"""The filter chips under Drive's search box (Type, People, Modified): each option is the same search
with one of Drive's operators put in (``type:pdf``, ``owner:ana@…``, ``after:2026-11-29``), so a chip
and a typed operator are one thing."""
from __future__ import annotations

import re
from datetime import date, timedelta

from flask import url_for

from apps.core.store.db import Store
from apps.drive.service import OPERATOR

TYPES = (("Documents", "document"), ("Spreadsheets", "spreadsheet"), ("Presentations", "presentation"),
         ("PDFs", "pdf"), ("Photos & images", "image"), ("Videos", "video"), ("Audio", "audio"),
         ("Folders", "folder"))
_OPS = {"type": ("type",), "people": ("owner",), "modified": ("before", "after")}


def _tokens(q: str) -> list[str]:
    return re.findall(r'"[^"]*"|\S+', q or "")


def _op(token: str) -> tuple[str, str] | None:
    m = OPERATOR.match(token)
    return (m.group(1).lower(), m.group(2).lower()) if m else None


def _url(tokens: list[str]) -> str:
    q = " ".join(tokens).strip()
    return url_for("drive.search", q=q) if q else url_for("drive.my_drive")


def _modified_options(today: date) -> list[tuple[str, list[str]]]:
    day = lambda d: d.isoformat()  # noqa: E731
    return [("Today", [f"after:{day(today - timedelta(days=1))}"]),
            ("Last 7 days", [f"after:{day(today - timedelta(days=7))}"]),
            ("Last 30 days", [f"after:{day(today - timedelta(days=30))}"]),
            (f"This year ({today.year})", [f"after:{today.year - 1}-12-31"]),
            (f"Last year ({today.year - 1})", [f"after:{today.year - 2}-12-31", f"before:{today.year}-01-01"])]


def chips(store: Store, user: str, q: str) -> list[dict]:
    """The chips for a search ``q`` (empty on My Drive): ``key``, ``label`` (the chip's text: its name,
    or the option in force), ``active``, ``options`` [(label, url, selected)], ``clear`` (the url without it)."""
    tokens = _tokens(q)
    ops = {t: _op(t) for t in tokens}
    today = store.local(store.now()).date()
    people = store.all("SELECT DISTINCT p.slug, p.name, p.email FROM drive_items i JOIN people p ON p.slug=i.owner"
                       " WHERE i.trashed=0 ORDER BY p.slug=? DESC, p.name", (user,))
    choices = {
        "type": [(label, [f"type:{v}"]) for label, v in TYPES],
        "people": [("Me" if p["slug"] == user else p["name"], ["owner:me" if p["slug"] == user else f"owner:{p['email'].lower()}"]) for p in people][:12],
        "modified": _modified_options(today),
    }
    out = []
    for key, name in (("type", "Type"), ("people", "People"), ("modified", "Modified")):
        rest = [t for t in tokens if not (ops[t] and ops[t][0] in _OPS[key])]
        mine = sorted(t.lower() for t in tokens if ops[t] and ops[t][0] in _OPS[key])
        options, label = [], name
        for text, add in choices[key]:
            selected = bool(mine) and sorted(a.lower() for a in add) == mine
            if selected:
                label = text
            options.append((text, _url(rest + add), selected))
        if mine and label == name:
            label = ", ".join(mine)
        out.append({"key": key, "name": name, "label": label, "active": bool(mine), "options": options,
                    "clear": _url(rest)})
    return out

