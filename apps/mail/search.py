"""Gmail's search language, parsed into SQL over one user's mailbox.

Supported: ``from:`` ``to:`` ``cc:`` ``bcc:`` ``subject:`` ``has:attachment``
``filename:`` ``label:`` ``in:`` (inbox, sent, drafts, starred, archive, trash,
anywhere) ``is:`` (read, unread, starred) ``before:`` ``after:`` (also
``older:``/``newer:``), quoted phrases, free words, ``-term`` to exclude and
``OR`` between two terms. Every term must hold (AND). Values may be quoted:
``subject:"final survey"``. Trash is searched only with ``in:trash`` or
``in:anywhere``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from apps.core import people as directory
from apps.core.store.db import Store, utc_iso

TOKEN = re.compile(r'(-?)(?:(\w+):)?("([^"]*)"|\S+)')
DATE_FORMATS = ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y", "%b %d %Y", "%d %b %Y")
OPERATORS = {"from", "to", "cc", "bcc", "subject", "has", "filename", "label", "in", "is",
             "before", "after", "older", "newer", "older_than", "newer_than"}
AGE = re.compile(r"^(\d{1,4})([dmy])$", re.I)


class SearchError(ValueError):
    """The query can't be understood; the message says which part."""


@dataclass
class Term:
    op: str | None
    value: str
    negate: bool = False


def tokenize(q: str) -> list[Term | str]:
    out: list[Term | str] = []
    for m in TOKEN.finditer(q):
        neg, op, raw, quoted = m.group(1), m.group(2), m.group(3), m.group(4)
        value = quoted if quoted is not None else raw
        if op is None and raw == "OR":
            out.append("OR")
            continue
        if op is not None and op.lower() not in OPERATORS:
            # Unknown operators are plain text, as in Gmail.
            out.append(Term(None, f"{op}:{value}", bool(neg)))
            continue
        out.append(Term(op.lower() if op else None, value, bool(neg)))
    return out


def parse_date(value: str, op: str) -> datetime:
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            continue
    raise SearchError(f"Couldn't understand the date in “{op}:{value}”. Use a date like 2026/03/06.")


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


