"""Service desk from ``worlds/<w>/tickets/*.yaml`` (all optional; a world without them seeds nothing).

```yaml
# groups.yaml
groups:
  - {name: Pipeline Ops, members: [kofi.mensah, ines.duarte], manager: kofi.mensah}
# incidents.yaml
incidents:
  - number: INC0010421
    short_description: "Freshness monitor delayed 6h"
    description: "…"
    caller: nadia.fell                 # a directory person id or a CRM contact id
    account: harrowgate                # optional CRM account id
    category: Pipelines                # see service.CATEGORIES
    subcategory: ""                    # optional
    impact: High                       # High | Medium | Low (priority is computed, never given)
    urgency: High
    state: In Progress                 # New | In Progress | On Hold | Resolved | Closed
    group: Pipeline Ops
    assignee: ines.duarte              # a member of the group
    opened: "2026-06-07T22:10:00"      # world-local
    on_hold_reason: null               # On Hold: default "Awaiting Caller"
    resolved: null                     # Resolved/Closed: default the last journal entry's time
    resolution_code: null              # Resolved/Closed: default "Solution provided"
    resolution_notes: null
    kb: [KB0001207]                    # attached knowledge
    journal:
      - {kind: work_note, by: ines.duarte, at: "2026-06-08T08:00:00", text: "…"}
      - {kind: comment, by: kofi.mensah, at: "…", text: "…"}
# requests.yaml: requests: [{number: REQ…, item: "New laptop", requested_for, variables: {…}, state,
#                            group, assignee, opened, journal}]
# changes.yaml:  changes: [{number: CHG…, short_description, description, type, risk: Low|Moderate|High,
#                           planned_start, planned_end, state: New|Assess|Scheduled|Implement|Review|Closed|Canceled,
#                           group, assignee, requested_by, opened, close_code, close_notes, journal}]
# cmdb.yaml:     services and cis (see cmdb_seed.py; optional)
# kb.yaml:       kb: [{number: KB…, title, category, author, published, body (Markdown)}]
# catalog.yaml:  catalog: [{name, category, description, group, fields: [{name, label, type, choices, required}]}]
```

Errors are ``WorldError``s naming the file and the field.
"""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from apps.core.errors import Invalid
from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_spec
from apps.tickets import service as S
from apps.tickets.cmdb_seed import CmdbFile, seed_cmdb

Level = Literal["High", "Medium", "Low"]
When = datetime | date | str


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GroupSpec(_M):
    name: str
    members: list[str] = []
    manager: str | None = None
    description: str = ""


class JournalSpec(_M):
    kind: Literal["work_note", "comment"]
    by: str
    at: When
    text: str


class _Record(_M):
    short_description: str = ""
    description: str = ""
    state: str = "New"
    group: str | None = None
    assignee: str | None = None
    opened: When
    opened_by: str | None = None
    kb: list[str] = []
    journal: list[JournalSpec] = []


class IncidentSpec(_Record):
    number: str = Field(pattern=r"^INC\d{4,}$")
    short_description: str
    caller: str
    account: str | None = None
    category: Literal[S.CATEGORIES] = "Other"           # type: ignore[valid-type]
    subcategory: str | None = None
    impact: Level
    urgency: Level
    state: Literal[S.INCIDENT_STATES] = "New"           # type: ignore[valid-type]
    on_hold_reason: str | None = None
    resolved: When | None = None
    closed: When | None = None
    resolution_code: str | None = None
    resolution_notes: str | None = None


class RequestSpec(_Record):
    number: str = Field(pattern=r"^REQ\d{4,}$")
    item: str
    requested_for: str
    variables: dict = {}
    closed: When | None = None


class ChangeSpec(_Record):
    number: str = Field(pattern=r"^CHG\d{4,}$")
    short_description: str
    type: Literal[S.CHANGE_TYPES] = "Normal"            # type: ignore[valid-type]
    category: Literal[S.CATEGORIES] = "Other"           # type: ignore[valid-type]
    risk: Literal[S.RISKS] = "Moderate"                 # type: ignore[valid-type]
    impact: Level = "Medium"
    state: Literal[S.CHANGE_STATES] = "New"             # type: ignore[valid-type]
    planned_start: When | None = None
    planned_end: When | None = None
    requested_by: str | None = None
    justification: str = ""
    implementation_plan: str = ""
    backout_plan: str = ""
    close_code: Literal[S.CLOSE_CODES] | None = None     # type: ignore[valid-type]
    close_notes: str | None = None
    closed: When | None = None


