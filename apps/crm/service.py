"""CRM service layer: accounts, contacts, leads, opportunities, activities, notes, list views,
the pipeline, reports and search.

Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and record ``caller.actor``.
Visibility: every CRM record is visible to, and editable by, the company's own staff (people in
the signed-in world user's org); anyone else gets ``NotFound`` for everything. Bad input raises
``Invalid`` (with ``errors`` = {field: message} for every bad field) and writes nothing.

Objects are named ``accounts``, ``contacts``, ``leads``, ``opportunities``. Records are dicts
with the table's columns plus display helpers (``title``, ``url``, ``owner_name``,
``account_name`` …). References (account, contact, owner) may be given as a row id, a world
slug, or (for people) a person id / email; for accounts also the exact account name.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store, utc_iso

PREFIX = "/crm"

from apps.crm.schema import (ACCOUNT_TYPES, ACTIVITY_KINDS, CLOSED_STAGES, EMAIL_RE, INDUSTRIES,  # noqa: E402,F401
                             LEAD_SOURCES, LEAD_STATUSES, LOSS_REASONS, OPEN_STAGES, OPP_TYPES, STAGE_PROBABILITY,
                             STAGES, TASK_STATUSES)

RELATED_TYPES = ("account", "contact", "lead", "opportunity")
OBJECTS = ("accounts", "contacts", "leads", "opportunities")
TABLE = {"accounts": "crm_accounts", "contacts": "crm_contacts", "leads": "crm_leads",
         "opportunities": "crm_opportunities"}
SINGULAR = {"accounts": "account", "contacts": "contact", "leads": "lead", "opportunities": "opportunity"}
PLURAL = {v: k for k, v in SINGULAR.items()}
LABEL = {"accounts": "Account", "contacts": "Contact", "leads": "Lead", "opportunities": "Opportunity"}
LABEL_PLURAL = {"accounts": "Accounts", "contacts": "Contacts", "leads": "Leads", "opportunities": "Opportunities"}

MAX_TEXT = 255
MAX_LONG = 32_000
NOT_FOUND = "That record doesn't exist or has been deleted."
REQUIRED = "Complete this field."


# ---------------------------------------------------------------- field metadata
def F(name, label, type="text", required=False, choices=None, list=False, edit=True, width=None):
    return {"name": name, "label": label, "type": type, "required": required, "choices": choices,
            "list": list, "edit": edit}


FIELDS: dict[str, list[dict]] = {
    "accounts": [
        F("name", "Account Name", required=True, list=True),
        F("type", "Type", "picklist", choices=ACCOUNT_TYPES, list=True),
        F("industry", "Industry", "picklist", choices=INDUSTRIES, list=True),
        F("website", "Website", "url"),
        F("phone", "Phone", "phone", list=True),
        F("city", "Billing City", list=True),
        F("country", "Billing Country"),
        F("employees", "Employees", "int"),
        F("arr", "Annual Recurring Revenue", "currency", list=True),
        F("owner", "Account Owner", "user", required=True, list=True),
        F("csm", "Customer Success Manager", "user"),
        F("description", "Description", "textarea"),
    ],
    "contacts": [
        F("first_name", "First Name"),
        F("last_name", "Last Name", required=True),
        F("account", "Account Name", "account", required=True, list=True),
        F("title", "Title", list=True),
        F("email", "Email", "email", list=True),
        F("phone", "Phone", "phone", list=True),
        F("owner", "Contact Owner", "user", required=True, list=True),
    ],
    "leads": [
        F("first_name", "First Name"),
        F("last_name", "Last Name", required=True),
        F("company", "Company", required=True, list=True),
        F("title", "Title", list=True),
        F("email", "Email", "email", list=True),
        F("phone", "Phone", "phone"),
        F("source", "Lead Source", "picklist", choices=LEAD_SOURCES, list=True),
        F("status", "Lead Status", "picklist", required=True, choices=LEAD_STATUSES[:4], list=True),
        F("industry", "Industry", "picklist", choices=INDUSTRIES),
        F("locations", "Locations", "int"),
        F("owner", "Lead Owner", "user", required=True, list=True),
        F("description", "Description", "textarea"),
    ],
    "opportunities": [
        F("name", "Opportunity Name", required=True, list=True),
        F("account", "Account Name", "account", required=True, list=True),
        F("type", "Type", "picklist", choices=OPP_TYPES),
        F("stage", "Stage", "picklist", required=True, choices=STAGES, list=True),
        F("amount", "Amount", "currency", required=True, list=True),
        F("close_date", "Close Date", "date", required=True, list=True),
        F("probability", "Probability (%)", "percent", edit=False),
        F("owner", "Opportunity Owner", "user", required=True, list=True),
        F("next_step", "Next Step"),
        F("loss_reason", "Loss Reason", "picklist", choices=LOSS_REASONS),
        F("contact", "Primary Contact", "contact"),
        F("description", "Description", "textarea"),
    ],
}
# Columns shown in list views, in order (names, plus "name" for the record title).
COLUMNS = {
    "accounts": ["name", "type", "industry", "city", "phone", "arr", "owner"],
    "contacts": ["name", "account", "title", "email", "phone", "owner"],
    "leads": ["name", "company", "title", "email", "source", "status", "owner", "created_at"],
    "opportunities": ["name", "account", "stage", "amount", "close_date", "owner"],
}
EXTRA_FIELDS = {"name": F("name", "Name"), "created_at": F("created_at", "Created", "datetime", edit=False),
                "modified_at": F("modified_at", "Last Modified", "datetime", edit=False)}
# The highlights panel under a record's title.
HIGHLIGHTS = {
    "accounts": ["type", "industry", "phone", "website", "arr", "owner"],
    "contacts": ["title", "account", "email", "phone", "owner"],
    "leads": ["company", "title", "email", "phone", "status", "owner"],
    "opportunities": ["account", "close_date", "amount", "probability", "owner"],
}
OPS = {"equals": "equals", "not_equals": "not equal to", "contains": "contains", "starts_with": "starts with",
       "lt": "less than", "gt": "greater than", "le": "less or equal", "ge": "greater or equal",
       "in": "is one of", "not_in": "is not one of"}
DATE_RANGES = {"TODAY": "Today", "THIS_WEEK": "This Week", "THIS_MONTH": "This Month", "NEXT_MONTH": "Next Month",
               "LAST_QUARTER": "Last Quarter", "THIS_QUARTER": "This Quarter", "NEXT_QUARTER": "Next Quarter",
               "THIS_YEAR": "This Year"}


def field(obj: str, name: str) -> dict | None:
    f = next((f for f in FIELDS.get(obj, []) if f["name"] == name), None)
    return f or EXTRA_FIELDS.get(name)


def filter_fields(obj: str) -> list[dict]:
    out = [f for f in FIELDS[obj] if f["type"] != "textarea"]
    if obj in ("contacts", "leads"):
        out = [EXTRA_FIELDS["name"]] + out
    return out + [EXTRA_FIELDS["created_at"]]


def ops_for(ftype: str) -> list[str]:
    if ftype in ("int", "currency", "percent"):
        return ["equals", "not_equals", "lt", "gt", "le", "ge"]
    if ftype in ("date", "datetime"):
        return ["equals", "lt", "gt", "le", "ge"]
    if ftype == "picklist":
        return ["equals", "not_equals", "in", "not_in"]
    if ftype == "user":
        return ["equals", "not_equals"]
    return ["equals", "not_equals", "contains", "starts_with"]


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


# ---------------------------------------------------------------- dates and numbers
def today(store: Store) -> date:
    return store.local(store.now()).date()


def quarter_range(d: date, offset: int = 0) -> tuple[date, date]:
    """First and last day of the (calendar = fiscal) quarter of ``d``, shifted by ``offset`` quarters."""
    q = (d.month - 1) // 3 + offset
    y = d.year + q // 4
    q = q % 4
    first = date(y, q * 3 + 1, 1)
    nxt = date(y + (1 if q == 3 else 0), 1 if q == 3 else q * 3 + 4, 1)
    return first, nxt - timedelta(days=1)


def month_range(d: date, offset: int = 0) -> tuple[date, date]:
    m = d.month - 1 + offset
    y, m = d.year + m // 12, m % 12 + 1
    first = date(y, m, 1)
    nxt = date(y + (m == 12), 1 if m == 12 else m + 1, 1)
    return first, nxt - timedelta(days=1)


def date_range(store: Store, keyword: str) -> tuple[date, date] | None:
    t = today(store)
    k = (keyword or "").strip().upper().replace(" ", "_")
    if k == "TODAY":
        return t, t
    if k == "THIS_WEEK":
        s = t - timedelta(days=(t.weekday() + 1) % 7)
        return s, s + timedelta(days=6)
    if k == "THIS_MONTH":
        return month_range(t)
    if k == "NEXT_MONTH":
        return month_range(t, 1)
    if k == "THIS_QUARTER":
        return quarter_range(t)
    if k == "NEXT_QUARTER":
        return quarter_range(t, 1)
    if k == "LAST_QUARTER":
        return quarter_range(t, -1)
    if k == "THIS_YEAR":
        return date(t.year, 1, 1), date(t.year, 12, 31)
    return None


def parse_date(value, field: str = "close_date", required: bool = True) -> str | None:
    """``YYYY-MM-DD`` (or ``M/D/YYYY``) → ``YYYY-MM-DD``."""
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return value.isoformat()
    v = str(value or "").strip()
    if not v:
        if required:
            raise Invalid(REQUIRED, field)
        return None
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            return date.fromisoformat(v).isoformat()
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", v)
        if m:
            return date(int(m.group(3)), int(m.group(1)), int(m.group(2))).isoformat()
    except ValueError:
        pass
    raise Invalid(f"Your entry does not match the allowed format: enter a date like 2026-06-30 (you entered “{v}”).",
                  field)


def parse_local_dt(store: Store, value, field: str = "at") -> str:
    """A world-local ``YYYY-MM-DDTHH:MM`` (or a date) → UTC ISO."""
    v = str(value or "").strip().replace(" ", "T")
    if not v:
        raise Invalid(REQUIRED, field)
    try:
        dt = datetime.fromisoformat(v) if "T" in v else datetime.combine(date.fromisoformat(v), time(9))
    except ValueError:
        raise Invalid(f"Enter a date and time like 2026-06-12T14:00 (you entered “{v}”).", field) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=store.tz)
    return utc_iso(dt)


def parse_amount(value, field: str = "amount", required: bool = False) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise Invalid(REQUIRED, field)
        return None
    if isinstance(value, bool):
        raise Invalid("Enter a number.", field)
    if isinstance(value, (int, float)):
        num = float(value)
    else:
        v = str(value).strip().replace(",", "").replace("$", "").replace("USD", "").strip()
        try:
            num = float(v)
        except ValueError:
            raise Invalid(f"Enter a number (you entered “{value}”).", field) from None
    if num != num or num in (float("inf"), float("-inf")):
        raise Invalid("Enter a number.", field)
    if num < 0:
        raise Invalid("Amount can't be negative.", field)
    if num != int(num):
        raise Invalid("Enter a whole-dollar amount.", field)
    if num > 10**13:
        raise Invalid("That number is too large.", field)
    return int(num)


def money(v) -> str:
    if v is None or v == "":
        return ""
    return f"${int(v):,}"


def money_short(v) -> str:
    v = int(v or 0)
    if v >= 1_000_000:
        s = f"{v / 1_000_000:.1f}".rstrip("0").rstrip(".")
        return f"${s}M"
    if v >= 1_000:
        return f"${round(v / 1000):,}K"
    return f"${v}"


def slugify(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")
    return s[:60] or "record"


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


def _row(store: Store, obj: str, rid) -> dict:
    _check_obj(obj)
    try:
        rid = int(rid)
    except (TypeError, ValueError):
        raise NotFound(NOT_FOUND) from None
    r = store.get(TABLE[obj], rid)
    if r is None:
        raise NotFound(NOT_FOUND)
    return r


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


# ---------------------------------------------------------------- validation
def _text(v, field: str, label: str, required: bool, limit: int = MAX_TEXT) -> str:
    s = " ".join(str(v or "").split()) if limit == MAX_TEXT else str(v or "").replace("\r\n", "\n").strip()
    if required and not s:
        raise Invalid(REQUIRED, field)
    if len(s) > limit:
        raise Invalid(f"{label} can be at most {limit} characters.", field)
    return s


def _clean_value(store: Store, user: str, obj: str, f: dict, value):
    name, t = f["name"], f["type"]
    if t in ("text", "phone", "url"):
        return _text(value, name, f["label"], f["required"])
    if t == "textarea":
        return _text(value, name, f["label"], f["required"], MAX_LONG)
    if t == "email":
        s = _text(value, name, f["label"], f["required"])
        if s and not EMAIL_RE.match(s):
            raise Invalid(f"Enter a valid email address, like name@example.com (you entered “{s}”).", name)
        return s.lower()
    if t == "picklist":
        s = str(value or "").strip()
        if not s:
            if f["required"]:
                raise Invalid(REQUIRED, name)
            return None if name == "loss_reason" else ""
        match = next((c for c in f["choices"] if c.lower() == s.lower()), None)
        if match is None:
            if obj == "leads" and name == "status" and s.lower() == "converted":
                raise Invalid("To mark a lead Converted, use Convert.", name)
            raise Invalid(f"“{s}” isn't a {f['label']} value. Choose one of: {', '.join(f['choices'])}.", name)
        return match
    if t == "int":
        if value is None or str(value).strip() == "":
            if f["required"]:
                raise Invalid(REQUIRED, name)
            return None
        try:
            n = int(str(value).replace(",", "").strip())
        except ValueError:
            raise Invalid(f"Enter a whole number (you entered “{value}”).", name) from None
        if n < 0:
            raise Invalid(f"{f['label']} can't be negative.", name)
        return n
    if t == "currency":
        n = parse_amount(value, name, f["required"])
        if n is None and name == "arr":
            return 0
        return n
    if t == "date":
        return parse_date(value, name, f["required"])
    if t == "user":
        if (value is None or str(value).strip() == "") and not f["required"]:
            return None
        return person_id(store, value, name, user)
    if t == "account":
        return resolve(store, "accounts", value, name)
    if t == "contact":
        if value is None or str(value).strip() == "":
            return None
        return resolve(store, "contacts", value, name)
    raise Invalid(f"{f['label']} can't be changed.", name)


def _clean(store: Store, user: str, obj: str, values: dict, existing: dict | None) -> dict:
    """Validate the fields given (all of them on create); returns clean values or raises
    ``Invalid`` listing every bad field."""
    errors: dict[str, str] = {}
    out: dict = {}
    known = {f["name"]: f for f in FIELDS[obj]}
    for k in values:
        if k not in known or not known[k]["edit"]:
            raise Invalid(f"{LABEL[obj]} has no editable field “{k}”.", k)
    for f in FIELDS[obj]:
        if not f["edit"]:
            continue
        if f["name"] not in values:
            if existing is not None:
                continue
            if f["required"] and f["type"] not in ("user",):
                errors[f["name"]] = REQUIRED
            continue
        try:
            out[f["name"]] = _clean_value(store, user, obj, f, values[f["name"]])
        except Invalid as e:
            errors[f["name"]] = e.message
    if obj == "opportunities":
        merged = {**(existing or {}), **out}
        stage = merged.get("stage")
        if "stage" not in errors and "amount" not in errors:
            if stage == "Closed Lost" and not merged.get("loss_reason") and "loss_reason" not in errors:
                errors["loss_reason"] = "Choose a Loss Reason: it's required when the stage is Closed Lost."
            if stage != "Closed Lost" and merged.get("loss_reason") and "loss_reason" in out:
                if values.get("loss_reason") not in (None, ""):
                    errors["loss_reason"] = "Loss Reason is only for opportunities that are Closed Lost."
            if stage == "Closed Won" and not (merged.get("amount") or 0) > 0:
                errors["amount"] = "Enter an Amount greater than 0 to close an opportunity as Won."
        if stage != "Closed Lost" and "stage" in out:
            out["loss_reason"] = None
        if merged.get("contact") and "contact" in out and merged.get("account") and "contact" not in errors:
            c = store.get("crm_contacts", merged["contact"])
            if c and c["account"] != merged["account"]:
                errors["contact"] = "The primary contact must work at the opportunity's account."
    if obj == "leads" and existing is None and out.get("status") == "Converted":
        errors["status"] = "To mark a lead Converted, use Convert."
    if errors:
        first = next(iter(errors))
        label = (field(obj, first) or {"label": first})["label"]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise Invalid(f"{label}: {errors[first]}{more}", first, errors)
    return out


def _stage_history(store: Store, caller: Caller, opp_id: int, frm: str | None, to: str, amount, close_date) -> None:
    store.insert("crm_stage_history", caller.actor, opportunity=opp_id, from_stage=frm, to_stage=to,
                 amount=amount, close_date=close_date, by=caller.user, at=store.now_iso())


# ---------------------------------------------------------------- create / update / delete
def create(store: Store, caller: Caller, obj: str, **values) -> int:
    """Create a record from field values (see ``FIELDS``); the owner defaults to the caller.
    An opportunity's probability comes from its stage and its first stage-history row is written."""
    _require_user(store, caller.user)
    _check_obj(obj)
    values = {k: v for k, v in values.items()}
    if not str(values.get("owner") or "").strip():
        values["owner"] = caller.user
    if obj == "leads" and not str(values.get("status") or "").strip():
        values["status"] = "New"
    clean = _clean(store, caller.user, obj, values, None)
    now = store.now_iso()
    with store.transaction():
        extra = {"slug": _unique_slug(store, obj, record_title(obj, clean)), "created_at": now,
                 "created_by": caller.user, "modified_at": now}
        if obj == "opportunities":
            extra["probability"] = STAGE_PROBABILITY[clean["stage"]]
        rid = store.insert(TABLE[obj], caller.actor, **clean, **extra)
        if obj == "opportunities":
            _stage_history(store, caller, rid, None, clean["stage"], clean.get("amount"), clean.get("close_date"))
    return rid