class Compiler:
    """Turns terms into a WHERE clause over ``mail_messages m`` joined with
    ``mail_boxes b`` (the user's box for that message)."""

    def __init__(self, store: Store, user: str):
        self.store = store
        self.user = user
        me = directory.person(store, user)
        self.me = me["email"] if me else ""
        self.scope: str | None = None

    def _people_match(self, value: str) -> list[str]:
        """Addresses a from:/to: value can mean: 'me', a person's name or slug, or text in the address."""
        v = value.lower()
        if v == "me":
            return [self.me]
        found = [r["email"] for r in self.store.all(
            "SELECT email FROM people WHERE slug=? OR lower(name) LIKE ?", (v, f"%{v}%"))]
        found += [r["email"] for r in self.store.all(
            "SELECT email FROM mail_contacts WHERE lower(name) LIKE ?", (f"%{v}%",))]
        return found

    def _addr_clause(self, columns: list[str], value: str) -> tuple[str, list]:
        emails = self._people_match(value)
        like = [] if value.lower() == "me" else [f"%{value.lower()}%"]
        parts, params = [], []
        for col in columns:
            if col == "sender":
                if like:
                    parts.append("m.sender LIKE ?")
                    params += like
                if emails:
                    parts.append(f"m.sender IN ({','.join('?' * len(emails))})")
                    params += emails
            else:
                conds = (["j.value LIKE ?"] if like else []) + \
                    ([f"j.value IN ({','.join('?' * len(emails))})"] if emails else [])
                parts.append(f'EXISTS (SELECT 1 FROM json_each(m."{col}") j WHERE {" OR ".join(conds) or "0"})')
                params += [*like, *emails]
        return "(" + " OR ".join(parts) + ")", params

    def term(self, t: Term) -> tuple[str, list]:
        op, v = t.op, t.value
        lv = v.lower()
        if op is None:
            like = f"%{lv}%"
            return ("(lower(m.subject) LIKE ? OR lower(m.body) LIKE ? OR m.sender LIKE ?"
                    " OR lower(m.sender_name) LIKE ? OR EXISTS (SELECT 1 FROM mail_attachments a"
                    " WHERE a.message=m.id AND lower(a.name) LIKE ?))", [like] * 5)
        if op == "from":
            return self._addr_clause(["sender"], v)
        if op == "to":
            to_sql, to_params = self._addr_clause(["to", "cc"], v)
            bcc_sql, bcc_params = self._addr_clause(["bcc"], v)     # bcc: only the sender sees it
            return f"({to_sql} OR (m.sender=? AND {bcc_sql}))", [*to_params, self.me, *bcc_params]
        if op == "cc":
            return self._addr_clause(["cc"], v)
        if op == "bcc":
            sql, params = self._addr_clause(["bcc"], v)
            return f"(m.sender=? AND {sql})", [self.me, *params]
        if op == "subject":
            return "lower(m.subject) LIKE ?", [f"%{lv}%"]
        if op == "has":
            if lv in ("attachment", "attachments"):
                return "EXISTS (SELECT 1 FROM mail_attachments a WHERE a.message=m.id)", []
            if lv in ("userlabels", "label"):
                return "b.labels <> '[]'", []
            raise SearchError(f"Unknown “has:{v}”. Try has:attachment.")
        if op == "filename":
            return "EXISTS (SELECT 1 FROM mail_attachments a WHERE a.message=m.id AND lower(a.name) LIKE ?)", [f"%{lv}%"]
        if op == "label":
            ids = [r["id"] for r in self.store.all("SELECT id, name FROM mail_labels WHERE owner=?", (self.user,))
                   if _slug(r["name"]) == _slug(v) or r["name"].lower() == lv]
            if not ids:
                return "0", []
            return ("EXISTS (SELECT 1 FROM json_each(b.labels) j WHERE j.value IN ("
                    + ",".join("?" * len(ids)) + "))"), ids
        if op == "in":
            return self._in(lv)
        if op == "is":
            if lv == "unread":
                return "b.read=0", []
            if lv == "read":
                return "b.read=1", []
            if lv == "starred":
                return "b.starred=1", []
            if lv == "snoozed":
                return "b.snoozed_until>?", [self.store.now_iso()]
            raise SearchError(f"Unknown “is:{v}”. Try is:unread, is:read or is:starred.")
        if op in ("older_than", "newer_than"):
            m = AGE.match(v.strip())
            if not m:
                raise SearchError(f"Couldn't understand “{op}:{v}”. Use a number and d, m or y, like {op}:7d.")
            n, unit = int(m.group(1)), m.group(2).lower()
            at = self.store.now() - timedelta(days=n * {"d": 1, "m": 30, "y": 365}[unit])
            return ("m.sent_at < ?" if op == "older_than" else "m.sent_at >= ?"), [utc_iso(at)]
        if op in ("before", "older", "after", "newer"):
            day = parse_date(v, op)
            at = utc_iso(datetime.combine(day.date(), time(0, 0)).replace(tzinfo=self.store.tz))
            return ("m.sent_at < ?" if op in ("before", "older") else "m.sent_at >= ?"), [at]
        raise SearchError(f"Unknown operator “{op}:”.")

    def _in(self, where: str) -> tuple[str, list]:
        if where in ("trash", "anywhere", "spam"):
            self.scope = where
            return {"trash": ("b.trashed=1", []), "spam": ("b.spam=1 AND b.trashed=0", [])}.get(where, ("1", []))
        if where == "snoozed":
            return "b.snoozed_until>?", [self.store.now_iso()]
        if where == "inbox":
            return "b.inbox=1", []
        if where == "sent":
            return "m.sender=?", [self.me]
        if where == "starred":
            return "b.starred=1", []
        if where in ("archive", "archived"):
            return "b.inbox=0", []
        if where in ("all", "all-mail", "allmail"):
            return "1", []
        if where in ("drafts", "draft"):
            return "0", []          # drafts are not messages; the Drafts folder lists them
        raise SearchError(f"Unknown “in:{where}”. Try in:inbox, in:sent, in:trash or in:anywhere.")


def compile_query(store: Store, user: str, q: str) -> tuple[str, list]:
    """WHERE clause (over m, b) and parameters for a search query."""
    terms = tokenize(q)
    if not terms:
        raise SearchError("Type something to search for.")
    comp = Compiler(store, user)
    clauses: list[tuple[str, list]] = []
    pending_or = False
    for t in terms:
        if t == "OR":
            if not clauses:
                raise SearchError("“OR” needs a term on each side.")
            pending_or = True
            continue
        sql, params = comp.term(t)
        if t.negate:
            sql = f"NOT ({sql})"
        if pending_or:
            prev_sql, prev_params = clauses.pop()
            sql, params = f"(({prev_sql}) OR ({sql}))", prev_params + params
            pending_or = False
        clauses.append((sql, params))
    if pending_or:
        raise SearchError("“OR” needs a term on each side.")
    if comp.scope is None:            # Gmail searches Trash and Spam only when asked to
        clauses.append(("b.trashed=0 AND b.spam=0", []))
    where = " AND ".join(f"({s})" for s, _ in clauses)
    params = [p for _, ps in clauses for p in ps]
    return where, params
