"""Expected values and checks for the lumen world's tasks.

Expected values are computed from the world's own files (so a data edit can't
make a task stale); checks read the verifier's context (``ctx.final``,
``ctx.initial``, ``ctx.diff``, ``ctx.records(table, which=…)``) and return
``(ok, found)`` or ``(ok, found, {table: keys})`` to vouch for the records they
matched (the collateral-damage guard then allows them).
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

Q2 = ("2026-04-01", "2026-06-30")
HARROWGATE_OPEN = {"INC0010421": ("P1", "ines.duarte"), "INC0010433": ("P2", "paul.novak"),
                   "INC0010440": ("P3", "diego.ramos")}
TRIAGE = {  # number -> (group, manager) by KB0001001 and tickets/groups.yaml
    "INC0010441": ("Pipeline Ops", "kofi.mensah"),
    "INC0010442": ("Identity & Access", "arjun.mehta"),
    "INC0010443": ("Platform Infra", "hana.sato"),
    "INC0010444": ("Billing Ops", "lena.fischer"),
    "INC0010445": ("Platform Infra", "hana.sato"),
}


def _yaml(ctx, rel: str):
    return yaml.safe_load((Path(ctx.world_root) / rel).read_text(encoding="utf-8"))


def _recs(ctx, table: str, which: str = "all") -> dict[str, dict]:
    return ctx.records(table, which=which)


def _by_field(ctx, table: str, field: str, value) -> tuple[str, dict] | tuple[None, None]:
    for k, r in _recs(ctx, table).items():
        if r.get(field) == value:
            return k, r
    return None, None


def _agent_keys(ctx, table: str) -> set[str]:
    """Records the agent added or changed in this episode (from the write log)."""
    seen = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
    return {w["key"] for w in ctx.final.get("writes", [])
            if w["seq"] > seen and w["table"] == table and w["actor"] == "agent"}


# ---------------------------------------------------------------- CRM
def q2_commit(ctx) -> int:
    """Closed Won + Negotiation, closing in Q2 (from crm/opportunities.yaml)."""
    opps = _yaml(ctx, "crm/opportunities.yaml")["opportunities"]
    return sum(o["amount"] for o in opps
               if o["stage"] in ("Closed Won", "Negotiation") and Q2[0] <= str(o["close_date"]) <= Q2[1])


def _qualifies(lead: dict) -> bool:
    """The rule in the "Lead qualification" doc: ≥ 10 locations, a named budget owner, a timeline
    under six months — read from the web-form text the lead carries."""
    text = lead.get("description") or ""
    locations = lead.get("locations") or 0
    owner = re.search(r"Budget owner:\s*([^.]+)\.", text)
    named = bool(owner) and not re.match(r"(?i)\s*(none|not|no |tbd|unknown|n/a)", owner.group(1))
    timeline = (re.search(r"Timeline:\s*([^.]+)\.", text) or [None, ""])[1].lower()
    months = re.search(r"(\d+)\s*months?", timeline)
    soon = ("this quarter" in timeline or "weeks" in timeline or "next month" in timeline
            or (months is not None and int(months.group(1)) < 6))
    return locations >= 10 and named and soon


def new_leads(ctx) -> dict[str, bool]:
    """slug -> qualifies, for every lead that was New in the world files."""
    return {lead["id"]: _qualifies(lead) for lead in _yaml(ctx, "crm/leads.yaml")["leads"] if lead["status"] == "New"}


def new_leads_worked(ctx):
    want = new_leads(ctx)
    wrong = []
    vouch: dict[str, set[str]] = {"crm_leads": set()}
    for slug, ok in sorted(want.items()):
        key, lead = _by_field(ctx, "crm_leads", "slug", slug)
        status = lead and lead["status"]
        if status != ("Converted" if ok else "Unqualified"):
            wrong.append(f"{slug}: {status}")
        elif key:
            vouch["crm_leads"].add(key)
    if wrong:
        return False, "; ".join(wrong)
    return True, f"{sum(want.values())} converted, {len(want) - sum(want.values())} unqualified", vouch


def converted_opportunities(ctx):
    found = []
    for slug, ok in sorted(new_leads(ctx).items()):
        if not ok:
            continue
        _, lead = _by_field(ctx, "crm_leads", "slug", slug)
        opp = lead and lead.get("converted_opportunity")
        rec = _recs(ctx, "crm_opportunities").get(str(opp)) if opp else None
        want = f"{lead['company']} – Platform" if lead else "?"
        if rec is None or rec["name"].replace("-", "–") != want:
            return False, f"{slug}: opportunity {rec and rec['name']!r} (want {want!r})"
        found.append(rec["name"])
    return True, ", ".join(found)


class _Clock:
    """Just enough of a store for the CRM's filter semantics (relative dates like THIS_QUARTER)."""

    def __init__(self, ctx):
        from zoneinfo import ZoneInfo

        from apps.common.store.db import parse_iso
        self._now = parse_iso(ctx.final["clock"])
        self.tz = ZoneInfo("America/Chicago")

    def now(self):
        return self._now

    def local(self, value):
        from apps.common.store.db import parse_iso
        dt = parse_iso(value) if isinstance(value, str) else value
        return dt.astimezone(self.tz)


