"""Lead conversion: a lead becomes an account (new or existing), a contact and optionally an opportunity."""
from __future__ import annotations

import re

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.crm.schema import OPEN_STAGES, STAGE_PROBABILITY
from apps.crm.service.base import (_decorate, _require_user, _row, _stage_history, _text, _unique_slug, person_id,
                                   record_title, resolve)
from apps.crm.service.values import parse_amount, parse_date, quarter_range, today


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
