"""Deterministic text triggers: keyword groups over a message's words.

``match: [[survey, inspection], [latest, send, copy]]`` accepts a message that
has a word starting with "survey" or "inspection" *and* one starting with
"latest", "send" or "copy". A multi-word alternative ("dry dock") must appear
as a phrase. Case, accents, punctuation and curly quotes are ignored.
"""
from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[a-z0-9$§][a-z0-9$§.,'-]*[a-z0-9]|[a-z0-9]")


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return text.replace("’", "'").replace("‘", "'")


def words(text: str) -> list[str]:
    return [w.strip(".,'") for w in _WORD.findall(normalize(text))]


def _has(alt: str, ws: list[str], flat: str) -> bool:
    alt = normalize(alt).strip()
    if " " in alt:
        return f" {alt}" in flat
    alt = alt.lstrip("$")
    return any(w.lstrip("$").startswith(alt) for w in ws)


def matches(text: str, groups: list[list[str]], unless: list[str] = ()) -> bool:
    ws = words(text)
    flat = " " + " ".join(ws)
    if any(_has(u, ws, flat) for u in unless):
        return False
    return all(any(_has(alt, ws, flat) for alt in group) for group in groups)