def update(store: Store, caller: Caller, obj: str, rid, **values) -> list[str]:
    """Change some fields; returns the names of the fields that changed. A stage change on an
    opportunity sets its probability and writes stage history. A converted lead is read-only."""
    _require_user(store, caller.user)
    row = _row(store, obj, rid)
    if obj == "leads" and row["status"] == "Converted":
        raise Invalid("This lead has been converted and can't be edited.", None)
    clean = _clean(store, caller.user, obj, values, row)
    with store.transaction():
        if obj == "opportunities" and "stage" in clean and clean["stage"] != row["stage"]:
            clean["probability"] = STAGE_PROBABILITY[clean["stage"]]
            _stage_history(store, caller, row["id"], row["stage"], clean["stage"],
                           clean.get("amount", row["amount"]), clean.get("close_date", row["close_date"]))
        changed = store.update(TABLE[obj], row["id"], caller.actor, **clean)
        if changed:
            store.update(TABLE[obj], row["id"], caller.actor, modified_at=store.now_iso())
    return changed


def set_stage(store: Store, caller: Caller, opp_id, stage: str, loss_reason: str | None = None) -> list[str]:
    """Move an opportunity to ``stage`` (the path, the pipeline board). Closed Lost needs a
    ``loss_reason``; Closed Won needs an amount > 0."""
    values = {"stage": stage}
    if loss_reason not in (None, ""):
        values["loss_reason"] = loss_reason
    return update(store, caller, "opportunities", opp_id, **values)


