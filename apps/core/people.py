"""The world's directory: people and organisations, looked up by slug or address."""
from __future__ import annotations

from apps.core.store.db import Store

PALETTE = ("#1a73e8", "#d93025", "#188038", "#e37400", "#9334e6", "#007b83",
           "#c5221f", "#1967d2", "#b06000", "#3c4043", "#a142f4", "#12b5cb")


def person(store: Store, slug: str) -> dict | None:
    return store.decode("people", store.one("SELECT * FROM people WHERE slug=?", (slug,)))


def by_email(store: Store, email: str) -> dict | None:
    return store.decode("people", store.one("SELECT * FROM people WHERE email=?", (email.lower(),)))


def everyone(store: Store) -> list[dict]:
    return store.select("people", order="name")


def org(store: Store, slug: str) -> dict | None:
    return store.decode("orgs", store.one("SELECT * FROM orgs WHERE slug=?", (slug,)))


def initials(name: str) -> str:
    parts = [p for p in name.replace("Dr.", "").replace("Capt.", "").split() if p[:1].isalpha()]
    if not parts:
        return "?"
    return (parts[0][0] + (parts[-1][0] if len(parts) > 1 else "")).upper()


def color_for(key: str) -> str:
    h = 0
    for ch in key:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return PALETTE[h % len(PALETTE)]


def first_name(name: str) -> str:
    parts = [p for p in name.split() if p not in ("Dr.", "Capt.", "Hon.")]
    return parts[0] if parts else name