def q2_renewals_view(ctx):
    """A saved "Q2 renewals" view whose filters (applied as the CRM applies them) keep exactly the
    Renewal opportunities closing in Q2."""
    from apps.crm import service as crm
    views = [(k, v) for k, v in _recs(ctx, "crm_views", "new").items() if v["name"].strip().lower() == "q2 renewals"]
    if not views:
        return False, "no saved view named “Q2 renewals”"
    key, view = views[-1]
    if view["object"] != "opportunities":
        return False, f"the view is on {view['object']}, not opportunities"
    want = sorted(o["name"] for o in _recs(ctx, "crm_opportunities").values()
                  if o["type"] == "Renewal" and Q2[0] <= str(o["close_date"]) <= Q2[1])
    clock = _Clock(ctx)
    got = sorted(o["name"] for o in _recs(ctx, "crm_opportunities").values()
                 if all(crm._match(clock, "jordan.blake", "opportunities", o, f) for f in view["filters"]))
    return got == want, f"the view keeps {len(got)} opportunities (want the {len(want)} Q2 renewals)", \
        {"crm_views": {key}}


# ---------------------------------------------------------------- Service desk
def _group_names(ctx) -> dict[str, str]:
    return {k: g["name"] for k, g in _recs(ctx, "tk_groups").items()}


def _incident(ctx, number: str) -> tuple[str | None, dict | None]:
    return _by_field(ctx, "tk_incidents", "number", number)


def _triage_one(ctx, number: str, need_assignee: bool = True):
    key, inc = _incident(ctx, number)
    if inc is None:
        return False, f"{number} is missing"
    group, manager = TRIAGE[number]
    have = _group_names(ctx).get(str(inc.get("assignment_group")), "none")
    ok = have == group and (not need_assignee or inc.get("assigned_to") == manager)
    return ok, f"{number}: {have}, {inc.get('assigned_to') or 'unassigned'} (want {group}, {manager})", \
        {"tk_incidents": {key}}


def triage_one_441(ctx):
    return _triage_one(ctx, "INC0010441")


def triage_one_442(ctx):
    return _triage_one(ctx, "INC0010442")


def triage_one_443(ctx):
    return _triage_one(ctx, "INC0010443")


def triage_one_444(ctx):
    return _triage_one(ctx, "INC0010444")


def triage_one_445(ctx):
    return _triage_one(ctx, "INC0010445")


def _all(ctx, need_assignee: bool):
    vouch: set[str] = set()
    lines = []
    ok = True
    for number in TRIAGE:
        r = _triage_one(ctx, number, need_assignee)
        ok &= r[0]
        lines.append(r[1])
        vouch |= r[2]["tk_incidents"] if len(r) > 2 else set()
    return ok, "; ".join(lines), {"tk_incidents": vouch}