def delete(store: Store, caller: Caller, obj: str, rid) -> dict:
    """Delete a record. An account takes its contacts, opportunities, activities and notes with it
    (as in Salesforce); returns counts of what went."""
    _require_user(store, caller.user)
    row = _row(store, obj, rid)
    gone = {"contacts": 0, "opportunities": 0, "activities": 0, "notes": 0}
    with store.transaction():
        if obj == "accounts":
            for c in store.all("SELECT id FROM crm_contacts WHERE account=? ORDER BY id", (row["id"],)):
                _delete_one(store, caller, "contacts", c["id"], gone)
                gone["contacts"] += 1
            for o in store.all("SELECT id FROM crm_opportunities WHERE account=? ORDER BY id", (row["id"],)):
                _delete_one(store, caller, "opportunities", o["id"], gone)
                gone["opportunities"] += 1
        _delete_one(store, caller, obj, row["id"], gone)
    return gone


def _delete_one(store: Store, caller: Caller, obj: str, rid: int, gone: dict) -> None:
    rt = SINGULAR[obj]
    for a in store.all("SELECT id FROM crm_activities WHERE related_type=? AND related_id=? ORDER BY id", (rt, rid)):
        store.delete("crm_activities", a["id"], caller.actor)
        gone["activities"] += 1
    for n in store.all("SELECT id FROM crm_notes WHERE related_type=? AND related_id=? ORDER BY id", (rt, rid)):
        store.delete("crm_notes", n["id"], caller.actor)
        gone["notes"] += 1
    if obj == "opportunities":
        for h in store.all("SELECT id FROM crm_stage_history WHERE opportunity=? ORDER BY id", (rid,)):
            store.delete("crm_stage_history", h["id"], caller.actor)
    if obj == "contacts":
        for o in store.all("SELECT id FROM crm_opportunities WHERE contact=? ORDER BY id", (rid,)):
            store.update("crm_opportunities", o["id"], caller.actor, contact=None)
    store.delete(TABLE[obj], rid, caller.actor)


