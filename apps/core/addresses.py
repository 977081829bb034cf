"""Mail addresses: parsing what people type, naming what we show."""
from __future__ import annotations

import re
from email.utils import getaddresses

from apps.core import people as directory
from apps.core.errors import Invalid
from apps.core.store.db import Store

ADDR = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
FIELD_LABEL = {"to": "To", "cc": "Cc", "bcc": "Bcc"}


def split(text: str | list[str] | None) -> list[str]:
    """Raw entries from a recipients field: a list, or text separated by , or ;."""
    if text is None:
        return []
    items = text if isinstance(text, list) else [text]
    out = []
    for item in items:
        for part in re.split(r"[,;\n]", item.replace("\r", "")):
            part = part.strip()
            if part:
                out.append(part)
    return out


def normalise(entry: str) -> str:
    """``"Name <a@b.c>"`` or ``a@b.c`` to ``a@b.c`` (lower case); unparseable text is returned as typed."""
    entry = entry.strip()
    if "<" in entry and entry.endswith(">"):
        _, addr = getaddresses([entry])[0]
        return addr.strip().lower() if addr else entry
    return entry.lower() if "@" in entry else entry


def parse_field(text: str | list[str] | None, field: str) -> list[str]:
    """Validated, de-duplicated addresses of one field; ``Invalid`` names the bad one."""
    out = []
    for entry in split(text):
        addr = normalise(entry)
        if not ADDR.match(addr):
            raise Invalid(
                f"The address “{entry}” in the “{FIELD_LABEL.get(field, field)}” field was not recognized. "
                "Please make sure that all addresses are properly formed.", field)
        if addr not in out:
            out.append(addr)
    return out


def lenient(text: str | list[str] | None) -> list[str]:
    """Entries as typed, for drafts: nothing is rejected until Send."""
    out = []
    for entry in split(text):
        addr = normalise(entry)
        if addr not in out:
            out.append(addr)
    return out


def name_for(store: Store, addr: str) -> str:
    p = directory.by_email(store, addr)
    if p:
        return p["name"]
    row = store.one("SELECT name FROM mail_contacts WHERE email=?", (addr.lower(),))
    return row["name"] if row and row["name"] else addr


def remember(store: Store, addr: str, name: str, actor: str) -> None:
    """Keep an outside address (and its display name) for autocomplete."""
    addr = addr.lower()
    if directory.by_email(store, addr):
        return
    row = store.one("SELECT id, name FROM mail_contacts WHERE email=?", (addr,))
    if row is None:
        store.insert("mail_contacts", actor, email=addr, name=name if name != addr else "")
    elif name and name != addr and not row["name"]:
        store.update("mail_contacts", row["id"], actor, name=name)


def suggestions(store: Store, user: str, q: str, limit: int = 8) -> list[dict]:
    """Directory people first, then other addresses, matching a name or address prefix."""
    q = q.strip().lower()
    if not q:
        return []
    like = f"%{q}%"
    out = []
    for p in store.all("SELECT slug, name, email, title, org FROM people WHERE slug<>? AND"
                       " (lower(name) LIKE ? OR email LIKE ?) ORDER BY"
                       " CASE WHEN lower(name) LIKE ? OR email LIKE ? THEN 0 ELSE 1 END, name",
                       (user, like, like, q + "%", q + "%")):
        out.append({"name": p["name"], "email": p["email"], "detail": p["title"], "slug": p["slug"]})
    for c in store.all("SELECT email, name FROM mail_contacts WHERE lower(name) LIKE ? OR email LIKE ?"
                       " ORDER BY email", (like, like)):
        out.append({"name": c["name"] or c["email"], "email": c["email"], "detail": "Other contact",
                    "slug": None})
    return out[:limit]


def display(store: Store, addrs: list[str], me: str | None = None) -> str:
    names = []
    for a in addrs:
        names.append("me" if me and a == me else name_for(store, a))
    return ", ".join(names)
