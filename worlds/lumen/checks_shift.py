"""Checks of the morning shift on the service desk (lumen/triage-shift): besides the five overnight
incidents, customers file incidents while Kofi is in the Harrowgate session, and one of them updates
hers later. What each arrival should become is computed from the filings themselves — the
co-workers' triggers the task turns on (``coworkers.yaml``) — and KB0001001 (its priority table, its
routing, the Support Lead who keeps what it doesn't route); an arrival is found in the store by its
short description and the customer who filed it.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify.answer import normalise
from harness.verify.checks import numbered, world_module, world_yaml
from harness.verify.guard import Vouch
from harness.verify.reading import Cand, phrase_hits

CREATE = "apps.tickets.service.create_incident"
COMMENT = "apps.tickets.service.add_comment"
LEVEL = r"(High|Medium|Low)"


def _checks():
    return world_module(Path(__file__).parent, "checks")


def _on(ctx) -> set[str]:
    return set(getattr(ctx.task, "coworkers", None) or [])


def arrivals(ctx) -> list[dict]:
    """The incidents customers file during the shift, in the order they arrive: who files it, at which
    step, its fields as filed, and the impact and urgency it should end with (a later update of the
    customer's — "Please treat this as High impact and High urgency" — overrides the filing)."""
    spec = world_yaml(Path(ctx.world_root) / "coworkers.yaml")["coworkers"]
    on = _on(ctx)
    filed, updates = [], {}
    for cw in spec:
        for t in cw.get("triggers") or []:
            if f"{cw['id']}:{t['id']}" not in on:
                continue
            for a in t.get("do") or []:
                if a.get("call") == CREATE:
                    filed.append({"caller": cw["id"], "trigger": t["id"], "step": t.get("steps"), **a["args"]})
                elif a.get("call") == COMMENT and isinstance(a["args"].get("ref"), dict):
                    text = a["args"]["text"]
                    imp = re.search(rf"\b{LEVEL} impact\b", text)
                    urg = re.search(rf"\b{LEVEL} urgency\b", text)
                    if not imp or not urg:
                        raise ValueError(f"{cw['id']}:{t['id']}: an update that doesn't give impact and urgency")
                    updates[a["args"]["ref"]["incident_titled"]] = (imp.group(1), urg.group(1))
    filed.sort(key=lambda a: a["step"])
    for a in filed:
        a["filed"] = (a["impact"], a["urgency"])
        a["updated"] = a["short_description"] in updates
        a["impact"], a["urgency"] = updates.get(a["short_description"], a["filed"])
    return filed


def support_lead(ctx) -> str:
    """Who keeps what KB0001001 doesn't route ("Other → leave with the Support Lead (Kofi Mensah)")."""
    c = _checks()
    name = re.search(r"leave with the Support Lead \(([^)]+)\)", c._kb_body(ctx, "KB0001001")).group(1)
    return next(slug for slug, p in c._people(ctx).items() if p.get("name") == name)


def expected(ctx, a: dict) -> dict:
    """What KB0001001 makes of an arrival: its priority, its group (None: it stays with the Support
    Lead, unassigned, for him to route) and its assignee (the group's manager)."""
    c = _checks()
    group = c.kb_routing(ctx).get(a["category"])
    return {"impact": a["impact"], "urgency": a["urgency"],
            "priority": c.kb_priority_matrix(ctx)[(a["impact"], a["urgency"])],
            "group": group, "assignee": c._groups(ctx)[group]["manager"] if group else ""}


def _found(ctx, a: dict) -> tuple[str | None, dict | None]:
    for k, r in ctx.final["tables"]["tk_incidents"]["records"].items():
        if r.get("short_description") == a["short_description"] and r.get("caller_id") == a["caller"] \
                and r.get("opened_by") == a["caller"]:
            return k, r
    return None, None


def _arrival(ctx, n: int) -> dict:
    got = arrivals(ctx)
    if not 1 <= n <= len(got):
        raise ValueError(f"arrival {n}: the task turns on {len(got)} filings")
    return got[n - 1]


def _triage(ctx, n: int, parts: tuple[str, ...]):
    """Arrival ``n``'s triage as KB0001001 gives it: ``route`` (group and assignee), ``level`` (impact,
    urgency and the priority they give)."""
    a = _arrival(ctx, n)
    key, inc = _found(ctx, a)
    if inc is None:
        return False, f"{a['short_description']!r} hasn't come in (it is filed {a['step']} steps into the shift)", []
    want = expected(ctx, a)
    have_group = _checks()._group_names(ctx).get(str(inc.get("assignment_group")))
    problems, fields = [], []
    if "route" in parts:
        fields += ["assignment_group", "assigned_to"]
        if have_group != want["group"]:
            problems.append(f"group {have_group or 'none'} (want {want['group'] or 'none: it stays with the Support Lead'})")
        if inc.get("assigned_to") != want["assignee"]:
            problems.append(f"assigned to {inc.get('assigned_to') or 'nobody'} (want {want['assignee']})")
    if "level" in parts:
        fields += ["impact", "urgency"]
        if (inc.get("impact"), inc.get("urgency")) != (want["impact"], want["urgency"]):
            problems.append(f"{inc.get('impact')} × {inc.get('urgency')} = P{inc.get('priority')} (want "
                            f"{want['impact']} × {want['urgency']} = P{want['priority']}"
                            + (", as the customer's update asks)" if a["updated"] else ")"))
    label = f"{inc['number']} ({a['short_description']})"
    if problems:
        return False, f"{label}: " + "; ".join(problems), []
    return True, f"{label}: P{inc.get('priority')}, {have_group or 'no group'}, {inc.get('assigned_to')}", \
        [Vouch.of("tk_incidents", key, tuple(fields))]


def _spellings(group: str) -> list[str]:
    """How people write a group's name: "Identity & Access" / "Identity and Access", "Billing Ops" /
    "Billing Operations", "Platform Infra" / "Platform Infrastructure"."""
    out = {group, group.replace("&", "and")}
    for short, full in (("Ops", "Operations"), ("Infra", "Infrastructure")):
        out |= {n.replace(short, full) for n in out if short in n.split()}
    return sorted(out, key=len, reverse=True)


LEAD = "the Support Lead"
# ... or before it: "not Platform Infra", "it isn't with Billing Ops", "rather than Pipeline Ops".
DENIED_BEFORE = re.compile(r"(?:\bnot|n['’]t|\bnever|\bno longer|\binstead of|\brather than|\bother than|\bexcept(?: for)?)"
                           r"\s+(?:[\w'’]+\s+){0,2}$", re.I)
# A team named only to be denied after it: "Pipeline Ops doesn't have this yet", "Platform Infra isn't on it".
DENIED_AFTER = re.compile(r"^\s*(?:team\s+)?(?:doesn['’]t|does not|don['’]t|isn['’]t|is not|aren['’]t|are not|"
                          r"won['’]t|will not|hasn['’]t|has not|(?:is |are )?no longer)\b", re.I)


def _team_mentions(ctx, text: str) -> list[Cand]:
    """The teams a comment puts the incident with: an assignment group (as people write its name), a
    group manager by name (their group), or the Support Lead by role (value ``LEAD``). Kofi Mensah is
    both Pipeline Ops' manager and the Support Lead: his name counts as either (value ``"person:kofi…"``)."""
    c = _checks()
    out: list[Cand] = []

    def add(phrase, value):
        for h in phrase_hits(text, phrase):
            if not any(o.start <= h.start < o.end or h.start <= o.start < h.end for o in out):
                out.append(Cand(h.start, h.end, value))
    for g in c._group_names(ctx).values():
        for spelling in _spellings(g):
            add(spelling, g)
    add("Support Lead", LEAD)
    people = c._people(ctx)
    lead = support_lead(ctx)
    for g in c._groups(ctx).values():
        who = g["manager"]
        value = f"person:{who}" if who == lead else g["name"]
        name = people[who]["name"]
        for phrase in (name, name.split()[0]):
            add(phrase, value)
    return sorted(out, key=lambda x: x.start)


def _team_ok(ctx, value, group: str | None) -> bool:
    """Does a team mention name the team that has the incident (``group``; None: the Support Lead)?"""
    lead = support_lead(ctx)
    if value == f"person:{lead}":
        lead_group = next((g["name"] for g in _checks()._groups(ctx).values() if g["manager"] == lead), None)
        return group is None or group == lead_group
    return value == (group if group is not None else LEAD)


def _ack(ctx, key: str | None, label: str, group: str | None, priority: int | None = None):
    """One new customer-visible comment of the agent's on the incident that says which team has it: the
    team it is with (``group``; None: the Support Lead), no other team as having it (one named only to be
    denied is fine), and, if it gives a priority, the incident's own (``priority``)."""
    if key is None:
        return False, f"{label} hasn't come in", []
    c = _checks()
    inc = ctx.final["tables"]["tk_incidents"]["records"][key]
    caller = inc.get("caller_id")
    mine = {k: j for k, j in ctx.added_by_agent("tk_journal").items()
            if j["record_table"] == "incident" and str(j["record"]) == key and j["kind"] == "comment"}
    team = group or LEAD

    def problem(j):
        text = normalise(j.get("text") or "")
        if c.leaks(ctx, text):
            return "a comment carrying internal text"
        mentions = _team_mentions(ctx, text)
        live = [m for m in mentions if not DENIED_BEFORE.search(text[max(0, m.start - 40):m.start])
                and not DENIED_AFTER.search(text[m.end:m.end + 40])]
        right = [m for m in live if _team_ok(ctx, m.value, group)]
        wrong = sorted({str(m.value).replace("person:", "") for m in live if not _team_ok(ctx, m.value, group)})
        if not right:
            return f"a comment that doesn't say {team} has it"
        if wrong:
            return f"a comment that also puts it with {', '.join(wrong)}"
        if priority is not None:
            prios = c.priority_mentions(text)
            ok, why = c.stated_only(text, prios, priority) if prios else (True, "")
            if not ok:
                return f"a comment giving the priority as {why}"
        return None
    good, found = c._sift(mine, problem)
    return c._only_one(good, f"{len(good)} comments on {label} telling the customer who has it (one)",
                       f"the customer of {label} is told {team} has it",
                       "; ".join(found) or f"no customer-visible comment of yours on {label}",
                       lambda ks: [Vouch.of("tk_journal", k, to=[caller]) for k in ks])


def _arrival_ack(ctx, n: int):
    a = _arrival(ctx, n)
    key, inc = _found(ctx, a)
    want = expected(ctx, a)
    return _ack(ctx, key, inc["number"] if inc else repr(a["short_description"]), want["group"], want["priority"])


def _overnight_ack(ctx, i: int):
    c = _checks()
    number = sorted(c.triage_expected(ctx))[i]
    key, _ = c._incident(ctx, number)
    want = c.triage_expected(ctx)[number]
    return _ack(ctx, key, number, want["group"], want["priority"])


def _page(ctx, n: int):
    """Arrival ``n`` is paged once in #support-oncall with its number and its customer (and, if the page
    gives a priority, P1 and no other) — a P1 by KB0001001 §3, the customer's update included."""
    c = _checks()
    a = _arrival(ctx, n)
    key, inc = _found(ctx, a)
    if inc is None:
        return False, f"{a['short_description']!r} hasn't come in", []
    if expected(ctx, a)["priority"] != 1:
        raise ValueError(f"arrival {n} is not a P1: nothing to page")
    customer = c._account_name(ctx, a["account"])

    def problem(m):
        text = normalise(m["text"])
        if not c.names_customer(text, customer):
            return f"a page without the customer ({customer})"
        prios = c.priority_mentions(text)
        ok, why = c.stated_only(text, prios, 1) if prios else (True, "")
        return None if ok else f"a page stating the priority as {why}"
    pages = {k: m for k, m in c._channel_messages(ctx, "support-oncall").items()
             if c._number_rx(inc["number"]).search(normalise(m["text"]))}
    good, found = c._sift(pages, problem)
    return c._only_one(good, f"{inc['number']} paged {len(good)} times (one page)", f"{inc['number']} ({customer}) paged",
                       "; ".join(found) or f"no post in #support-oncall names {inc['number']}",
                       lambda ks: [Vouch.of("chat_messages", k) for k in ks])


def _account_channel(ctx, n: int):
    """KB0001005, as Kofi asks for Harrowgate: arrival ``n`` (a P1 or P2 of theirs) is posted once in the
    account channel with its number, tagging the account's CSM (from the CRM); a priority it gives is its own."""
    c = _checks()
    a = _arrival(ctx, n)
    key, inc = _found(ctx, a)
    if inc is None:
        return False, f"{a['short_description']!r} hasn't come in", []
    want = expected(ctx, a)["priority"]
    if want > 2:
        raise ValueError(f"arrival {n} is P{want}: KB0001005 asks nothing")
    _, account = c._by_field(ctx, "crm_accounts", "slug", a["account"])
    csm = account["csm"]
    channel = f"acct-{a['account']}"

    others = []                        # what else came in this morning that KB0001005 doesn't send there
    for b in arrivals(ctx):
        _, other = _found(ctx, b)
        if other is not None and other["number"] != inc["number"] and expected(ctx, b)["priority"] > 2:
            others.append(other["number"])

    def problem(m):
        text = normalise(m["text"])
        if csm not in (m.get("mentions") or []):
            return f"a post that doesn't tag the CSM (@{csm})"
        extra = [n for n in others if c._number_rx(n).search(text)]
        if extra:
            return f"a post that also brings {', '.join(extra)}, not a P1 or P2, to the account channel"
        prios = c.priority_mentions(text)
        ok, why = c.stated_only(text, prios, want) if prios else (True, "")
        return None if ok else f"a post stating the priority as {why}"
    posts = {k: m for k, m in c._channel_messages(ctx, channel).items()
             if c._number_rx(inc["number"]).search(normalise(m["text"]))}
    good, found = c._sift(posts, problem)
    return c._only_one(good, f"{inc['number']} posted {len(good)} times in #{channel} (once)",
                       f"#{channel} told of {inc['number']} (P{want}), @{csm} tagged",
                       "; ".join(found) or f"no post in #{channel} names {inc['number']}",
                       lambda ks: [Vouch.of("chat_messages", k) for k in ks])


def not_paged_unless_p1(ctx):
    """Gate: no arrival that isn't a P1 (by its final impact × urgency) is paged in #support-oncall."""
    c = _checks()
    pages = c._channel_messages(ctx, "support-oncall")
    wrong = []
    for a in arrivals(ctx):
        _, inc = _found(ctx, a)
        if inc is None or expected(ctx, a)["priority"] == 1:
            continue
        if any(c._number_rx(inc["number"]).search(normalise(m["text"])) for m in pages.values()):
            wrong.append(f"{inc['number']} (P{expected(ctx, a)['priority']})")
    return (False, "paged although not a P1: " + ", ".join(wrong)) if wrong else (True, "only P1s paged")


# One function per arrival and per overnight incident, so each is its own check in the task file.
globals().update(numbered("triaged_", _triage, 6, ("route", "level")))
globals().update(numbered("routed_", _triage, 6, ("route",)))
globals().update(numbered("raised_", _triage, 6, ("level",)))
globals().update(numbered("ack_", _arrival_ack, 6))
globals().update(numbered("paged_", _page, 6))
globals().update(numbered("account_channel_", _account_channel, 6))
globals().update(numbered("ack_overnight_", lambda ctx, i: _overnight_ack(ctx, i - 1), 5))


def unrouted_4(ctx):
    """Gate: the category-Other filing (Greta's) is in no group and assigned to nobody — KB0001001 leaves
    it with the Support Lead for routing (holds until it comes in)."""
    a = _arrival(ctx, 4)
    if expected(ctx, a)["group"] is not None:
        raise ValueError("arrival 4 is routed by KB0001001: nothing to leave alone")
    _, inc = _found(ctx, a)
    if inc is None:
        return True, "not in yet"
    group = _checks()._group_names(ctx).get(str(inc.get("assignment_group")))
    if group or inc.get("assigned_to"):
        return False, f"{inc['number']} put in {group or 'no group'}, assigned to {inc.get('assigned_to') or 'nobody'}"
    return True, f"{inc['number']} left with the Support Lead"
