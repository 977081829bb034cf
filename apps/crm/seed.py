"""Seed the CRM from ``worlds/<w>/crm/*.yaml`` (all optional; a world without a ``crm/``
folder seeds nothing).

Files: ``accounts.yaml`` (accounts:), ``contacts.yaml`` (contacts:), ``leads.yaml`` (leads:),
``opportunities.yaml`` (opportunities:, each with its stage ``history``), ``activities.yaml``
(activities: calls, tasks, meetings and notes logged against a record). Record ``id``s are
slugs other files refer to. Times are world-local; dates are ``YYYY-MM-DD``. Errors name the
file and the field, e.g. ``worlds/lumen/crm/opportunities.yaml: opportunities.4.loss_reason: …``.
"""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_spec
from apps.crm.schema import (ACCOUNT_TYPES, EMAIL_RE, INDUSTRIES, LEAD_SOURCES, LEAD_STATUSES, LOSS_REASONS,
                             OPP_TYPES, STAGE_PROBABILITY, STAGES, TASK_STATUSES)

SLUG = r"^[a-z0-9][a-z0-9._-]*$"


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AccountSpec(_M):
    id: str = Field(pattern=SLUG)
    name: str = Field(min_length=1)
    industry: Literal[INDUSTRIES] | None = None
    type: Literal[ACCOUNT_TYPES] = "Prospect"
    website: str = ""
    phone: str = ""
    city: str = ""
    country: str = ""
    employees: int | None = Field(default=None, ge=0)
    arr: int = Field(default=0, ge=0)
    owner: str
    csm: str | None = None
    created: datetime | str | None = None
    description: str = ""


class ContactSpec(_M):
    id: str = Field(pattern=SLUG)
    account: str
    first_name: str = ""
    last_name: str = Field(min_length=1)
    title: str = ""
    email: str = ""
    phone: str = ""
    owner: str | None = None
    created: datetime | str | None = None


class HistorySpec(_M):
    stage: Literal[STAGES]
    at: datetime | str
    by: str


class OpportunitySpec(_M):
    id: str = Field(pattern=SLUG)
    name: str = Field(min_length=1)
    account: str
    type: Literal[OPP_TYPES] = "New Business"
    stage: Literal[STAGES]
    amount: int = Field(ge=0)
    close_date: date
    probability: int | None = Field(default=None, ge=0, le=100)
    owner: str
    loss_reason: Literal[LOSS_REASONS] | None = None
    next_step: str = ""
    contact: str | None = None
    description: str = ""
    created: datetime | str | None = None
    history: list[HistorySpec] = []


class LeadSpec(_M):
    id: str = Field(pattern=SLUG)
    first_name: str = ""
    last_name: str = Field(min_length=1)
    company: str = Field(min_length=1)
    title: str = ""
    email: str = ""
    phone: str = ""
    source: Literal[LEAD_SOURCES] | None = None
    status: Literal[LEAD_STATUSES] = "New"
    owner: str
    industry: Literal[INDUSTRIES] | None = None
    locations: int | None = Field(default=None, ge=0)
    description: str = ""
    created: datetime | str | None = None
    converted_account: str | None = None
    converted_contact: str | None = None
    converted_opportunity: str | None = None


class Related(_M):
    account: str | None = None
    contact: str | None = None
    lead: str | None = None
    opportunity: str | None = None


class ActivitySpec(_M):
    kind: Literal["call", "task", "meeting", "note"]
    subject: str = Field(min_length=1)
    related: Related
    who: str
    at: datetime | str
    due: date | None = None
    status: Literal[TASK_STATUSES] | None = None
    body: str = ""


class AccountsFile(_M):
    accounts: list[AccountSpec] = []


class ContactsFile(_M):
    contacts: list[ContactSpec] = []


class OpportunitiesFile(_M):
    opportunities: list[OpportunitySpec] = []


class LeadsFile(_M):
    leads: list[LeadSpec] = []


class ActivitiesFile(_M):
    activities: list[ActivitySpec] = []


FILES = (("accounts.yaml", AccountsFile), ("contacts.yaml", ContactsFile), ("leads.yaml", LeadsFile),
         ("opportunities.yaml", OpportunitiesFile), ("activities.yaml", ActivitiesFile))


def load(world: World) -> dict[str, tuple[Path, BaseModel]]:
    """The validated CRM files of a world: {file name: (path, spec)} (missing files are empty)."""
    folder = world.root / "crm"
    out = {}
    for name, model in FILES:
        path = folder / name
        if not path.is_file():
            out[name] = (path, model())
            continue
        out[name] = (path, load_spec(path, model))
    return out