def clone_values(store: Store, user: str, obj: str, rid) -> dict:
    """The editable field values of a record, for "Clone" (a new record is made with ``create``)."""
    r = get(store, user, obj, rid)
    vals = {f["name"]: r.get(f["name"]) for f in FIELDS[obj] if f["edit"]}
    if obj == "leads":
        vals["status"] = "New" if r["status"] == "Converted" else r["status"]
    return vals


def change_owner(store: Store, caller: Caller, obj: str, ids, owner) -> int:
    """Bulk "Change Owner"; returns how many records changed (converted leads are skipped)."""
    _require_user(store, caller.user)
    _check_obj(obj)
    ids = [i for i in (ids or []) if str(i).strip()]
    if not ids:
        raise Invalid("Select at least one record.", "ids")
    slug = person_id(store, owner, "owner", caller.user)
    rows = [_row(store, obj, i) for i in ids]
    n = 0
    with store.transaction():
        for r in rows:
            if obj == "leads" and r["status"] == "Converted":
                continue
            if store.update(TABLE[obj], r["id"], caller.actor, owner=slug):
                store.update(TABLE[obj], r["id"], caller.actor, modified_at=store.now_iso())
                n += 1
    return n


# ---------------------------------------------------------------- lead conversion
def convert_lead(store: Store, caller: Caller, lead_id, *, account=None, account_name: str | None = None,
                 contact=None, create_opportunity: bool = True, opportunity_name: str | None = None,
                 close_date=None, stage: str = "Qualification", amount=None, owner=None) -> dict:
    """Convert a lead: into an existing ``account`` (id / slug / name) or a new one named
    ``account_name`` (default: the lead's company); into an existing ``contact`` of that account or a
    new one from the lead; optionally a new opportunity (name default "<Company> – New Business",
    close date default the end of this quarter, stage Qualification). The lead becomes Converted and
    read-only, linked to the three records. Returns {account, contact, opportunity} ids."""
    _require_user(store, caller.user)
    lead = _row(store, "leads", lead_id)
    if lead["status"] == "Converted":
        raise Invalid("This lead has already been converted.", None)
    errors: dict[str, str] = {}
    owner_slug = None
    try:
        owner_slug = person_id(store, owner or lead["owner"] or caller.user, "owner", caller.user)
    except Invalid as e:
        errors["owner"] = e.message
    acc_id = None
    if account not in (None, ""):
        try:
            acc_id = resolve(store, "accounts", account, "account")
        except Invalid as e:
            errors["account"] = e.message
    else:
        account_name = " ".join((account_name if account_name is not None else lead["company"] or "").split())
        if not account_name:
            errors["account_name"] = "Enter a name for the new account, or choose an existing one."
    contact_id = None
    if contact not in (None, ""):
        try:
            contact_id = resolve(store, "contacts", contact, "contact")
            if acc_id is None or store.get("crm_contacts", contact_id)["account"] != acc_id:
                errors["contact"] = "The existing contact must belong to the account you chose."
        except Invalid as e:
            errors["contact"] = e.message
    opp = None
    if create_opportunity:
        company = store.get("crm_accounts", acc_id)["name"] if acc_id else (account_name or lead["company"])
        opp = {"name": opportunity_name if opportunity_name is not None else f"{company} – New Business",
               "stage": stage or "Qualification", "type": "New Business",
               "close_date": close_date if close_date not in (None, "") else quarter_range(today(store))[1],
               "amount": amount if amount not in (None, "") else 0, "owner": owner_slug or caller.user,
               "account": acc_id or 0}
        try:
            opp["name"] = _text(opp["name"], "opportunity_name", "Opportunity Name", True)
        except Invalid as e:
            errors["opportunity_name"] = e.message
        try:
            opp["close_date"] = parse_date(opp["close_date"], "close_date")
        except Invalid as e:
            errors["close_date"] = e.message
        try:
            opp["amount"] = parse_amount(opp["amount"], "amount") or 0
        except Invalid as e:
            errors["amount"] = e.message
        if opp["stage"] not in OPEN_STAGES:
            errors["stage"] = f"A converted lead's opportunity starts in an open stage ({', '.join(OPEN_STAGES)})."
    if errors:
        first = next(iter(errors))
        raise Invalid(errors[first], first, errors)
    now = store.now_iso()
    with store.transaction():
        if acc_id is None:
            acc_id = store.insert("crm_accounts", caller.actor, slug=_unique_slug(store, "accounts", account_name),
                                  name=account_name, industry=lead["industry"] or "", type="Prospect",
                                  phone=lead["phone"] or "", owner=owner_slug, csm=None, arr=0,
                                  description="", created_at=now, created_by=caller.user, modified_at=now)
        if contact_id is None:
            contact_id = store.insert("crm_contacts", caller.actor,
                                      slug=_unique_slug(store, "contacts", record_title("leads", lead)),
                                      account=acc_id, first_name=lead["first_name"] or "", last_name=lead["last_name"],
                                      title=lead["title"] or "", email=lead["email"] or "", phone=lead["phone"] or "",
                                      owner=owner_slug, created_at=now, created_by=caller.user, modified_at=now)
        opp_id = None
        if opp is not None:
            opp_id = store.insert("crm_opportunities", caller.actor,
                                  slug=_unique_slug(store, "opportunities", opp["name"]), name=opp["name"],
                                  account=acc_id, type="New Business", stage=opp["stage"], amount=opp["amount"],
                                  close_date=opp["close_date"], probability=STAGE_PROBABILITY[opp["stage"]],
                                  owner=owner_slug, next_step="", loss_reason=None, contact=contact_id,
                                  lead=lead["id"], description=lead["description"] or "", created_at=now,
                                  created_by=caller.user, modified_at=now)
            _stage_history(store, caller, opp_id, None, opp["stage"], opp["amount"], opp["close_date"])
        store.update("crm_leads", lead["id"], caller.actor, status="Converted", converted_account=acc_id,
                     converted_contact=contact_id, converted_opportunity=opp_id, converted_at=now,
                     converted_by=caller.user, modified_at=now)
        # the lead's activities and notes follow it to the new contact (as in Salesforce)
        for a in store.all("SELECT id FROM crm_activities WHERE related_type='lead' AND related_id=? ORDER BY id",
                           (lead["id"],)):
            store.update("crm_activities", a["id"], caller.actor, related_type="contact", related_id=contact_id,
                         account=acc_id)
        for n in store.all("SELECT id FROM crm_notes WHERE related_type='lead' AND related_id=? ORDER BY id",
                           (lead["id"],)):
            store.update("crm_notes", n["id"], caller.actor, related_type="contact", related_id=contact_id,
                         account=acc_id)
    return {"account": acc_id, "contact": contact_id, "opportunity": opp_id}