def triage_groups(ctx):
    return _all(ctx, need_assignee=False)


def triage_assignees(ctx):
    return _all(ctx, need_assignee=True)


def _catalog_item(ctx, name: str) -> str | None:
    key, _ = _by_field(ctx, "tk_catalog", "name", name)
    return key


def laptop_request(ctx):
    item = _catalog_item(ctx, "New laptop")
    for key, r in _recs(ctx, "tk_requests", "new").items():
        v = r.get("variables") or {}
        text = " ".join(str(x) for x in v.values()).lower()
        if str(r.get("item")) == item and r.get("requested_for") == "jordan.blake" \
                and "MacBook Pro 14" in v.values() and "battery" in text:
            return True, f"request {r['number']}", {"tk_requests": {key}}
    return False, "no New laptop request for Jordan with a MacBook Pro 14 and the justification"


def billing_discrepancy_request(ctx):
    item = _catalog_item(ctx, "Report a billing discrepancy")
    for key, r in _recs(ctx, "tk_requests", "new").items():
        v = {k: str(x) for k, x in (r.get("variables") or {}).items()}
        if str(r.get("item")) != item:
            continue
        amount = re.sub(r"[^\d.]", "", v.get("amount", ""))
        ok = ("meadowline" in v.get("account", "").lower() and "INV-2026-0533" in v.get("invoice_number", "").upper()
              and amount in ("9000", "9000.00") and v.get("discrepancy") == "Wrong amount")
        if ok:
            return True, f"request {r['number']}", {"tk_requests": {key}}
        return False, f"request {r['number']} has {v}"
    return False, "no billing-discrepancy request"


# ---------------------------------------------------------------- Harrowgate renewal risk
def _opp_key(ctx, slug: str) -> str | None:
    key, _ = _by_field(ctx, "crm_opportunities", "slug", slug)
    return key


def renewal_note_lists_incidents(ctx):
    opp = _opp_key(ctx, "harrowgate-fy27-renewal")
    for key, n in _recs(ctx, "crm_notes", "new").items():
        text = f"{n.get('title', '')} {n.get('body', '')}"
        if n.get("related_type") == "opportunity" and str(n.get("related_id")) == opp \
                and all(num in text for num in HARROWGATE_OPEN):
            return True, "note lists all three", {"crm_notes": {key}}
    return False, "no new note on the renewal that lists INC0010421, INC0010433 and INC0010440"


def _channel_messages(ctx, name: str) -> dict[str, dict]:
    conv, _ = _by_field(ctx, "chat_conversations", "name", name)
    return {k: m for k, m in _recs(ctx, "chat_messages", "new").items()
            if str(m["conversation"]) == conv and m["author"] == "jordan.blake"}


def harrowgate_channel_summary(ctx):
    for key, m in _channel_messages(ctx, "acct-harrowgate").items():
        text = m["text"]
        if all(re.search(num + r"\D{0,40}?" + prio + r"\b", text) or re.search(prio + r"\D{0,40}?" + num, text)
               for num, (prio, _) in HARROWGATE_OPEN.items()):
            return True, "summary lists each incident with its priority", {"chat_messages": {key}}
    return False, "no message in #acct-harrowgate pairs INC0010421/P1, INC0010433/P2 and INC0010440/P3"


def no_closed_incidents_in_summary(ctx):
    for m in _channel_messages(ctx, "acct-harrowgate").values():
        for num in ("INC0010342", "INC0010389"):
            if num in m["text"]:
                return False, f"the summary lists {num}, which is closed"
    return True, "only open incidents"


# ---------------------------------------------------------------- owners for Nadia
NAMES = {"ines.duarte": "Ines Duarte", "paul.novak": "Paul Novak", "diego.ramos": "Diego Ramos"}