class KBSpec(_M):
    number: str = Field(pattern=r"^KB\d{4,}$")
    title: str
    category: str = "General"
    author: str
    published: When
    body: str
    state: Literal["Published", "Draft", "Retired"] = "Published"


class CatalogField(_M):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    label: str = ""
    type: Literal["string", "text", "choice", "boolean", "date", "number"] = "string"
    choices: list[str] = []
    required: bool = False
    help: str = ""


class CatalogSpec(_M):
    name: str
    category: str = "General"
    description: str = ""
    group: str | None = None
    fields: list[CatalogField] = []


class GroupsFile(_M):
    groups: list[GroupSpec] = []


class IncidentsFile(_M):
    incidents: list[IncidentSpec] = []


class RequestsFile(_M):
    requests: list[RequestSpec] = []


class ChangesFile(_M):
    changes: list[ChangeSpec] = []


class KBFile(_M):
    kb: list[KBSpec] = []


class CatalogFile(_M):
    catalog: list[CatalogSpec] = []


FILES = (("groups.yaml", GroupsFile), ("cmdb.yaml", CmdbFile), ("kb.yaml", KBFile), ("catalog.yaml", CatalogFile),
         ("incidents.yaml", IncidentsFile), ("requests.yaml", RequestsFile), ("changes.yaml", ChangesFile))


def load(world: World) -> dict[str, tuple[Path, BaseModel]]:
    """The tickets files present, validated (no store needed)."""
    out = {}
    folder = world.root / "tickets"
    for name, model in FILES:
        path = folder / name
        if not path.is_file():
            continue
        out[name] = (path, load_spec(path, model))
    return out


class _Ctx:
    def __init__(self, store: Store, world: World):
        self.store, self.world = store, world
        self.clock = world.start
        self.has_contacts = S.has_table(store, "crm_contacts")
        self.has_accounts = S.has_table(store, "crm_accounts")

    def time(self, value, where: str) -> str:
        if isinstance(value, date) and not isinstance(value, datetime):
            value = datetime.combine(value, datetime.min.time())
        dt = self.world.local_time(value, where)
        if dt > self.clock:
            raise WorldError(f"{where}: {value} is after the world clock ({self.clock.isoformat()})")
        return utc_iso(dt)

    def any_time(self, value, where: str) -> str:
        if isinstance(value, date) and not isinstance(value, datetime):
            value = datetime.combine(value, datetime.min.time())
        return utc_iso(self.world.local_time(value, where))

    def person(self, slug: str, where: str) -> str:
        if slug not in self.world.people:
            raise WorldError(f"{where}: {slug!r} is not a person in the world")
        return slug

    def caller(self, slug: str, where: str) -> str:
        if slug in self.world.people:
            return slug
        if self.has_contacts:
            if S.crm_contact(self.store, slug):
                return slug
            raise WorldError(f"{where}: {slug!r} is not a person in the world or a CRM contact")
        return slug                          # no CRM in this world build: stored as given

    def account(self, slug: str | None, where: str) -> str:
        if not slug:
            return ""
        if self.has_accounts and not S.crm_account(self.store, slug):
            raise WorldError(f"{where}: {slug!r} is not a CRM account")
        return slug