def account_matches(store: Store, user: str, company: str, limit: int = 5) -> list[dict]:
    """Existing accounts whose name looks like ``company`` (for the Convert dialog)."""
    _require_user(store, user)
    words = [w for w in re.findall(r"[a-z0-9]+", (company or "").lower()) if len(w) > 2][:3]
    if not words:
        return []
    where = " OR ".join("lower(name) LIKE ?" for _ in words)
    rows = store.all(f"SELECT * FROM crm_accounts WHERE {where} ORDER BY name, id LIMIT ?",
                     (*[f"%{w}%" for w in words], limit))
    return [_decorate(store, "accounts", store.decode("crm_accounts", r)) for r in rows]


# ---------------------------------------------------------------- related lists
def _related_key(store: Store, user: str, related_type: str, related_id) -> tuple[str, dict]:
    if related_type not in RELATED_TYPES:
        raise Invalid("Choose what the activity is about.", "related_type")
    obj = PLURAL[related_type]
    return obj, get(store, user, obj, related_id)


def _account_of(store: Store, obj: str, r: dict) -> int | None:
    if obj == "accounts":
        return r["id"]
    if obj in ("contacts", "opportunities"):
        return r["account"]
    return r.get("converted_account")


def contacts_of(store: Store, user: str, account_id) -> list[dict]:
    acc = get(store, user, "accounts", account_id)
    return [_decorate(store, "contacts", r) for r in store.select("crm_contacts", "account=?", (acc["id"],),
                                                                  order="last_name, first_name, id")]


def opportunities_of(store: Store, user: str, account_id) -> list[dict]:
    acc = get(store, user, "accounts", account_id)
    return [_decorate(store, "opportunities", r) for r in store.select("crm_opportunities", "account=?", (acc["id"],),
                                                                       order="close_date DESC, id")]


def opportunities_of_contact(store: Store, user: str, contact_id) -> list[dict]:
    """The opportunities that name this contact as their primary contact."""
    c = get(store, user, "contacts", contact_id)
    return [_decorate(store, "opportunities", r) for r in store.select("crm_opportunities", "contact=?", (c["id"],),
                                                                       order="close_date DESC, id")]


def stage_history(store: Store, user: str, opp_id) -> list[dict]:
    """Stage changes, newest first: from_stage, to_stage, amount, close_date, by (+by_name), at."""
    opp = get(store, user, "opportunities", opp_id)
    names = _people_names(store)
    out = []
    for h in store.select("crm_stage_history", "opportunity=?", (opp["id"],), order="at DESC, id DESC"):
        out.append({**h, "by_name": names.get(h["by"], h["by"])})
    return out


# ---------------------------------------------------------------- activities and notes
def log_activity(store: Store, caller: Caller, related_type: str, related_id, kind: str, subject: str,
                 body: str = "", *, at=None, due=None, status: str | None = None, who=None) -> int:
    """Log a call or a meeting (``at``: world-local date-time, default now) or create a task
    (``due`` date, ``status`` Open/Completed, ``who`` = assigned to, default the caller) on a record."""
    _require_user(store, caller.user)
    obj, rec = _related_key(store, caller.user, related_type, related_id)
    if obj == "leads" and rec["status"] == "Converted":
        raise Invalid("This lead has been converted; log activity on its contact instead.", None)
    if kind not in ACTIVITY_KINDS:
        raise Invalid("Choose Log a Call, New Task or New Event.", "kind")
    errors = {}
    try:
        subject = _text(subject, "subject", "Subject", True)
    except Invalid as e:
        errors["subject"] = e.message
    try:
        body = _text(body, "body", "Comments", False, MAX_LONG)
    except Invalid as e:
        errors["body"] = e.message
    values = {}
    try:
        values["who"] = person_id(store, who or caller.user, "who", caller.user)
    except Invalid as e:
        errors["who"] = e.message
    if kind == "task":
        try:
            values["due"] = parse_date(due, "due", required=False)
        except Invalid as e:
            errors["due"] = e.message
        st = status or "Open"
        if st not in TASK_STATUSES:
            errors["status"] = "A task's status is Open or Completed."
        values["status"] = st
        values["at"] = store.now_iso()
    else:
        try:
            values["at"] = parse_local_dt(store, at, "at") if at not in (None, "") else store.now_iso()
        except Invalid as e:
            errors["at"] = e.message
        values["status"] = "Completed"
        values["due"] = None
    if errors:
        first = next(iter(errors))
        raise Invalid(errors[first], first, errors)
    return store.insert("crm_activities", caller.actor, kind=kind, subject=subject, body=body,
                        related_type=related_type, related_id=rec["id"], created_by=caller.user,
                        account=_account_of(store, obj, rec), **values)


def _activity(store: Store, user: str, aid) -> dict:
    _require_user(store, user)
    try:
        a = store.get("crm_activities", int(aid))
    except (TypeError, ValueError):
        a = None
    if a is None:
        raise NotFound("That activity doesn't exist or was deleted.")
    return a


def set_task_status(store: Store, caller: Caller, activity_id, status: str) -> None:
    a = _activity(store, caller.user, activity_id)
    if a["kind"] != "task":
        raise Invalid("Only tasks have a status.", "status")
    if status not in TASK_STATUSES:
        raise Invalid("A task's status is Open or Completed.", "status")
    store.update("crm_activities", a["id"], caller.actor, status=status)


def delete_activity(store: Store, caller: Caller, activity_id) -> None:
    a = _activity(store, caller.user, activity_id)
    store.delete("crm_activities", a["id"], caller.actor)


def add_note(store: Store, caller: Caller, related_type: str, related_id, title: str, body: str = "") -> int:
    _require_user(store, caller.user)
    obj, rec = _related_key(store, caller.user, related_type, related_id)
    if obj == "leads" and rec["status"] == "Converted":
        raise Invalid("This lead has been converted; add notes to its contact instead.", None)
    title = _text(title, "title", "Title", False)
    body = _text(body, "body", "Note", False, MAX_LONG)
    if not title and not body:
        raise Invalid("Write a title or some text for the note.", "title")
    now = store.now_iso()
    return store.insert("crm_notes", caller.actor, related_type=related_type, related_id=rec["id"],
                        title=title or body.split("\n")[0][:80], body=body, author=caller.user, at=now,
                        account=_account_of(store, obj, rec), modified_at=now)


def delete_note(store: Store, caller: Caller, note_id) -> None:
    _require_user(store, caller.user)
    try:
        n = store.get("crm_notes", int(note_id))
    except (TypeError, ValueError):
        n = None
    if n is None:
        raise NotFound("That note doesn't exist or was deleted.")
    store.delete("crm_notes", n["id"], caller.actor)


def _related_titles(store: Store, items: list[dict]) -> None:
    cache: dict = {}
    for it in items:
        k = (it["related_type"], it["related_id"])
        if k not in cache:
            obj = PLURAL[it["related_type"]]
            r = store.get(TABLE[obj], it["related_id"])
            cache[k] = (record_title(obj, r), url(obj, r["id"])) if r else ("(deleted)", "")
        it["related_title"], it["related_url"] = cache[k]