def _person(world: World, slug: str | None, where: str) -> str:
    if slug not in world.people:
        raise WorldError(f"{where}: {slug!r} is not a person id in world.yaml")
    return slug


def _when(world: World, value, where: str, default: datetime | None = None) -> str:
    if value is None:
        value = default or world.start
    dt = world.local_time(value, where)
    if dt > world.start:
        raise WorldError(f"{where}: {value} is after the world clock")
    return utc_iso(dt)


def _email(value: str, where: str) -> str:
    if value and not EMAIL_RE.match(value):
        raise WorldError(f"{where}: {value!r} is not a valid email address")
    return value.lower()


def _unique(ids: list[str], path: Path, key: str) -> None:
    seen = set()
    for i, x in enumerate(ids):
        if x in seen:
            raise WorldError(f"{path}: {key}.{i}.id: duplicate id {x!r}")
        seen.add(x)


def seed(store: Store, world: World) -> None:
    if not (world.root / "crm").is_dir():
        return
    files = load(world)
    start = utc_iso(world.start)

    path, spec = files["accounts.yaml"]
    _unique([a.id for a in spec.accounts], path, "accounts")
    accounts: dict[str, int] = {}
    for i, a in enumerate(spec.accounts):
        w = f"{path}: accounts.{i}"
        _person(world, a.owner, f"{w}.owner")
        if a.csm is not None:
            _person(world, a.csm, f"{w}.csm")
        created = _when(world, a.created, f"{w}.created")
        accounts[a.id] = store.insert(
            "crm_accounts", SYSTEM, slug=a.id, name=a.name.strip(), industry=a.industry or "", type=a.type,
            website=a.website, phone=a.phone, city=a.city, country=a.country, employees=a.employees, arr=a.arr,
            owner=a.owner, csm=a.csm, description=a.description.strip(), created_at=created, created_by=a.owner,
            modified_at=created)

    path, spec = files["contacts.yaml"]
    _unique([c.id for c in spec.contacts], path, "contacts")
    contacts: dict[str, int] = {}
    contact_account: dict[str, str] = {}
    for i, c in enumerate(spec.contacts):
        w = f"{path}: contacts.{i}"
        if c.account not in accounts:
            raise WorldError(f"{w}.account: no account {c.account!r} in accounts.yaml")
        owner = c.owner
        if owner is None:
            owner = store.scalar("SELECT owner FROM crm_accounts WHERE id=?", (accounts[c.account],))
        _person(world, owner, f"{w}.owner")
        created = _when(world, c.created, f"{w}.created")
        contacts[c.id] = store.insert(
            "crm_contacts", SYSTEM, slug=c.id, account=accounts[c.account], first_name=c.first_name,
            last_name=c.last_name, title=c.title, email=_email(c.email, f"{w}.email"), phone=c.phone, owner=owner,
            created_at=created, created_by=owner, modified_at=created)
        contact_account[c.id] = c.account

    path, spec = files["opportunities.yaml"]
    _unique([o.id for o in spec.opportunities], path, "opportunities")
    opps: dict[str, int] = {}
    for i, o in enumerate(spec.opportunities):
        w = f"{path}: opportunities.{i}"
        if o.account not in accounts:
            raise WorldError(f"{w}.account: no account {o.account!r} in accounts.yaml")
        _person(world, o.owner, f"{w}.owner")
        if o.stage == "Closed Lost" and not o.loss_reason:
            raise WorldError(f"{w}.loss_reason: required when the stage is Closed Lost")
        if o.stage != "Closed Lost" and o.loss_reason:
            raise WorldError(f"{w}.loss_reason: only a Closed Lost opportunity has a loss reason")
        if o.stage == "Closed Won" and o.amount <= 0:
            raise WorldError(f"{w}.amount: a Closed Won opportunity needs an amount above 0")
        contact = None
        if o.contact is not None:
            if o.contact not in contacts:
                raise WorldError(f"{w}.contact: no contact {o.contact!r} in contacts.yaml")
            if contact_account[o.contact] != o.account:
                raise WorldError(f"{w}.contact: {o.contact!r} works at {contact_account[o.contact]!r}, "
                                 f"not {o.account!r}")
            contact = contacts[o.contact]
        history = []
        last = None
        for j, h in enumerate(o.history):
            hw = f"{w}.history.{j}"
            _person(world, h.by, f"{hw}.by")
            at = _when(world, h.at, f"{hw}.at")
            if last is not None and at < last:
                raise WorldError(f"{hw}.at: earlier than the entry before it (history is oldest first)")
            last = at
            history.append((h.stage, at, h.by))
        if history and history[-1][0] != o.stage:
            raise WorldError(f"{w}.history: the last entry ({history[-1][0]}) must be the current stage ({o.stage})")
        created = _when(world, o.created, f"{w}.created", None) if o.created is not None else \
            (history[0][1] if history else start)
        if not history:
            history = [(o.stage, created, o.owner)]
        opps[o.id] = oid = store.insert(
            "crm_opportunities", SYSTEM, slug=o.id, name=o.name.strip(), account=accounts[o.account], type=o.type,
            stage=o.stage, amount=o.amount, close_date=o.close_date.isoformat(),
            probability=o.probability if o.probability is not None else STAGE_PROBABILITY[o.stage], owner=o.owner,
            next_step=o.next_step.strip(), loss_reason=o.loss_reason, contact=contact, lead=None,
            description=o.description.strip(), created_at=created, created_by=o.owner, modified_at=history[-1][1])
        prev = None
        for stage, at, by in history:
            store.insert("crm_stage_history", SYSTEM, opportunity=oid, from_stage=prev, to_stage=stage,
                         amount=o.amount, close_date=o.close_date.isoformat(), by=by, at=at)
            prev = stage

    path, spec = files["leads.yaml"]
    _unique([x.id for x in spec.leads], path, "leads")
    leads: dict[str, int] = {}
    for i, x in enumerate(spec.leads):
        w = f"{path}: leads.{i}"
        _person(world, x.owner, f"{w}.owner")
        created = _when(world, x.created, f"{w}.created")
        conv = {}
        for k, table in (("converted_account", accounts), ("converted_contact", contacts),
                         ("converted_opportunity", opps)):
            v = getattr(x, k)
            if v is not None:
                if x.status != "Converted":
                    raise WorldError(f"{w}.{k}: only a Converted lead links to what it became")
                if v not in table:
                    raise WorldError(f"{w}.{k}: no record {v!r}")
                conv[k] = table[v]
        leads[x.id] = store.insert(
            "crm_leads", SYSTEM, slug=x.id, first_name=x.first_name, last_name=x.last_name, company=x.company.strip(),
            title=x.title, email=_email(x.email, f"{w}.email"), phone=x.phone, source=x.source or "",
            status=x.status, owner=x.owner, industry=x.industry or "", locations=x.locations,
            description=x.description.strip(), created_at=created, created_by=x.owner,
            converted_at=created if x.status == "Converted" else None,
            converted_by=x.owner if x.status == "Converted" else None, modified_at=created, **conv)

    path, spec = files["activities.yaml"]
    refs = {"account": accounts, "contact": contacts, "lead": leads, "opportunity": opps}
    tables = {"account": "crm_accounts", "contact": "crm_contacts", "lead": "crm_leads",
              "opportunity": "crm_opportunities"}
    for i, a in enumerate(spec.activities):
        w = f"{path}: activities.{i}"
        given = [(k, v) for k, v in a.related.model_dump().items() if v is not None]
        if len(given) != 1:
            raise WorldError(f"{w}.related: name exactly one record: {{opportunity: …}}, {{account: …}}, "
                             f"{{contact: …}} or {{lead: …}}")
        rtype, slug = given[0]
        if slug not in refs[rtype]:
            raise WorldError(f"{w}.related.{rtype}: no {rtype} {slug!r}")
        rid = refs[rtype][slug]
        _person(world, a.who, f"{w}.who")
        at = utc_iso(world.local_time(a.at, f"{w}.at"))
        row = store.get(tables[rtype], rid)
        account = rid if rtype == "account" else row.get("account") if rtype != "lead" else row["converted_account"]
        if a.kind == "note":
            if a.due is not None or a.status is not None:
                raise WorldError(f"{w}.due: a note has no due date or status")
            store.insert("crm_notes", SYSTEM, related_type=rtype, related_id=rid, title=a.subject.strip(),
                         body=a.body.strip(), author=a.who, at=_when(world, a.at, f"{w}.at"), account=account,
                         modified_at=at)
            continue
        if a.kind != "task" and a.due is not None:
            raise WorldError(f"{w}.due: only tasks have a due date")
        status = a.status or ("Open" if a.kind == "task" else "Completed")
        if a.kind != "task" and status != "Completed":
            raise WorldError(f"{w}.status: only tasks can be Open")
        store.insert("crm_activities", SYSTEM, kind=a.kind, subject=a.subject.strip(), body=a.body.strip(),
                     related_type=rtype, related_id=rid, who=a.who, at=at,
                     due=a.due.isoformat() if a.due else None, status=status, created_by=a.who, account=account)