def seed(store: Store, world: World) -> None:
    files = load(world)
    if not files:
        return
    ctx = _Ctx(store, world)
    group_ids: dict[str, int] = {}
    if "groups.yaml" in files:
        path, spec = files["groups.yaml"]
        for i, g in enumerate(spec.groups):
            where = f"{path}: groups.{i}"
            if g.name in group_ids:
                raise WorldError(f"{where}.name: duplicate group {g.name!r}")
            if g.manager:
                ctx.person(g.manager, f"{where}.manager")
            gid = store.insert("tk_groups", SYSTEM, name=g.name, manager=g.manager or "", description=g.description)
            group_ids[g.name] = gid
            for j, m in enumerate(dict.fromkeys(g.members)):
                store.insert("tk_group_members", SYSTEM, group_id=gid, person=ctx.person(m, f"{where}.members.{j}"))
    cmdb = files.get("cmdb.yaml")
    seed_cmdb(store, cmdb[1] if cmdb else None, group_ids, str(cmdb[0]) if cmdb else "cmdb")
    kb_ids: dict[str, int] = {}
    if "kb.yaml" in files:
        path, spec = files["kb.yaml"]
        for i, a in enumerate(spec.kb):
            where = f"{path}: kb.{i}"
            if a.number in kb_ids:
                raise WorldError(f"{where}.number: duplicate article {a.number}")
            kb_ids[a.number] = store.insert(
                "tk_kb", SYSTEM, number=a.number, title=a.title, category=a.category,
                author=ctx.person(a.author, f"{where}.author"), published=ctx.time(a.published, f"{where}.published"),
                body=a.body, state=a.state)
    items: dict[str, dict] = {}
    if "catalog.yaml" in files:
        path, spec = files["catalog.yaml"]
        for i, c in enumerate(spec.catalog):
            where = f"{path}: catalog.{i}"
            if c.name.lower() in items:
                raise WorldError(f"{where}.name: duplicate catalog item {c.name!r}")
            if c.group and c.group not in group_ids:
                raise WorldError(f"{where}.group: {c.group!r} is not a group in groups.yaml")
            fields = []
            for j, f in enumerate(c.fields):
                if f.type == "choice" and not f.choices:
                    raise WorldError(f"{where}.fields.{j}.choices: a choice field needs choices")
                if f.name in {x["name"] for x in fields}:
                    raise WorldError(f"{where}.fields.{j}.name: duplicate field {f.name!r}")
                fields.append({"name": f.name, "label": f.label or f.name.replace("_", " ").capitalize(),
                               "type": f.type, "choices": f.choices, "required": f.required, "help": f.help})
            cid = store.insert("tk_catalog", SYSTEM, name=c.name, category=c.category, description=c.description,
                               fields=fields, group_name=c.group or "", active=True)
            items[c.name.lower()] = store.get("tk_catalog", cid)
    numbers: set[str] = set()
    for fname, kind, attr in (("incidents.yaml", "incident", "incidents"), ("requests.yaml", "request", "requests"),
                              ("changes.yaml", "change", "changes")):
        if fname not in files:
            continue
        path, spec = files[fname]
        for i, rec in enumerate(getattr(spec, attr)):
            _seed_record(ctx, kind, f"{path}: {attr}.{i}", rec, group_ids, kb_ids, items, numbers)