def timeline(store: Store, user: str, obj: str, rid) -> dict:
    """A record's activity timeline: ``upcoming`` (open tasks, future meetings; soonest first) and
    ``past`` (newest first), each item an activity or a note (``kind`` = "note"). An account's
    timeline includes activity on its contacts and opportunities."""
    rec = get(store, user, obj, rid)
    if obj == "accounts":
        acts = store.select("crm_activities", "account=? OR (related_type='account' AND related_id=?)",
                            (rec["id"], rec["id"]))
        notes = store.select("crm_notes", "account=? OR (related_type='account' AND related_id=?)",
                             (rec["id"], rec["id"]))
    else:
        acts = store.select("crm_activities", "related_type=? AND related_id=?", (SINGULAR[obj], rec["id"]))
        notes = store.select("crm_notes", "related_type=? AND related_id=?", (SINGULAR[obj], rec["id"]))
    names = _people_names(store)
    now = store.now_iso()
    t = today(store).isoformat()
    upcoming, past = [], []
    for a in acts:
        a = {**a, "who_name": names.get(a["who"], a["who"] or "")}
        if a["kind"] == "task":
            a["overdue"] = a["status"] == "Open" and bool(a["due"]) and a["due"] < t
            a["sort"] = a["due"] or a["at"][:10]
            (upcoming if a["status"] == "Open" else past).append(a)
        else:
            a["sort"] = a["at"]
            (upcoming if a["at"] > now else past).append(a)
    for n in notes:
        past.append({**n, "kind": "note", "subject": n["title"], "who": n["author"],
                     "who_name": names.get(n["author"], n["author"]), "sort": n["at"]})
    upcoming.sort(key=lambda a: (a["sort"], a["id"]))
    past.sort(key=lambda a: (a["sort"], a["kind"], a["id"]), reverse=True)
    _related_titles(store, upcoming + past)
    return {"upcoming": upcoming, "past": past}


def my_tasks(store: Store, user: str, limit: int = 8) -> list[dict]:
    """Open tasks assigned to ``user``, soonest due first."""
    _require_user(store, user)
    rows = store.select("crm_activities", "kind='task' AND status='Open' AND who=?", (user,),
                        order="coalesce(due, '9999'), id")[:limit]
    t = today(store).isoformat()
    for r in rows:
        r["overdue"] = bool(r["due"]) and r["due"] < t
    _related_titles(store, rows)
    return rows


# ---------------------------------------------------------------- list views
BUILTIN_VIEWS = {
    "accounts": [
        {"id": "all", "name": "All Accounts", "filters": [], "sort": "name"},
        {"id": "mine", "name": "My Accounts", "filters": [{"field": "owner", "op": "equals", "value": "me"}],
         "sort": "name"},
        {"id": "customers", "name": "Customers", "filters": [{"field": "type", "op": "equals", "value": "Customer"}],
         "sort": "-arr"},
    ],
    "contacts": [
        {"id": "all", "name": "All Contacts", "filters": [], "sort": "name"},
        {"id": "mine", "name": "My Contacts", "filters": [{"field": "owner", "op": "equals", "value": "me"}],
         "sort": "name"},
    ],
    "leads": [
        {"id": "open", "name": "All Open Leads",
         "filters": [{"field": "status", "op": "not_in", "value": "Converted,Unqualified"}], "sort": "-created_at"},
        {"id": "mine", "name": "My Open Leads",
         "filters": [{"field": "owner", "op": "equals", "value": "me"},
                     {"field": "status", "op": "not_in", "value": "Converted,Unqualified"}], "sort": "-created_at"},
        {"id": "all", "name": "All Leads", "filters": [], "sort": "-created_at"},
    ],
    "opportunities": [
        {"id": "all", "name": "All Opportunities", "filters": [], "sort": "close_date"},
        {"id": "open", "name": "All Open Opportunities",
         "filters": [{"field": "stage", "op": "not_in", "value": "Closed Won,Closed Lost"}], "sort": "close_date"},
        {"id": "mine", "name": "My Open Opportunities",
         "filters": [{"field": "owner", "op": "equals", "value": "me"},
                     {"field": "stage", "op": "not_in", "value": "Closed Won,Closed Lost"}], "sort": "close_date"},
        {"id": "quarter", "name": "Closing This Quarter",
         "filters": [{"field": "close_date", "op": "equals", "value": "THIS_QUARTER"}], "sort": "close_date"},
        {"id": "won", "name": "Closed Won", "filters": [{"field": "stage", "op": "equals", "value": "Closed Won"}],
         "sort": "-close_date"},
    ],
}


def list_views(store: Store, user: str, obj: str) -> list[dict]:
    """The views in the list-view picker: the standard ones, then the user's saved ones (``id`` = row id)."""
    _require_user(store, user)
    _check_obj(obj)
    saved = [{"id": str(v["id"]), "name": v["name"], "filters": v["filters"], "sort": v["sort"], "saved": True}
             for v in store.select("crm_views", "object=? AND owner=?", (obj, user), order="name, id")]
    return [dict(v, saved=False) for v in BUILTIN_VIEWS[obj]] + saved


def get_view(store: Store, user: str, obj: str, view_id: str | None) -> dict:
    views = list_views(store, user, obj)
    if not view_id:
        return views[0]
    v = next((x for x in views if x["id"] == str(view_id)), None)
    if v is None:
        raise NotFound("That list view doesn't exist.")
    return v


def clean_filters(store: Store, user: str, obj: str, filters) -> list[dict]:
    """Validate ``[{field, op, value}]``; raises ``Invalid`` naming the bad filter."""
    out = []
    for i, flt in enumerate(filters or []):
        fname, op, value = flt.get("field"), flt.get("op") or "equals", str(flt.get("value") or "").strip()
        f = field(obj, fname) if fname else None
        if f is None or (fname not in [x["name"] for x in filter_fields(obj)]):
            raise Invalid(f"Filter {i + 1}: choose a field to filter by.", "filters")
        if op not in ops_for(f["type"]):
            raise Invalid(f"Filter {i + 1}: “{OPS.get(op, op)}” doesn't work with {f['label']}.", "filters")
        if f["type"] in ("date", "datetime"):
            if value.upper().replace(" ", "_") in DATE_RANGES:
                value = value.upper().replace(" ", "_")
            else:
                value = parse_date(value, "filters")
        elif f["type"] in ("int", "currency", "percent"):
            try:
                float(value.replace(",", "").replace("$", ""))
            except ValueError:
                raise Invalid(f"Filter {i + 1}: {f['label']} needs a number.", "filters") from None
        elif f["type"] == "user":
            if value.lower() != "me":
                value = person_id(store, value, "filters", user)
            else:
                value = "me"
        elif f["type"] == "picklist":
            vals = [v.strip() for v in value.split(",") if v.strip()] if op in ("in", "not_in") else [value]
            bad = [v for v in vals if v not in f["choices"] and not (fname == "status" and v == "Converted")]
            if bad or not vals:
                raise Invalid(f"Filter {i + 1}: “{', '.join(bad) or value}” isn't a {f['label']} value.", "filters")
        elif not value:
            raise Invalid(f"Filter {i + 1}: enter a value for {f['label']}.", "filters")
        out.append({"field": fname, "op": op, "value": value})
    return out


