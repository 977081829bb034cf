"""Checks of the webinar leads worked as they come in (lumen/webinar-leads).

Maya Patel imports the "Data downtime in healthcare" follow-ups as leads during the task, in two
batches, and later passes on what one lead told her (the co-worker triggers the task turns on, in
``coworkers.yaml``: their ``apps.crm.service.create`` calls and her message). Each lead is judged by
the "Lead qualification" doc, criterion by criterion — met, failed or not known yet:

- **Qualified**: all three met; **Unqualified**: any one failed (the doc: note which in the lead's
  description); **Working**: none failed but one isn't known yet (the doc: keep it Working and find out).

What each lead should end as is computed from the leads as Maya filed them and what she passed on.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify.answer import normalise
from harness.verify.checks import numbered, world_module, world_yaml
from harness.verify.guard import Vouch

MAYA = "maya.patel"
CREATE = "apps.crm.service.create"
# "Marisol Reyes at Sunpath Dental Partners replied to my follow-up: their CFO, Ana Ortiz, owns the budget."
OWNER_NEWS = re.compile(r"at (?P<company>[A-Z][\w&'’ -]+?) replied[^:]*:.*?, (?P<owner>[A-Z][\w'’-]+ [A-Z][\w'’-]+), "
                        r"owns the budget", re.S)
NOT_NAMED = re.compile(r"(?i)^\s*(none|not\b|no\b|tbd|unknown|n/a|finance|the finance|procurement|undecided)")
PROPER_NAME = re.compile(r"\s*(?:Dr\.? )?[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)+")
SOON = re.compile(r"(?i)\bthis quarter\b|\bnext month\b|\bweeks?\b|\bwithin (?:[1-5]|one|two|three|four|five) months?\b")


SUPERSEDES = re.compile(r"(?:^|(?<=[.;\n]))[^.;\n]*\b(?:update[ds]?|now (?:qualified|qualifies|working)|is now|changed to|"
                        r"re-?qualified)\b", re.I)


def _checks():
    return world_module(Path(__file__).parent, "checks")


def _days():
    return world_module(Path(__file__).parent, "checks_days")


def _lists():
    return world_module(Path(__file__).parent, "checks_lists")


def _maya(ctx) -> list[dict]:
    on = set(getattr(ctx.task, "coworkers", None) or [])
    spec = world_yaml(Path(ctx.world_root) / "coworkers.yaml")["coworkers"]
    maya = next(c for c in spec if c["id"] == MAYA)
    return [t for t in maya.get("triggers") or [] if f"{MAYA}:{t['id']}" in on]


def _said(ctx, text: str) -> bool:
    """Has Maya's message reached the agent by the end (a run stopped earlier never heard it)?"""
    flat = " ".join(text.split())
    return any(m.get("author") == MAYA and " ".join((m.get("text") or "").split()) == flat
               for m in ctx.final["tables"]["chat_messages"]["records"].values())


def filed(ctx) -> list[dict]:
    """The leads Maya imports, in the order she files them, each with what she later passed on (once
    her message has come: before it, the scan is all anyone knows)."""
    out, news = [], {}
    for t in _maya(ctx):
        for a in t.get("do") or []:
            if a.get("call") == CREATE and a["args"].get("obj") == "leads":
                out.append(dict(a["args"]))
            if a.get("post") and _said(ctx, a["post"]):
                for m in OWNER_NEWS.finditer(" ".join(a["post"].split())):
                    news[m["company"].strip()] = m["owner"]
    for lead in out:
        lead["news_owner"] = news.get(lead["company"])
    return out


def criteria(lead: dict) -> dict[str, bool | None]:
    """Each criterion of the rule for a lead as filed: True met, False failed, None not known yet
    (the scan doesn't say). A budget owner Maya heard of later is a named one."""
    text = lead.get("description") or ""
    locations = lead.get("locations")
    owner = re.search(r"Budget owner:\s*((?:Dr\.\s*)?[^.]+)\.", text)
    if lead.get("news_owner"):
        named = True
    elif owner is None:
        named = None
    else:
        named = not NOT_NAMED.match(owner.group(1)) and PROPER_NAME.match(owner.group(1)) is not None
    timeline = re.search(r"Timeline:\s*([^.]+)\.", text)
    soon = None if timeline is None else SOON.search(timeline.group(1)) is not None
    return {"locations": None if locations in (None, "") else int(locations) >= 10, "budget owner": named,
            "timeline": soon}


def expected(lead: dict) -> str:
    met = criteria(lead).values()
    return "Unqualified" if False in met else "Working" if None in met else "Qualified"


