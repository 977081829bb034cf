"""Creating, updating and deleting records, with validation of every field; stage changes,
cloning, changing owners.
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.crm.schema import EMAIL_RE, STAGE_PROBABILITY
from apps.crm.service.base import (_check_obj, _require_user, _row, _stage_history, _text, _unique_slug, get,
                                   person_id, record_title, resolve)
from apps.crm.service.fields import FIELDS, LABEL, MAX_LONG, REQUIRED, SINGULAR, TABLE, field
from apps.crm.service.values import parse_amount, parse_date


# ---------------------------------------------------------------- validation
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


def update_many(store: Store, caller: Caller, obj: str, changes: dict) -> dict[int, list[str]]:
    """Inline edit in a list view: ``{record id: {field: value}}`` saved together, all or nothing (as
    the list's Save does). A bad value raises ``Invalid`` naming the record and the field (``field`` is
    ``<id>.<name>``) and writes nothing. Returns record id → the fields that changed."""
    _require_user(store, caller.user)
    if not changes:
        raise Invalid("There are no changes to save.", "changes")
    out: dict[int, list[str]] = {}
    with store.transaction():
        for rid, values in changes.items():
            row = _row(store, obj, rid)
            try:
                out[row["id"]] = update(store, caller, obj, row["id"], **values)
            except Invalid as e:
                f = e.field or next(iter(e.errors or {}), None)
                msg = (e.errors or {}).get(f, e.message) if f else e.message
                raise Invalid(f"{record_title(obj, row)}: {msg}", f"{row['id']}.{f}" if f else str(row["id"])) from None
    return out