def describe_filter(store: Store, obj: str, flt: dict) -> str:
    f = field(obj, flt["field"]) or {"label": flt["field"], "type": "text"}
    v = flt["value"]
    if v in DATE_RANGES:
        v = DATE_RANGES[v]
    elif f["type"] == "user":
        v = "me" if v == "me" else (directory.person(store, v) or {"name": v})["name"]
    elif flt["op"] in ("in", "not_in"):
        v = ", ".join(x.strip() for x in v.split(","))
    return f"{f['label']} {OPS.get(flt['op'], flt['op'])} {v}"


def _cmp_value(obj: str, r: dict, fname: str):
    f = field(obj, fname) or {"type": "text"}
    if fname == "name":
        return (r["name"] or "").lower()
    if f["type"] == "account":
        return (r.get("account_name") or "").lower()
    if f["type"] == "contact":
        return (r.get("contact_name") or "").lower()
    if f["type"] == "user":
        return r.get(fname)
    if f["type"] in ("int", "currency", "percent"):
        return r.get(fname)
    if f["type"] == "datetime":
        return r.get(fname)
    v = r.get(fname)
    return v.lower() if isinstance(v, str) else v


def _match(store: Store, user: str, obj: str, r: dict, flt: dict) -> bool:
    f = field(obj, flt["field"])
    op, value = flt["op"], flt["value"]
    v = _cmp_value(obj, r, flt["field"])
    t = f["type"]
    if t == "user":
        want = user if value == "me" else value
        return (v == want) == (op == "equals")
    if t in ("date", "datetime"):
        if not v:
            return False
        d = v[:10] if t == "date" else store.local(v).date().isoformat()
        rng = date_range(store, value)
        lo, hi = (rng[0].isoformat(), rng[1].isoformat()) if rng else (value, value)
        return {"equals": lo <= d <= hi, "lt": d < lo, "le": d <= hi, "gt": d > hi, "ge": d >= lo}[op]
    if t in ("int", "currency", "percent"):
        num = float(value.replace(",", "").replace("$", ""))
        if v is None:
            return op == "not_equals"
        return {"equals": v == num, "not_equals": v != num, "lt": v < num, "gt": v > num, "le": v <= num,
                "ge": v >= num}[op]
    sv = (v or "").lower() if isinstance(v, str) or v is None else str(v).lower()
    val = value.lower()
    if op == "equals":
        return sv == val
    if op == "not_equals":
        return sv != val
    if op == "contains":
        return val in sv
    if op == "starts_with":
        return sv.startswith(val)
    vals = [x.strip().lower() for x in value.split(",")]
    return (sv in vals) == (op == "in")


def _search_text(obj: str, r: dict) -> str:
    keys = {"accounts": ("name", "city", "website", "industry", "phone"),
            "contacts": ("title", "email", "account_name", "phone"),
            "leads": ("company", "email", "title", "phone"),
            "opportunities": ("name", "account_name", "stage", "next_step")}[obj]
    return " ".join([r["name"]] + [str(r.get(k) or "") for k in keys]).lower()


