"""People, the CRM and groups: staff or customer, callers and accounts (from the CRM when the world
has one), assignment groups and their members.
"""
from __future__ import annotations

from apps.core import people as directory
from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.core.store.db import Store


def is_staff(store: Store, user: str) -> bool:
    """People of the world user's organisation work the desk; others are customers."""
    me = directory.person(store, user)
    home = directory.person(store, store.meta("default_user") or "")
    return bool(me and home and me["org"] == home["org"])


def has_table(store: Store, name: str, column: str = "slug") -> bool:
    if name not in store.tables:
        return False
    return column in store.tables[name].by_name


def crm_contact(store: Store, slug: str) -> dict | None:
    if not slug or not has_table(store, "crm_contacts"):
        return None
    return store.decode("crm_contacts", store.one("SELECT * FROM crm_contacts WHERE slug=?", (slug,)))


def crm_account(store: Store, slug: str) -> dict | None:
    if not slug or not has_table(store, "crm_accounts"):
        return None
    return store.decode("crm_accounts", store.one("SELECT * FROM crm_accounts WHERE slug=?", (slug,)))


def contact_name(c: dict) -> str:
    if c.get("name"):
        return c["name"]
    return " ".join(x for x in (c.get("first_name"), c.get("last_name")) if x) or c.get("slug", "")


def person_name(store: Store, slug: str) -> str:
    if not slug:
        return ""
    p = directory.person(store, slug)
    if p:
        return p["name"]
    c = crm_contact(store, slug)
    return contact_name(c) if c else slug


def caller_info(store: Store, slug: str) -> dict:
    """Display facts of a caller: a directory person or a CRM contact."""
    p = directory.person(store, slug) if slug else None
    if p:
        return {"id": slug, "name": p["name"], "email": p["email"], "title": p.get("title") or "", "crm": False}
    c = crm_contact(store, slug)
    if c:
        return {"id": slug, "name": contact_name(c), "email": c.get("email") or "", "title": c.get("title") or "",
                "crm": True, "account": _account_slug(store, c.get("account"))}
    return {"id": slug, "name": slug, "email": "", "title": "", "crm": False}


def _account_slug(store: Store, value: object) -> str:
    if isinstance(value, int) and has_table(store, "crm_accounts"):
        row = store.one("SELECT slug FROM crm_accounts WHERE id=?", (value,))
        return row[0] if row else ""
    return str(value or "")


def account_name(store: Store, slug: str) -> str:
    if not slug:
        return ""
    a = crm_account(store, slug)
    if a:
        return a.get("name") or slug
    o = directory.org(store, slug)
    return o["name"] if o else slug


def resolve_person(store: Store, who: str, field: str) -> str:
    """A directory person slug from a slug, an email or a full name."""
    raw = (who or "").strip()
    if not raw:
        return ""
    p = directory.person(store, raw) or (directory.by_email(store, raw) if "@" in raw else None)
    if p is None:
        p = store.decode("people", store.one("SELECT * FROM people WHERE lower(name)=?", (raw.lower(),)))
    if p is None:
        raise Invalid(f"“{raw}” is not a person in the directory.", field)
    return p["slug"]


def resolve_caller(store: Store, who: str, field: str = "caller_id") -> str:
    """A caller: a directory person or a CRM contact (slug, email or name)."""
    raw = (who or "").strip()
    if not raw:
        raise Invalid("Enter a Caller.", field)
    try:
        return resolve_person(store, raw, field)
    except Invalid:
        pass
    if has_table(store, "crm_contacts"):
        if crm_contact(store, raw):
            return raw
        for c in store.select("crm_contacts"):
            if raw.lower() in ((c.get("email") or "").lower(), contact_name(c).lower()):
                return c["slug"]
    raise Invalid(f"“{raw}” is not a person in the directory or a CRM contact.", field)


def resolve_account(store: Store, value: str, field: str = "account") -> str:
    raw = (value or "").strip()
    if not raw:
        return ""
    if has_table(store, "crm_accounts"):
        if crm_account(store, raw):
            return raw
        row = store.one("SELECT slug FROM crm_accounts WHERE lower(name)=?", (raw.lower(),))
        if row:
            return row[0]
        raise Invalid(f"“{raw}” is not a CRM account.", field)
    if directory.org(store, raw):
        return raw
    row = store.one("SELECT slug FROM orgs WHERE lower(name)=?", (raw.lower(),))
    return row[0] if row else raw


def groups(store: Store) -> list[dict]:
    out = []
    for grp in store.select("tk_groups", order="name"):
        grp["members"] = members(store, grp["id"])
        grp["member_names"] = {m: person_name(store, m) for m in grp["members"]}
        out.append(grp)
    return out


def members(store: Store, group_id: int | None) -> list[str]:
    if not group_id:
        return []
    rows = store.all("SELECT m.person FROM tk_group_members m JOIN people p ON p.slug=m.person "
                     "WHERE m.group_id=? ORDER BY p.name", (group_id,))
    return [r[0] for r in rows]


def group_by(store: Store, value: object, field: str = "assignment_group") -> int | None:
    """A group id from its id or name ("" / None = no group)."""
    if value in (None, ""):
        return None
    if as_id(value) is not None:
        row = store.get("tk_groups", as_id(value))
        if row:
            return row["id"]
    else:
        row = store.one("SELECT id FROM tk_groups WHERE lower(name)=?", (str(value).strip().lower(),))
        if row:
            return row[0]
    raise Invalid(f"“{value}” is not an assignment group.", field)


def group_name(store: Store, group_id: int | None) -> str:
    if not group_id:
        return ""
    row = store.get("tk_groups", group_id)
    return row["name"] if row else ""


def user_groups(store: Store, user: str) -> list[int]:
    return [r[0] for r in store.all("SELECT group_id FROM tk_group_members WHERE person=?", (user,))]
