"""Checks of Leo Marsh's book handed over before his leave (lumen/leo-book-handover).

The split is Farah Aziz's: her request (the task's prompt) names whose book it is, the ARR line, who
takes the accounts at or above it and who takes the rest; a later message of hers (a co-worker trigger
the task turns on, in ``coworkers.yaml``) moves named accounts to someone else ("Stackhouse Systems and
Atlas Outdoor Advertising go to Dana as well"). What each account should end with is computed from
those messages and the CRM at the start (which accounts are the departing CSM's, their ARR).
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify.answer import normalise
from harness.verify.checks import numbered, world_module, world_yaml
from harness.verify.guard import Vouch
from harness.verify.reading import phrase_hits

FARAH = "farah.aziz"
SPLIT = re.compile(r"(?P<who>[A-Z][a-z]+ [A-Z][a-z]+)['’]s book.*?\$(?P<cut>[\d,]+) ARR or more go to "
                   r"(?P<above>[A-Z][a-z]+), the rest to (?P<below>[A-Z][a-z]+)", re.S)
MOVED = re.compile(r":\s*(?P<names>.+?) go to (?P<to>[A-Z][a-z]+) (?:as well|instead)", re.S)


def _days():
    return world_module(Path(__file__).parent, "checks_days")


def _lists():
    return world_module(Path(__file__).parent, "checks_lists")


def _turns(ctx) -> list[str]:
    """What Farah asked, in order: the task's prompt (her request), then the messages of hers this task
    turns on, in the order she sends them."""
    on = set(getattr(ctx.task, "coworkers", None) or [])
    spec = world_yaml(Path(ctx.world_root) / "coworkers.yaml")["coworkers"]
    farah = next(c for c in spec if c["id"] == FARAH)
    turns = [t for t in farah.get("triggers") or [] if f"{FARAH}:{t['id']}" in on and t.get("when") == "steps"]
    return [ctx.task.prompt] + [a["post"] for t in sorted(turns, key=lambda t: t["steps"]) for a in t["do"] if "post" in a]


def _people(ctx) -> dict[str, dict]:
    return {p["slug"]: p for p in ctx.initial["tables"]["people"]["records"].values()}


def _person(ctx, name: str) -> str:
    """A colleague by full name, or by first name when only one person in the organisation has it."""
    people = _people(ctx)
    full = [s for s, p in people.items() if p.get("name") == name]
    if full:
        return full[0]
    first = [s for s, p in people.items() if (p.get("name") or "").split()[0] == name
             and (p.get("email") or "").endswith("@lumenanalytics.io")]
    if len(first) != 1:
        raise ValueError(f"{name!r} names {len(first)} colleagues")
    return first[0]


def _accounts(ctx) -> dict[str, dict]:
    return ctx.initial["tables"]["crm_accounts"]["records"]


def plan(ctx) -> dict[str, str]:
    """Account key → the CSM it should end with: the departing CSM's accounts at the start, split at
    Farah's ARR line, then the accounts she moves later."""
    turns = _turns(ctx)
    m = SPLIT.search(" ".join(turns[0].split()))
    if not m:
        raise ValueError(f"Farah's request gives no split: {turns[0][:200]!r}")
    leaving, cut = _person(ctx, m["who"]), int(m["cut"].replace(",", ""))
    above, below = _person(ctx, m["above"]), _person(ctx, m["below"])
    out = {k: (above if (a.get("arr") or 0) >= cut else below)
           for k, a in _accounts(ctx).items() if a.get("csm") == leaving}
    for text in turns[1:]:
        mv = MOVED.search(" ".join(text.split()))
        if not mv:
            continue
        to = _person(ctx, mv["to"])
        named = [k for k in out if phrase_hits(mv["names"], _accounts(ctx)[k]["name"])]
        if not named:
            raise ValueError(f"Farah's message moves no account of the book: {text!r}")
        out.update({k: to for k in named})
    return out


def _book(ctx) -> list[str]:
    """The book's accounts in a fixed order (by name), so each has its own check."""
    return sorted(plan(ctx), key=lambda k: _accounts(ctx)[k]["name"])


def _account(ctx, i: int):
    """The book's ``i``-th account (by name) has the CSM the plan gives it (its owner and the rest of it
    as they were: only the CSM is vouched for)."""
    keys = _book(ctx)
    if not 1 <= i <= len(keys):
        raise ValueError(f"account {i}: the book has {len(keys)} accounts")
    key = keys[i - 1]
    want = plan(ctx)[key]
    now = ctx.final["tables"]["crm_accounts"]["records"].get(key) or {}
    name = _accounts(ctx)[key]["name"]
    if now.get("csm") != want:
        return False, f"{name}: CSM {now.get('csm') or 'none'} (want {want})", []
    return True, f"{name} → {want}", [Vouch.of("crm_accounts", key, ("csm",))]


def _list_to(ctx, person: str):
    """What ``person`` was told they take over, read from your messages that reach them (a DM or a mail)
    in order, as they would read it (``checks_lists.told``: a correction adds to or takes from the list
    unless it replaces it; names set aside or given to the other CSM don't count; a hedge fails), is
    exactly the accounts the plan gives them. Four such messages at most."""
    keys = plan(ctx)
    names = {k: _accounts(ctx)[k]["name"] for k in keys}
    want = {k for k, who in keys.items() if who == person}
    people = _people(ctx)
    first = people[person]["name"].split()[0]
    others = sorted({n for w in set(keys.values()) - {person} for n in (people[w]["name"], people[w]["name"].split()[0])})
    msgs = [m for m in _days().messages_to(ctx, person) if _lists()._hits(normalise(m[3]), names)]
    if not msgs:
        return False, f"no message of yours to {first} lists the accounts", []
    if len(msgs) > 4:
        return False, f"{len(msgs)} messages to {first} with accounts of the book (a list and a correction or two)", []
    got, problem = _lists().told([m[3] for m in msgs], names, others)
    if problem:
        return False, f"your list to {first}: {problem}", []
    if got != want:
        missing, extra = sorted(names[k] for k in want - got), sorted(names[k] for k in got - want)
        return False, (f"what {first} was told: " + "; ".join(
            (["missing " + ", ".join(missing)] if missing else []) + (["not theirs: " + ", ".join(extra)] if extra else []))), []
    return True, f"{first} has the list of {len(want)} accounts", _days()._vouch_all(msgs, person)


def list_to_dana(ctx):
    return _list_to(ctx, _person(ctx, "Dana Whitaker"))


def list_to_grace(ctx):
    return _list_to(ctx, _person(ctx, "Grace Okoro"))


globals().update(numbered("account_", _account, 14))