def list_records(store: Store, user: str, obj: str, *, view: str | None = None, filters=None, q: str = "",
                 sort: str | None = None, page: int = 1, per_page: int = 50) -> dict:
    """A list view: the view's filters plus ``filters`` (each {field, op, value}; dates take
    ``THIS_QUARTER`` etc.; owner takes ``me``), a search ``q`` within the list, ``sort`` (a column
    name, ``-`` prefix for descending; default the view's), a page. Returns {rows, total, page,
    pages, view, filters, sort, first, last}."""
    _require_user(store, user)
    _check_obj(obj)
    v = get_view(store, user, obj, view)
    extra = clean_filters(store, user, obj, filters or [])
    allf = list(v["filters"]) + extra
    rows = _all(store, obj)
    rows = [r for r in rows if all(_match(store, user, obj, r, f) for f in allf)]
    q = " ".join((q or "").lower().split())
    if q:
        rows = [r for r in rows if all(w in _search_text(obj, r) for w in q.split())]
    sort = sort or v["sort"] or "name"
    desc = sort.startswith("-")
    key_name = sort.lstrip("-")
    if field(obj, key_name) is None:
        raise Invalid(f"Can't sort by “{key_name}”.", "sort")
    names = _people_names(store)

    def sk(r):
        val = _cmp_value(obj, r, key_name)
        if (field(obj, key_name) or {}).get("type") == "user":
            val = names.get(val, val or "").lower()
        return (val is None or val == "", val if val is not None else "")
    rows.sort(key=lambda r: r["id"])
    rows.sort(key=lambda r: r["name"].lower())
    if desc:
        nonnull = [r for r in rows if not sk(r)[0]]
        nulls = [r for r in rows if sk(r)[0]]
        nonnull.sort(key=lambda r: sk(r)[1], reverse=True)
        rows = nonnull + nulls
    else:
        rows.sort(key=sk)
    total = len(rows)
    per_page = max(1, min(int(per_page or 50), 200))
    pages = max(1, (total + per_page - 1) // per_page)
    page = max(1, min(int(page or 1), pages))
    chunk = rows[(page - 1) * per_page: page * per_page]
    return {"rows": chunk, "total": total, "page": page, "pages": pages, "view": v, "filters": extra,
            "all_filters": allf, "sort": sort, "first": (page - 1) * per_page + 1 if total else 0,
            "last": (page - 1) * per_page + len(chunk)}


def save_view(store: Store, caller: Caller, obj: str, name: str, filters=None, sort: str = "") -> int:
    """Save a list view (name unique among the caller's views of that object)."""
    _require_user(store, caller.user)
    _check_obj(obj)
    name = " ".join((name or "").split())
    if not name:
        raise Invalid("Enter a name for the list view.", "name")
    if len(name) > 40:
        raise Invalid("List view names can be at most 40 characters.", "name")
    taken = [v["name"].lower() for v in list_views(store, caller.user, obj)]
    if name.lower() in taken:
        raise Invalid(f"You already have a list view named “{name}”.", "name")
    clean = clean_filters(store, caller.user, obj, filters or [])
    sort = (sort or "").strip()
    if sort and field(obj, sort.lstrip("-")) is None:
        raise Invalid(f"Can't sort by “{sort}”.", "sort")
    return store.insert("crm_views", caller.actor, object=obj, name=name, owner=caller.user, filters=clean,
                        sort=sort, created_at=store.now_iso())


def delete_view(store: Store, caller: Caller, view_id) -> None:
    _require_user(store, caller.user)
    try:
        v = store.get("crm_views", int(view_id))
    except (TypeError, ValueError):
        v = None
    if v is None or v["owner"] != caller.user:
        raise NotFound("That list view doesn't exist.")
    store.delete("crm_views", v["id"], caller.actor)


# ---------------------------------------------------------------- pipeline, reports, dashboard
def _opps_for(store: Store, user: str, scope: str, period: str) -> list[dict]:
    if scope not in ("all", "mine"):
        raise Invalid("Show my opportunities or all of them.", "scope")
    rows = _all(store, "opportunities")
    if scope == "mine":
        rows = [r for r in rows if r["owner"] == user]
    if period not in ("all", ""):
        rng = date_range(store, period)
        if rng is None:
            raise Invalid("Choose a close-date range like this quarter.", "period")
        lo, hi = rng[0].isoformat(), rng[1].isoformat()
        rows = [r for r in rows if r["close_date"] and lo <= r["close_date"] <= hi]
    return rows


def pipeline(store: Store, user: str, scope: str = "all", period: str = "THIS_QUARTER") -> list[dict]:
    """The kanban board: one column per stage with its opportunities (closing soonest first),
    ``count`` and ``total`` amount."""
    _require_user(store, user)
    rows = _opps_for(store, user, scope, period)
    cols = []
    for st in STAGES:
        opps = sorted([r for r in rows if r["stage"] == st], key=lambda r: (r["close_date"] or "", r["id"]))
        cols.append({"stage": st, "opps": opps, "count": len(opps), "total": sum(r["amount"] or 0 for r in opps),
                     "probability": STAGE_PROBABILITY[st]})
    return cols


def report(store: Store, user: str, group_by: str = "stage", period: str = "THIS_QUARTER",
           scope: str = "all", include_closed: bool = False) -> dict:
    """Sum of amount and count of opportunities grouped by ``stage`` or ``owner`` (open ones unless
    ``include_closed``), closing in ``period`` (``THIS_QUARTER``… or ``all``).
    Returns {groups: [{key, label, count, amount, rows}], count, amount, range}."""
    _require_user(store, user)
    if group_by not in ("stage", "owner"):
        raise Invalid("Group by stage or by owner.", "group")
    rows = _opps_for(store, user, scope, period)
    if not include_closed:
        rows = [r for r in rows if r["stage"] in OPEN_STAGES]
    groups: dict[str, dict] = {}
    for r in sorted(rows, key=lambda r: (r["close_date"] or "", r["id"])):
        k = r[group_by]
        g = groups.setdefault(k, {"key": k, "label": r["owner_name"] if group_by == "owner" else k,
                                  "count": 0, "amount": 0, "rows": []})
        g["count"] += 1
        g["amount"] += r["amount"] or 0
        g["rows"].append(r)
    if group_by == "stage":
        out = [groups[s] for s in STAGES if s in groups]
    else:
        out = sorted(groups.values(), key=lambda g: (-g["amount"], g["label"]))
    rng = date_range(store, period) if period not in ("all", "") else None
    return {"groups": out, "count": sum(g["count"] for g in out), "amount": sum(g["amount"] for g in out),
            "range": rng}


def dashboard(store: Store, user: str) -> dict:
    """Tiles: open pipeline by stage (this quarter), closed won this quarter, open opportunities
    closing this month."""
    _require_user(store, user)
    by_stage = report(store, user, "stage", "THIS_QUARTER")
    q0, q1 = quarter_range(today(store))
    won = [r for r in _all(store, "opportunities")
           if r["stage"] == "Closed Won" and r["close_date"] and q0.isoformat() <= r["close_date"] <= q1.isoformat()]
    m0, m1 = month_range(today(store))
    closing = sorted([r for r in _all(store, "opportunities") if r["stage"] in OPEN_STAGES and r["close_date"]
                      and m0.isoformat() <= r["close_date"] <= m1.isoformat()],
                     key=lambda r: (r["close_date"], -(r["amount"] or 0), r["id"]))
    top = max([g["amount"] for g in by_stage["groups"]] or [0])
    bars = [{"stage": s, "amount": next((g["amount"] for g in by_stage["groups"] if g["key"] == s), 0),
             "count": next((g["count"] for g in by_stage["groups"] if g["key"] == s), 0)} for s in OPEN_STAGES]
    for b in bars:
        b["pct"] = round(100 * b["amount"] / top, 1) if top else 0
    return {"bars": bars, "pipeline_total": by_stage["amount"], "pipeline_count": by_stage["count"],
            "won_amount": sum(r["amount"] or 0 for r in won), "won_count": len(won), "won": won,
            "closing": closing, "closing_amount": sum(r["amount"] or 0 for r in closing),
            "quarter": (q0, q1), "month": (m0, m1)}


# ---------------------------------------------------------------- search
def search_records(store: Store, user: str, q: str, limit: int = 20) -> dict[str, list[dict]]:
    """Records matching every word of ``q``, per object (names first)."""
    _require_user(store, user)
    words = (q or "").lower().split()
    out: dict[str, list[dict]] = {}
    for obj in ("accounts", "contacts", "opportunities", "leads"):
        found = []
        if words:
            for r in _all(store, obj):
                text = _search_text(obj, r)
                if all(w in text for w in words):
                    starts = r["name"].lower().startswith(words[0])
                    found.append((0 if starts else 1, r["name"].lower(), r["id"], r))
        found.sort(key=lambda x: x[:3])
        out[obj] = [x[3] for x in found[:limit]]
    return out


def _subtitle(obj: str, r: dict) -> str:
    if obj == "accounts":
        return " · ".join(x for x in ("Account", r.get("type"), r.get("city"), r.get("owner_name")) if x)
    if obj == "contacts":
        return " · ".join(x for x in ("Contact", r.get("title"), r.get("account_name"), r.get("email")) if x)
    if obj == "leads":
        return " · ".join(x for x in ("Lead", r.get("company"), r.get("status")) if x)
    return " · ".join(x for x in ("Opportunity", r.get("account_name"), r.get("stage"), money(r.get("amount"))) if x)


def search(store: Store, user: str, q: str, limit: int = 5) -> list[dict]:
    """For the workspace-wide search: [{title, subtitle, url, kind}] across accounts, contacts,
    opportunities and leads (at most ``limit`` in all). Empty for people outside the company."""
    if not is_internal(store, user) or not (q or "").strip():
        return []
    per = search_records(store, user, q, limit)
    out = []
    for obj in ("accounts", "contacts", "opportunities", "leads"):
        for r in per[obj]:
            out.append({"title": r["name"], "subtitle": _subtitle(obj, r), "url": r["url"], "kind": SINGULAR[obj]})
    # interleave fairly: keep the order above but cap the total
    return out[:limit]


def lookup(store: Store, user: str, kind: str, q: str, account=None, limit: int = 8) -> list[dict]:
    """Suggestions for a lookup field: ``kind`` accounts | contacts | users (contacts optionally of an
    ``account``). Each {id, label, sub}."""
    _require_user(store, user)
    q = (q or "").strip().lower()
    if kind == "users":
        rows = [p for p in users(store) if not q or q in p["name"].lower() or q in p["email"]]
        return [{"id": p["slug"], "label": p["name"], "sub": p["title"] or p["email"]} for p in rows[:limit]]
    if kind not in ("accounts", "contacts"):
        raise NotFound("No such lookup.")
    rows = _all(store, kind)
    if kind == "contacts" and account not in (None, ""):
        try:
            acc = int(account)
            rows = [r for r in rows if r["account"] == acc]
        except ValueError:
            pass
    if q:
        rows = [r for r in rows if q in r["name"].lower()]
    rows.sort(key=lambda r: (not r["name"].lower().startswith(q), r["name"].lower(), r["id"]))
    return [{"id": str(r["id"]), "label": r["name"],
             "sub": (r.get("city") or r.get("industry") or "") if kind == "accounts" else
             (r.get("account_name") or "")} for r in rows[:limit]]
