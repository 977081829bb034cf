"""Search: the query language (``from:``, ``in:``, ``before:``, ``after:``, ``on:``, ``during:``,
``is:saved`` and quoted phrases) and the messages, files and people it finds.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from apps.chat.service.base import _conv, _decorate, _decorate_messages, _people, member_ids
from apps.chat.service.conversations import conversation_by_name
from apps.core import people as directory
from apps.core.errors import Invalid
from apps.core.store.db import Store, utc_iso


class SearchError(Invalid):
    def __init__(self, message: str):
        super().__init__(message, "q")


TOKEN_RE = re.compile(r'(?P<op>[a-zA-Z]+):(?:"(?P<qv>[^"]*)"|(?P<v>\S+))|"(?P<phrase>[^"]*)"|(?P<word>\S+)')
OPERATORS = ("from", "in", "before", "after", "on", "during", "is")


def _day(store: Store, value: str, op: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise SearchError(f"“{op}:{value}”: dates look like 2026-04-03.") from None


def _day_start_utc(store: Store, d: date) -> str:
    return utc_iso(datetime.combine(d, time(0, 0), tzinfo=store.tz))


def _person_for_search(store: Store, user: str, value: str) -> str:
    v = value.lstrip("@").strip().lower()
    if v == "me":
        return user
    p = directory.person(store, v) or directory.by_email(store, v)
    if p is not None:
        return p["slug"]
    matches = [r["slug"] for r in store.all("SELECT slug, name FROM people ORDER BY name")
               if v.replace(".", " ") in r["name"].lower() or r["name"].lower().split()[0] == v]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise SearchError(f"“from:{value}” matches several people; use their id, like from:@{matches[0]}.")
    raise SearchError(f"“from:{value}”: there is no one called “{value}” in the directory.")


def parse_query(store: Store, user: str, q: str) -> dict:
    """``from:@person`` ``in:#channel`` (or ``in:@person`` for a DM) ``before:`` ``after:`` ``on:``
    dates, "quoted phrases" and words (all must match)."""
    out = {"from": [], "in": [], "before": None, "after": None, "terms": [], "saved": False}
    for m in TOKEN_RE.finditer(q or ""):
        op = (m.group("op") or "").lower()
        if op in OPERATORS:
            value = m.group("qv") if m.group("qv") is not None else m.group("v")
            if op == "is":
                if value.lower() != "saved":
                    raise SearchError(f"“is:{value}”: Chat searches only is:saved (messages you saved for later).")
                out["saved"] = True
            elif op == "from":
                out["from"].append(_person_for_search(store, user, value))
            elif op == "in":
                if value.startswith("@"):
                    other = _person_for_search(store, user, value)
                    dm = _dm_between(store, user, other)
                    if dm is None:
                        raise SearchError(f"“in:{value}”: you have no direct messages with {value[1:]}.")
                    out["in"].append(dm)
                else:
                    conv = conversation_by_name(store, user, value)
                    if conv is None:
                        raise SearchError(f"“in:{value}”: there is no channel called #{value.lstrip('#')}.")
                    out["in"].append(conv["id"])
            else:
                d = _day(store, value, op)
                if op == "before":
                    out["before"] = _day_start_utc(store, d)
                elif op == "after":
                    out["after"] = _day_start_utc(store, d + timedelta(days=1))
                else:                                        # on: / during: one day
                    out["after"] = _day_start_utc(store, d)
                    out["before"] = _day_start_utc(store, d + timedelta(days=1))
        elif m.group("phrase") is not None:
            if m.group("phrase").strip():
                out["terms"].append(m.group("phrase").strip())
        else:
            out["terms"].append(m.group(0))
    return out


def _dm_between(store: Store, user: str, other: str) -> int | None:
    want = sorted({user, other})
    for row in store.all("SELECT c.id FROM chat_conversations c JOIN chat_members m ON m.conversation=c.id"
                         " WHERE c.kind='dm' AND m.person=? ORDER BY c.id", (user,)):
        if sorted(member_ids(store, row["id"])) == want:
            return row["id"]
    return None


def search(store: Store, user: str, q: str, limit: int = 100) -> list[dict]:
    """Messages the user can see matching ``q``, newest first (raises ``SearchError``)."""
    p = parse_query(store, user, q)
    if not (p["terms"] or p["from"] or p["in"] or p["before"] or p["after"] or p["saved"]):
        return []
    return _matching(store, user, p, limit)


def _matching(store: Store, user: str, p: dict, limit: int, *, with_files: bool = False) -> list[dict]:
    """The messages the user can see that match the parsed query ``p`` (``with_files``: only those
    with files), newest first, decorated and each with its ``conv``."""
    where = ["m.deleted=0",
             "((c.kind='channel' AND c.private=0) OR EXISTS (SELECT 1 FROM chat_members x"
             " WHERE x.conversation=c.id AND x.person=?))"]
    params: list = [user]
    if with_files:
        where.append("EXISTS (SELECT 1 FROM chat_files f WHERE f.message=m.id)")
    if p["saved"]:
        where.append("EXISTS (SELECT 1 FROM chat_saved s WHERE s.message=m.id AND s.person=?)")
        params.append(user)
    if p["from"]:
        where.append(f"m.author IN ({','.join('?' * len(p['from']))})")
        params += p["from"]
    if p["in"]:
        where.append(f"m.conversation IN ({','.join('?' * len(p['in']))})")
        params += p["in"]
    if p["before"]:
        where.append("m.at < ?")
        params.append(p["before"])
    if p["after"]:
        where.append("m.at >= ?")
        params.append(p["after"])
    people = _people(store)
    for t in p["terms"]:
        # A name matches the mentions written as @person.id, as the reader sees them.
        slugs = [s for s, row in people.items() if t.lower() in row["name"].lower()]
        alt = " OR ".join("lower(m.text) LIKE ?" for _ in slugs)
        where.append(f"(lower(m.text) LIKE ?{' OR ' + alt if alt else ''})")
        params += [f"%{t.lower()}%"] + [f"%@{s}%" for s in slugs]
    rows = store.all("SELECT m.* FROM chat_messages m JOIN chat_conversations c ON c.id=m.conversation"
                     f" WHERE {' AND '.join(where)} ORDER BY m.at DESC, m.id DESC LIMIT ?", (*params, limit))
    found = _decorate_messages(store, user, [store.decode("chat_messages", r) for r in rows], people)
    convs: dict[int, dict] = {}
    for m in found:
        if m["conversation"] not in convs:
            convs[m["conversation"]] = _decorate(store, user, _conv(store, m["conversation"]), people)
        m["conv"] = convs[m["conversation"]]
    return found


def search_terms(store: Store, user: str, q: str) -> list[str]:
    try:
        return parse_query(store, user, q)["terms"]
    except SearchError:
        return []


def search_files(store: Store, user: str, q: str, limit: int = 50) -> list[dict]:
    """Files shared in messages the user can see whose name contains every word of ``q`` (its
    operators narrow the messages), newest first: ``name``, ``mime``, ``message`` (decorated, with
    ``conv``), ``item_id`` (Drive) or ``file_id`` (an upload). Raises ``SearchError``."""
    p = parse_query(store, user, q)
    words = [t.lower() for t in p["terms"]]
    out = []
    for m in _matching(store, user, {**p, "terms": []}, 1000, with_files=True):
        for f in m["files"]:
            name = f["item"]["name"] if f["item"] else (f["upload"] or {}).get("name")
            if not name or not all(w in name.lower() for w in words):
                continue
            out.append({"name": name, "mime": f["item"]["mime"] if f["item"] else f["upload"]["mime"],
                        "item_id": f["item_id"], "file_id": f["id"], "message": m})
            if len(out) >= limit:
                return out
    return out


def search_people(store: Store, q: str, limit: int = 30) -> list[dict]:
    """Directory people whose name, id, email or title contains every word of ``q``."""
    words = [w for w in (q or "").lower().split() if ":" not in w]
    if not words:
        return []
    out = []
    for p in directory.everyone(store):
        hay = " ".join(str(p[k] or "") for k in ("slug", "name", "email", "title")).lower()
        if all(w in hay for w in words):
            out.append(p)
    return out[:limit]