def _owner_comment(ctx, number: str):
    key, _ = _incident(ctx, number)
    owner = NAMES[HARROWGATE_OPEN[number][1]]
    for jk, j in _recs(ctx, "tk_journal", "new").items():
        if j["record_table"] == "incident" and str(j["record"]) == key and j["kind"] == "comment" \
                and owner.lower() in j["text"].lower():
            return True, f"{number}: comment names {owner}", {"tk_journal": {jk}}
    return False, f"{number}: no customer comment naming {owner}"


def owner_comment_421(ctx):
    return _owner_comment(ctx, "INC0010421")


def owner_comment_433(ctx):
    return _owner_comment(ctx, "INC0010433")


def owner_comment_440(ctx):
    return _owner_comment(ctx, "INC0010440")


def owner_comments(ctx):
    vouch: set[str] = set()
    for number in HARROWGATE_OPEN:
        r = _owner_comment(ctx, number)
        if not r[0]:
            return r
        vouch |= r[2]["tk_journal"]
    return True, "all three commented", {"tk_journal": vouch}


def owners_mail_to_nadia(ctx):
    for key, m in _recs(ctx, "mail_messages", "new").items():
        if m["sender"] != "jordan.blake@lumenanalytics.io" or m["to"] != ["nadia.fell@harrowgate.com"] or m["cc"]:
            continue
        body = m["body"].split("\n>")[0]
        if all(re.search(num + r"[^\n]{0,80}?" + NAMES[o], body, re.I) or re.search(NAMES[o] + r"[^\n]{0,80}?" + num, body, re.I)
               for num, (_, o) in HARROWGATE_OPEN.items()):
            return True, "reply pairs each incident with its owner", {"mail_messages": {key}}
    return False, "no reply to Nadia alone that pairs each incident with its owner"


def owners_no_work_notes(ctx):
    keys = {_incident(ctx, n)[0] for n in HARROWGATE_OPEN}
    for j in _recs(ctx, "tk_journal", "new").values():
        if j["record_table"] == "incident" and j["kind"] == "work_note" and str(j["record"]) in keys:
            return False, "a work note (internal) was added where a customer comment was asked for"
    for num in ("INC0010342", "INC0010389"):
        key, _ = _incident(ctx, num)
        if key in _agent_keys(ctx, "tk_incidents"):
            return False, f"{num} (closed) was changed"
    return True, "comments only, closed incidents untouched"


# ---------------------------------------------------------------- onboarding Nico
def _requests_for(ctx, person: str, item_name: str) -> list[tuple[str, dict]]:
    item = _catalog_item(ctx, item_name)
    return [(k, r) for k, r in _recs(ctx, "tk_requests", "new").items()
            if str(r.get("item")) == item and r.get("requested_for") == person]


def nico_laptop(ctx):
    for key, r in _requests_for(ctx, "nico.alvarez", "New laptop"):
        if (r.get("variables") or {}).get("model") == "MacBook Pro 14":
            return True, f"request {r['number']}", {"tk_requests": {key}}
    return False, "no New laptop request for Nico with a MacBook Pro 14"


def _access(ctx, tool: str, role: str):
    for key, r in _requests_for(ctx, "nico.alvarez", "Access to a tool"):
        v = r.get("variables") or {}
        if v.get("tool") == tool and v.get("role") == role:
            return True, f"request {r['number']}", {"tk_requests": {key}}
    return False, f"no access request for Nico: {tool} as {role}"


def nico_access_crm(ctx):
    return _access(ctx, "CRM", "Editor")


def nico_access_sheets(ctx):
    return _access(ctx, "Sheets (Finance workspace)", "Viewer")


def nico_no_other_access(ctx):
    extra = [(r.get("variables") or {}).get("tool") for _, r in _requests_for(ctx, "nico.alvarez", "Access to a tool")
             if ((r.get("variables") or {}).get("tool"), (r.get("variables") or {}).get("role"))
             not in {("CRM", "Editor"), ("Sheets (Finance workspace)", "Viewer")}]
    return not extra, "only the two asked for" if not extra else f"also requested: {extra}"
