"""What the CRM service's modules share: people and visibility, reading records (by id, slug or
reference, decorated for display), unique slugs, text and stage-history helpers.
"""
from __future__ import annotations

from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store
from apps.crm.schema import CLOSED_STAGES
from apps.crm.service.fields import MAX_TEXT, NOT_FOUND, OBJECTS, PREFIX, REQUIRED, SINGULAR, TABLE
from apps.crm.service.values import slugify


# ---------------------------------------------------------------- people and visibility
def _org_of(store: Store) -> str | None:
    me = directory.person(store, store.meta("default_user") or "")
    return me["org"] if me else None


def is_internal(store: Store, user: str) -> bool:
    """Company staff (the world user's org) see the CRM; external directory people don't."""
    p = directory.person(store, user)
    return p is not None and p["org"] == _org_of(store)


def _require_user(store: Store, user: str) -> None:
    if not is_internal(store, user):
        raise NotFound("There's no CRM for you here.")


def users(store: Store) -> list[dict]:
    """People who can own CRM records (the company's staff), by name."""
    return [dict(r) for r in store.all("SELECT slug, name, email, title FROM people WHERE org=? ORDER BY name, slug",
                                       (_org_of(store),))]


def _people_names(store: Store) -> dict[str, str]:
    return {r["slug"]: r["name"] for r in store.all("SELECT slug, name FROM people")}


def person_id(store: Store, value, field: str = "owner", user: str | None = None) -> str:
    """A staff member from an id, email or full name (``me`` = ``user``)."""
    v = str(value or "").strip()
    if not v:
        raise Invalid(REQUIRED, field)
    if v.lower() == "me" and user:
        v = user
    p = directory.person(store, v) or directory.by_email(store, v)
    if p is None:
        rows = store.all("SELECT slug FROM people WHERE lower(name)=? ORDER BY slug", (v.lower(),))
        p = directory.person(store, rows[0]["slug"]) if len(rows) == 1 else None
    if p is None:
        raise Invalid(f"“{v}” isn't a user in this org.", field)
    if p["org"] != _org_of(store):
        raise Invalid(f"{p['name']} isn't a CRM user in this org, so can't own records.", field)
    return p["slug"]


# ---------------------------------------------------------------- slugs
def _unique_slug(store: Store, obj: str, base: str) -> str:
    s, n = slugify(base), 2
    while store.scalar(f"SELECT 1 FROM {TABLE[obj]} WHERE slug=?", (s,)):
        s = f"{slugify(base)}-{n}"
        n += 1
    return s


# ---------------------------------------------------------------- records
def _check_obj(obj: str) -> str:
    if obj not in OBJECTS:
        raise NotFound("There's no such kind of record.")
    return obj


def url(obj: str, rid: int) -> str:
    return f"{PREFIX}/o/{obj}/{rid}"


def _get(store: Store, table: str, rid, not_found: str = NOT_FOUND, owner: str | None = None) -> dict:
    """A row of ``table`` by id (of ``owner``'s if given), else ``NotFound(not_found)``."""
    r = store.get(table, as_id(rid)) if as_id(rid) is not None else None
    if r is None or (owner is not None and r["owner"] != owner):
        raise NotFound(not_found)
    return r


def _row(store: Store, obj: str, rid) -> dict:
    return _get(store, TABLE[_check_obj(obj)], rid)


def resolve(store: Store, obj: str, value, field: str | None = None) -> int:
    """A record id from an id, a slug, or (accounts, opportunities) an exact name."""
    _check_obj(obj)
    field = field or SINGULAR[obj]
    if value is None or str(value).strip() == "":
        raise Invalid(REQUIRED, field)
    v = str(value).strip()
    t = TABLE[obj]
    if as_id(v) is not None and store.get(t, as_id(v)) is not None:
        return as_id(v)
    r = store.one(f"SELECT id FROM {t} WHERE slug=? ORDER BY id", (v,))
    if r is None and obj in ("accounts", "opportunities"):
        rows = store.all(f"SELECT id FROM {t} WHERE lower(name)=? ORDER BY id", (v.lower(),))
        r = rows[0] if len(rows) == 1 else None
    if r is None:
        raise Invalid(f"No {SINGULAR[obj]} matches “{v}”. Choose one from the list.", field)
    return r["id"]