def _seed_record(ctx: _Ctx, kind: str, where: str, rec, group_ids, kb_ids, items, numbers) -> None:
    store = ctx.store
    if rec.number in numbers:
        raise WorldError(f"{where}.number: duplicate number {rec.number}")
    numbers.add(rec.number)
    gid = None
    if rec.group:
        if rec.group not in group_ids:
            raise WorldError(f"{where}.group: {rec.group!r} is not a group in groups.yaml")
        gid = group_ids[rec.group]
    assignee = ""
    if rec.assignee:
        assignee = ctx.person(rec.assignee, f"{where}.assignee")
        if gid is None:
            raise WorldError(f"{where}.assignee: an assignee needs a group")
        if assignee not in S.members(store, gid):
            raise WorldError(f"{where}.assignee: {assignee!r} is not a member of {rec.group!r}")
    opened = ctx.time(rec.opened, f"{where}.opened")
    entries = []
    for j, e in enumerate(rec.journal):
        at = ctx.time(e.at, f"{where}.journal.{j}.at")
        if at < opened:
            raise WorldError(f"{where}.journal.{j}.at: before the record was opened ({rec.opened})")
        entries.append((e.kind, ctx.caller(e.by, f"{where}.journal.{j}.by"), at, e.text))
    last = max([opened] + [e[2] for e in entries])
    opened_by = ctx.person(rec.opened_by, f"{where}.opened_by") if rec.opened_by else ""
    if kind == "incident":
        priority = S.priority_of(rec.impact, rec.urgency)
        state = rec.state
        done = state in ("Resolved", "Closed")
        resolved = ctx.time(rec.resolved, f"{where}.resolved") if rec.resolved else (last if done else None)
        if resolved and not done:
            raise WorldError(f"{where}.resolved: only a Resolved or Closed incident has a resolved time")
        if resolved and resolved < opened:
            raise WorldError(f"{where}.resolved: before the incident was opened")
        code = rec.resolution_code or ("Solution provided" if done else "")
        if code and code not in S.RESOLUTION_CODES:
            raise WorldError(f"{where}.resolution_code: {code!r} is not one of {', '.join(S.RESOLUTION_CODES)}")
        reason = rec.on_hold_reason or ("Awaiting Caller" if state == "On Hold" else "")
        if reason and reason not in S.ON_HOLD_REASONS:
            raise WorldError(f"{where}.on_hold_reason: {reason!r} is not one of {', '.join(S.ON_HOLD_REASONS)}")
        closed = (ctx.time(rec.closed, f"{where}.closed") if rec.closed else resolved) if state == "Closed" else None
        pk = store.insert(
            "tk_incidents", SYSTEM, number=rec.number, caller_id=ctx.caller(rec.caller, f"{where}.caller"),
            account=ctx.account(rec.account, f"{where}.account"), category=rec.category,
            subcategory=rec.subcategory or "", impact=rec.impact, urgency=rec.urgency, priority=priority,
            state=state, assignment_group=gid, assigned_to=assignee, short_description=rec.short_description,
            description=rec.description, on_hold_reason=reason if state == "On Hold" else "", resolution_code=code,
            resolution_notes=rec.resolution_notes or "", opened_at=opened, opened_by=opened_by,
            sla_due=S.sla_due(opened, priority), resolved_at=resolved, closed_at=closed, updated_at=max(last, resolved or last))
    elif kind == "request":
        item = items.get(rec.item.lower())
        if item is None:
            raise WorldError(f"{where}.item: {rec.item!r} is not an item in catalog.yaml")
        try:
            variables = S.clean_variables(item, rec.variables)
        except Invalid as e:
            raise WorldError(f"{where}.variables.{e.field}: {e.message}") from None
        try:
            state = S.clean_choice(rec.state, S.REQUEST_STATES, "state", S.REQUEST_ALIASES)
        except Invalid as e:
            raise WorldError(f"{where}.state: {e.message}") from None
        closed = None
        if state in S.FINAL_STATES["request"]:
            closed = ctx.time(rec.closed, f"{where}.closed") if rec.closed else last
        pk = store.insert(
            "tk_requests", SYSTEM, number=rec.number, item=item["id"],
            short_description=rec.short_description or item["name"],
            requested_for=ctx.person(rec.requested_for, f"{where}.requested_for"),
            opened_by=opened_by or rec.requested_for, variables=variables, state=state, assignment_group=gid,
            assigned_to=assignee, opened_at=opened, closed_at=closed, updated_at=last)
    else:
        start = ctx.any_time(rec.planned_start, f"{where}.planned_start") if rec.planned_start else None
        end = ctx.any_time(rec.planned_end, f"{where}.planned_end") if rec.planned_end else None
        if start and end and end <= start:
            raise WorldError(f"{where}.planned_end: not after planned_start")
        if rec.state in ("Scheduled", "Implement", "Review", "Closed") and not (start and end):
            raise WorldError(f"{where}.planned_start: a {rec.state} change needs planned_start and planned_end")
        closed = None
        if rec.state in S.FINAL_STATES["change"]:
            closed = ctx.time(rec.closed, f"{where}.closed") if rec.closed else last
        pk = store.insert(
            "tk_changes", SYSTEM, number=rec.number, type=rec.type, category=rec.category,
            short_description=rec.short_description, description=rec.description,
            justification=rec.justification, implementation_plan=rec.implementation_plan,
            backout_plan=rec.backout_plan, risk=rec.risk, impact=rec.impact, state=rec.state,
            requested_by=ctx.person(rec.requested_by, f"{where}.requested_by") if rec.requested_by else opened_by,
            assignment_group=gid, assigned_to=assignee, planned_start=start, planned_end=end,
            close_code=rec.close_code or ("Successful" if rec.state == "Closed" else ""),
            close_notes=rec.close_notes or "", opened_at=opened, closed_at=closed, updated_at=last)
    for j, number in enumerate(rec.kb):
        if number not in kb_ids:
            raise WorldError(f"{where}.kb.{j}: {number!r} is not an article in kb.yaml")
        store.insert("tk_kb_links", SYSTEM, kb=kb_ids[number], record_table=kind, record=pk,
                     by=assignee or opened_by or "", at=last)
    for entry_kind, by, at, text in entries:
        store.insert("tk_journal", SYSTEM, record_table=kind, record=pk, kind=entry_kind, author=by, at=at, text=text)