def _found(ctx, lead: dict) -> tuple[str | None, dict | None]:
    for k, r in ctx.final["tables"]["crm_leads"]["records"].items():
        if r.get("company") == lead["company"] and r.get("last_name") == lead["last_name"] and r.get("created_by") == MAYA:
            return k, r
    return None, None


def _order(ctx) -> list[dict]:
    return sorted(filed(ctx), key=lambda lead: lead["company"])


def _worked(ctx, n: int):
    """The ``n``-th webinar lead (by company) has the status the rule gives it; its scan text is kept in
    its description, and what was added to it says nothing the rule contradicts — for an Unqualified
    lead, it names a criterion that failed, as the doc asks."""
    leads = _order(ctx)
    if not 1 <= n <= len(leads):
        raise ValueError(f"lead {n}: Maya files {len(leads)} leads")
    lead = leads[n - 1]
    key, rec = _found(ctx, lead)
    name = lead["company"]
    if rec is None:
        return False, f"{name}: not imported yet", []
    want = expected(lead)
    if rec["status"] != want:
        return False, f"{name}: {rec['status']} (want {want}: {criteria(lead)})", []
    c = _checks()
    fields = ["status", "description"]        # the description as it is now is right (below): a rewrite of
    old, new = c._squash(lead.get("description")), c._squash(rec.get("description"))    # it back is too
    if new != old and lead.get("news_owner"):
        # the scan's budget-owner line brought up to date with what Maya heard ("Budget owner: Ana Ortiz, CFO")
        owner = re.search(r"budget owner:\s*((?:dr\.\s*)?[^.]+)\.", old, re.I)
        if owner:
            line = re.compile(re.escape(old[:owner.start(1)]) + rf"[^.]*\b{re.escape(c._squash(lead['news_owner']))}\b[^.]*"
                              + re.escape(old[owner.end(1):]))
            found = line.search(new)
            if found:
                old = found.group(0)
    if new != old:
        if old not in new:
            return False, f"{name}: the scan text in its description was changed", []
        met = {k: bool(v) for k, v in criteria(lead).items()}
        added = new.replace(old, " ", 1)
        # A note kept as a log: what a later update says supersedes the earlier lines ("Unqualified for now: no
        # named budget owner. Update from Maya: their CFO owns the budget, so it is now Qualified.").
        updates = [m.start() for m in SUPERSEDES.finditer(added)]
        if updates:
            added = added[updates[-1]:]
        problems = c.reason_problems(added, met)
        if want != "Unqualified":
            problems = [p for p in problems if p != "names no criterion that failed"]
        if problems:
            return False, f"{name}: the note added {'; '.join(problems)}", []
    elif want == "Unqualified":
        return False, f"{name}: Unqualified, but no note says which criterion failed", []
    return True, f"{name}: {want}", [Vouch.of("crm_leads", key, tuple(fields))]


# A sentence that gives leads another status than Qualified sets them aside from Tessa's list.
NOT_QUALIFIED = re.compile(r"\bworking\b|\bunqualified\b|\bnot (?:yet )?qualified\b|\bpending\b|\bwaiting\b|"
                           r"\bon hold\b|\bnurtur\w*", re.I)


def tessa_list(ctx):
    """What Tessa was told is Qualified, read from your messages to her in order as she would read them
    (``checks_lists.told``: a PS or a correction adds to or takes from it; leads named as Working or
    Unqualified don't count; a hedge fails), is exactly the webinar leads that are Qualified. Three
    such messages at most."""
    tessa = "tessa.grant"
    leads = {lead["company"]: lead for lead in filed(ctx)}
    names = {co: co for co in leads}
    want = {co for co, lead in leads.items() if expected(lead) == "Qualified"}
    msgs = [m for m in _days().messages_to(ctx, tessa) if _lists()._hits(normalise(m[3]), names)]
    if not msgs:
        return False, "no message of yours to Tessa names the qualified webinar leads", []
    if len(msgs) > 3:
        return False, f"{len(msgs)} messages to Tessa with webinar leads (a list and a correction or two)", []
    got, problem = _lists().told([m[3] for m in msgs], names, [], NOT_QUALIFIED)
    if problem:
        return False, f"your list to Tessa: {problem}", []
    if got != want:
        missing, extra = sorted(want - got), sorted(got - want)
        return False, "what Tessa was told: " + "; ".join(
            (["missing " + ", ".join(missing)] if missing else []) + (["not Qualified: " + ", ".join(extra)] if extra else [])), []
    return True, f"Tessa has the {len(want)} Qualified leads", _days()._vouch_all(msgs, tessa)


globals().update(numbered("lead_", _worked, 11))