def record_title(obj: str, r: dict) -> str:
    if obj in ("contacts", "leads"):
        return " ".join(x for x in (r.get("first_name"), r.get("last_name")) if x) or "(no name)"
    return r.get("name") or "(no name)"


def _decorate(store: Store, obj: str, r: dict, names: dict | None = None, accounts: dict | None = None,
              contacts: dict | None = None) -> dict:
    names = names if names is not None else _people_names(store)
    r = dict(r)
    r["obj"] = obj
    r["name"] = record_title(obj, r)          # the display name (a contact's "title" is their job title)
    r["url"] = url(obj, r["id"])
    for k in ("owner", "csm", "converted_by", "created_by"):
        if k in r:
            r[k + "_name"] = names.get(r[k], r[k] or "")
    if "account" in r:
        if accounts is not None:
            r["account_name"] = accounts.get(r["account"], "")
        else:
            a = store.get("crm_accounts", r["account"]) if r["account"] else None
            r["account_name"] = a["name"] if a else ""
    if obj == "opportunities":
        if contacts is not None:
            r["contact_name"] = contacts.get(r["contact"], "")
        else:
            c = store.get("crm_contacts", r["contact"]) if r.get("contact") else None
            r["contact_name"] = record_title("contacts", c) if c else ""
        r["closed"] = r["stage"] in CLOSED_STAGES
        r["won"] = r["stage"] == "Closed Won"
    if obj == "leads":
        r["converted"] = r["status"] == "Converted"
    return r


def get(store: Store, user: str, obj: str, rid) -> dict:
    """One record, decorated (``title``, ``url``, ``*_name`` for references)."""
    _require_user(store, user)
    return _decorate(store, obj, _row(store, obj, rid))


def by_slug(store: Store, user: str, obj: str, slug: str) -> dict:
    _require_user(store, user)
    _check_obj(obj)
    r = store.one(f"SELECT id FROM {TABLE[obj]} WHERE slug=? ORDER BY id", (slug,))
    if r is None:
        raise NotFound(NOT_FOUND)
    return get(store, user, obj, r["id"])


def _all(store: Store, obj: str) -> list[dict]:
    names = _people_names(store)
    accounts = {r["id"]: r["name"] for r in store.all("SELECT id, name FROM crm_accounts")}
    contacts = {r["id"]: record_title("contacts", dict(r))
                for r in store.all("SELECT id, first_name, last_name FROM crm_contacts")}
    return [_decorate(store, obj, r, names, accounts, contacts) for r in store.select(TABLE[obj])]


# ---------------------------------------------------------------- text and stage history
def _text(v, field: str, label: str, required: bool, limit: int = MAX_TEXT) -> str:
    s = " ".join(str(v or "").split()) if limit == MAX_TEXT else str(v or "").replace("\r\n", "\n").strip()
    if required and not s:
        raise Invalid(REQUIRED, field)
    if len(s) > limit:
        raise Invalid(f"{label} can be at most {limit} characters.", field)
    return s


def _stage_history(store: Store, caller: Caller, opp_id: int, frm: str | None, to: str, amount, close_date) -> None:
    store.insert("crm_stage_history", caller.actor, opportunity=opp_id, from_stage=frm, to_stage=to,
                 amount=amount, close_date=close_date, by=caller.user, at=store.now_iso())


# ---------------------------------------------------------------- search text
def _search_text(obj: str, r: dict) -> str:
    keys = {"accounts": ("name", "city", "website", "industry", "phone"),
            "contacts": ("title", "email", "account_name", "phone"),
            "leads": ("company", "email", "title", "phone"),
            "opportunities": ("name", "account_name", "stage", "next_step")}[obj]
    return " ".join([r["name"]] + [str(r.get(k) or "") for k in keys]).lower()
