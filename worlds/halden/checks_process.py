"""halden — group B reading & calculation tasks (answer tasks): the expected answers, computed from the
world's own state at the start (``ctx.initial``: the Buyer Tracker's NDA log, the service-desk requests, the
VDR's shares, the calendars, the model's and the comps' cells, the CIM drafts, the VDR's headcount schedule)
and, through the shared module, from the IOI letters and Victoria's rules. Nothing here is typed by hand: a
world file that changes moves the answer key with it.

Set answers (names) are written in the task file (``answer.values``); each such task carries a gate
``…_key`` that recomputes the set from the world and holds only while the file's values are that set, so
the answer key can't silently drift from the documents.
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path

from harness.verify.answer import answer_text, normalise, number_cands
from harness.verify.checks import world_module

C = world_module(Path(__file__).parent, "checks")

TRACKER = "Buyer Tracker"
MODEL = "Juniper Model v7"
COMPS = "Comps – Trading & Precedents"
CTA = C.TEAM / "01 Process" / "Kestrel Clean Team Agreement (2026-02-27).pdf.md"
CIM_V3 = C.TEAM / "02 Marketing" / "CIM v3 (2026-03-09).gdoc.md"
CIM_V4 = C.TEAM / "02 Marketing" / "CIM v4 (2026-03-16).gdoc.md"
HEADCOUNT = C.VDR / "5 HR" / "5.1 Headcount at 2026-03-31.pdf.md"
PHASE_I = "0 Phase I"


# ---------------------------------------------------------------- readers (the start state)
def _recs(ctx, table: str) -> list[dict]:
    return list(ctx.initial["tables"][table]["records"].values())


def _cell(ctx, title: str, tab: str, a1: str):
    c = C.sheet_cells(ctx.initial, title, tab).get(a1)
    if c is None:
        raise LookupError(f"{title} › {tab}!{a1} is not in the world")
    return c["value"]


def _rows(ctx, title: str, tab: str) -> list[dict[str, str]]:
    """A tab's rows (from row 2) as {column letter: displayed text}."""
    rows = C.sheet_rows(ctx.initial, title, tab)
    return [{col: str(c.get("display") if c.get("display") is not None else c.get("value") or "")
             for col, c in rows[r].items()} for r in sorted(rows) if r > 1]


def _orgs(ctx) -> dict[str, dict]:
    return {o["slug"]: o for o in _recs(ctx, "orgs")}


def _person_org(ctx) -> dict[str, str]:
    """person slug → the name of their organisation."""
    orgs = _orgs(ctx)
    return {p["slug"]: orgs[p["org"]]["name"] for p in _recs(ctx, "people") if p.get("org") in orgs}


def _requests(ctx) -> list[dict]:
    """Service-catalog requests, each with its catalog item's name (``item``) and its variables (``vars``)."""
    catalog = {str(k): c["name"] for k, c in ctx.initial["tables"]["tk_catalog"]["records"].items()}
    out = []
    for r in _recs(ctx, "tk_requests"):
        v = r.get("variables") or {}
        if isinstance(v, str):
            v = json.loads(v)
        out.append({**r, "item": catalog.get(str(r["item"]), r["item"]), "vars": v})
    return out


def _nda_parties(ctx) -> list[str]:
    """The NDA log's counterparties with a countersigned date (Ferro-Tek's mark-up is not one)."""
    return [r["B"] for r in _rows(ctx, TRACKER, "NDA log")
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", r.get("F", "").strip())]


def _folder_shares(ctx, folder: str) -> set[str]:
    items = {k: i for k, i in ctx.initial["tables"]["drive_items"]["records"].items()}
    key = next(k for k, i in items.items() if i["name"] == folder and i["kind"] == "folder")
    return {s["person"] for s in _recs(ctx, "drive_shares") if str(s["item"]) == key}


# ---------------------------------------------------------------- sets: parties and people
def nda_but_no_vdr(ctx) -> list[str]:
    """NDA-signed parties that never got Phase I access: no completed Phase I grant under their own name
    (Harwick's REQ0004117 was filed for 'Hardwick Capital' and closed incomplete; Lakemont's REQ0004124 is
    on hold) and nobody of theirs on the Phase I folder."""
    granted = {r["vars"].get("party") for r in _requests(ctx)
               if r["item"] == "VDR access request" and r["vars"].get("phase") == "Phase I"
               and r["state"] == "Closed Complete"}
    orgs_on_folder = {_person_org(ctx).get(p) for p in _folder_shares(ctx, PHASE_I)}
    return sorted(p.split()[0] for p in _nda_parties(ctx) if p not in granted and p not in orgs_on_folder)


def declined_still_in_vdr(ctx) -> str:
    """The party that declined (the tracker's outcome) but whose user is still on the Phase I folder."""
    declined = {r["A"] for r in _rows(ctx, TRACKER, "Tracker") if r.get("K", "").startswith("Declined")}
    orgs = {_person_org(ctx).get(p) for p in _folder_shares(ctx, PHASE_I)}
    hits = sorted(declined & orgs)
    if len(hits) != 1:
        raise LookupError(f"expected one declined party on {PHASE_I}, found {hits}")
    return hits[0]


def no_nda_asked_for_cim(ctx) -> str:
    """A party without a countersigned NDA whose own mail asks for the CIM."""
    ndas = set(_nda_parties(ctx))
    orgs = _person_org(ctx)
    people = {p["email"]: p["slug"] for p in _recs(ctx, "people")}
    hits = set()
    for m in _recs(ctx, "mail_messages"):
        if re.search(r"\bCIM\b", (m.get("subject") or "") + " " + (m.get("body") or "")) and \
                re.search(r"send us the CIM|send (?:us|me) the CIM|could you send", m.get("body") or "", re.I):
            org = orgs.get(people.get(m["sender"], m["sender"]))
            if org and org not in ndas and org not in {o["name"] for o in _orgs(ctx).values() if not o["adverse"]}:
                hits.add(org)
    if len(hits) != 1:
        raise LookupError(f"expected one party without an NDA asking for the CIM, found {sorted(hits)}")
    return hits.pop()


def excluded_competitor(ctx) -> str:
    """The tracker's party excluded from the process (never contacted)."""
    hits = [r["A"] for r in _rows(ctx, TRACKER, "Tracker") if r.get("K", "").startswith("Excluded")]
    if len(hits) != 1:
        raise LookupError(f"expected one excluded party, found {hits}")
    return hits[0]


def clean_team(ctx) -> list[str]:
    """Schedule A of the executed Kestrel Clean Team Agreement."""
    text = C.read(ctx, CTA)
    sched = text.split("## Schedule A", 1)[1].split("## Schedule B", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\|\s*\d+\s*\|\s*\*\*([^*]+)\*\*", sched, re.M)]


def r1_today(ctx) -> list[str]:
    """Shortlisted bidders (Victoria's rule over the letters) whose hold-harmless letter Ashcombe Pell has
    confirmed (Lena Moretti's status mail of 8 May): the only ones allowed into R1."""
    body = next(m["body"] for m in _recs(ctx, "mail_messages")
                if (m.get("subject") or "").startswith("Hold-harmless letters – status"))
    confirmed = body.split("Confirmed", 1)[1].split("Not confirmed", 1)[0]
    return [b for b in C.shortlist(ctx) if C.FULL_NAMES[b] in confirmed]


def missing_conflicts_check(ctx) -> str:
    """The shortlisted bidder with no conflicts check filed under its own name."""
    checked = {r["vars"].get("party") for r in _requests(ctx) if r["item"] == "Wall-cross / conflicts check"}
    hits = [C.FULL_NAMES[b] for b in C.shortlist(ctx) if C.FULL_NAMES[b] not in checked]
    if len(hits) != 1:
        raise LookupError(f"expected one shortlisted bidder without a conflicts check, found {hits}")
    return hits[0]


def _key(values: list[str], want: list[str], what: str):
    """The answer key (``answer.values``) names exactly what the world says: each value is one of the
    world's items or the start of its name ("Harwick" for "Harwick Partners"), one for one."""
    def check(ctx):
        got = list(ctx.task.answer.values)
        def names(v, w):
            return w.lower() == v.lower() or w.lower().startswith(v.lower() + " ")
        ok = len(got) == len(want) and all(sum(names(v, w) for w in want) == 1 for v in got) \
            and all(sum(names(v, w) for v in got) == 1 for w in want)
        return ok, f"{what}: the world says {sorted(want)}; the answer key {sorted(got)}"
    return check


def _one(fn, what):
    def check(ctx):
        return _key(ctx.task.answer.values, [fn(ctx)], what)(ctx)
    return check


def nda_but_no_vdr_key(ctx):
    return _key(ctx.task.answer.values, nda_but_no_vdr(ctx), "NDA parties without Phase I access")(ctx)


def clean_team_key(ctx):
    return _key(ctx.task.answer.values, clean_team(ctx), "CTA Schedule A")(ctx)


def r1_today_key(ctx):
    return _key(ctx.task.answer.values, r1_today(ctx), "shortlisted bidders cleared for R1")(ctx)


def declined_still_in_vdr_key(ctx):
    return _one(declined_still_in_vdr, "declined party still on 0 Phase I")(ctx)


def no_nda_asked_for_cim_key(ctx):
    return _one(no_nda_asked_for_cim, "party without an NDA asking for the CIM")(ctx)


def excluded_competitor_key(ctx):
    return _one(excluded_competitor, "excluded competitor")(ctx)


def missing_conflicts_check_key(ctx):
    return _one(missing_conflicts_check, "shortlisted bidder without a conflicts check")(ctx)


def principal_ic_on_26th_key(ctx):
    return _one(principal_ic_on_26th, "principal with an IC on 05-26")(ctx)


FILLER = {"and", "the", "both", "only", "of", "them", "are", "is", "were", "was", "plus", "also", "ones", "just",
          "parties", "party", "people", "person", "s"}


def names_only(ctx):
    """A names answer names the expected items and nothing else: after the answer's glosses in brackets
    ("(Kestrel)", "(not Rheinwerk)") and any explanation after the first sentence or a dash are set aside,
    and the items' own fuller names ("… Partners", "… Capital"), separators and filler words are taken
    out, no word may be left ("Harwick Lakemont something else" names a third thing). A bracket that
    adds one ("(also …)", "(or …)") is another item."""
    text = normalise(answer_text(ctx.answer or ""))
    values = list(ctx.task.answer.values)
    for m in re.finditer(r"\(([^()]*)\)", text):
        if re.match(r"\s*(also|or|and|plus)\b", m.group(1), re.I):
            return False, f"another item in brackets: {m.group(0)!r}"
    body = re.sub(r"\([^()]*\)", " ", text)
    body = re.split(r"(?<=[.!?])\s|\s[—–]\s|:\s", body.strip())[0]
    allowed = set(FILLER)
    for v in values:
        for o in _recs(ctx, "orgs"):
            if o["name"].lower().startswith(v.lower()):
                allowed |= {t for t in re.findall(r"[^\W_]+", o["name"].lower())}
        for r in _rows(ctx, TRACKER, "NDA log"):
            if r.get("B", "").lower().startswith(v.lower()):
                allowed |= {t for t in re.findall(r"[^\W_]+", (r.get("B", "") + " " + r.get("C", "")).lower())}
    for v in sorted(values, key=len, reverse=True):
        body = re.sub(rf"(?i)(?<![\w-]){re.escape(v)}(?![\w-])", " ", body)
    left = [t for t in re.findall(r"[^\W_]+", body.lower()) if t not in allowed]
    return not left, (f"other words in the answer: {left}" if left else "the names and nothing else")


# ---------------------------------------------------------------- calendars
def _events(ctx) -> list[dict]:
    guests: dict[str, list[dict]] = {}
    for g in _recs(ctx, "cal_guests"):
        guests.setdefault(str(g["event"]), []).append(g)
    out = []
    for k, e in ctx.initial["tables"]["cal_events"]["records"].items():
        out.append({**e, "key": k, "guests": guests.get(k, [])})
    return out


def _span(e) -> tuple[datetime, datetime]:
    def at(v, end=False):
        s = str(v)
        if len(s) == 10:
            d = date.fromisoformat(s)
            return datetime(d.year, d.month, d.day, 23 if end else 0, 59 if end else 0)
        return datetime.fromisoformat(s.replace("Z", "").split("+")[0])
    return at(e["start"]), at(e["end"] or e["start"], end=True)


def _holds(ctx) -> list[dict]:
    return sorted((e for e in _events(ctx) if e["title"].startswith("HOLD – Juniper mgmt meeting")),
                  key=lambda e: str(e["start"]))


def _on(e, person: str) -> bool:
    return e["organizer"] == person or any(g["person"] == person and g["response"] != "declined" for g in e["guests"])


def _clash(ctx, person: str) -> date:
    """The one management-meeting hold that overlaps something on ``person``'s calendar."""
    theirs = [e for e in _events(ctx) if _on(e, person) and not e.get("recurrence")]
    hits = []
    for h in _holds(ctx):
        hs, he = _span(h)
        if any(_span(e)[0] < he and hs < _span(e)[1] for e in theirs):
            hits.append(hs.date())
    if len(hits) != 1:
        raise LookupError(f"expected one hold clashing with {person}, found {hits}")
    return hits[0]


def cfo_clash_slot(ctx) -> date:
    return _clash(ctx, "alison.park")


def ceo_clash_slot(ctx) -> date:
    return _clash(ctx, "mark.dressler")


def principal_ic_on_26th(ctx) -> str:
    """The shortlisted bidder's person whose calendar has an investment committee on 2026-05-26."""
    orgs = _person_org(ctx)
    short = {C.FULL_NAMES[b] for b in C.shortlist(ctx)}
    names = {p["slug"]: p["name"] for p in _recs(ctx, "people")}
    hits = set()
    for e in _events(ctx):
        s, t = _span(e)
        if s.date() <= date(2026, 5, 26) <= t.date() and re.search(r"\bIC\b|investment committee", e["title"], re.I) \
                and orgs.get(e["organizer"]) in short:
            hits.add(e["organizer"])
    if len(hits) != 1:
        raise LookupError(f"expected one principal with an IC on 05-26, found {sorted(hits)}")
    return names[hits.pop()]


# ---------------------------------------------------------------- figures
def trading_comps_median(ctx) -> float:
    """EV / CY2025A EBITDA, median of the trading peers (Comps › Trading!F12), unrounded: the task's ±0.05
    is centred on it, so an answer to one decimal passes only when rounded right (the facts keep every
    variant's median off a half), and the sheet's two decimals pass too."""
    return float(_cell(ctx, COMPS, "Trading", "F12"))


def hayashi_calendarised(ctx) -> float:
    """Hayashi's EV / calendar-2025 EBITDA (Trading!F6 = EV / Raw!C11), unrounded (±0.05 as above)."""
    return float(_cell(ctx, COMPS, "Trading", "F6"))


def precedents_median(ctx) -> float:
    """EV / LTM EBITDA, median of the six precedents (Precedents!F10), unrounded (±0.05 as above)."""
    return float(_cell(ctx, COMPS, "Precedents", "F10"))


def dcf_base_ev(ctx) -> float:
    """The DCF's base-case EV (v7's DCF!B16, $000s) in dollars, unrounded: the task's ±$0.05m is centred on
    it, so $m to one decimal passes only when rounded right (the facts keep every base case off a half)."""
    return float(_cell(ctx, MODEL, "DCF", "B16")) * 1000


def lbo_range(ctx) -> list[str]:
    """v7's LBO EVs at 25% and 20% IRR ($000s → $m, one decimal)."""
    return [f"{float(_cell(ctx, MODEL, 'LBO', a1)) / 1000:.1f}" for a1 in ("D30", "D29")]


def lbo_range_key(ctx):
    return _key(ctx.task.answer.values, lbo_range(ctx), "LBO EV range")(ctx)


def peg_gap(ctx) -> int:
    """QoE's TTM NWC less the sellers' 24-month peg (v7 NWC!B30 − B31, $000s), in dollars."""
    return round(float(_cell(ctx, MODEL, "NWC", "B30")) - float(_cell(ctx, MODEL, "NWC", "B31"))) * 1000


def reference_net_debt(ctx) -> int:
    """v7's reference net debt at 2026-03-31 (Net debt!B7, $000s), in dollars."""
    return round(float(_cell(ctx, MODEL, "Net debt", "B7"))) * 1000


def _cim_ebitda(ctx, rel) -> float:
    text = C.read(ctx, rel).replace("**", "")
    return float(re.search(r"Adjusted EBITDA of \$([\d.]+)m", text).group(1))


def cim_v4_ebitda(ctx) -> int:
    """FY2025 Adjusted EBITDA in CIM v4 (the figure that moved from v3), in dollars."""
    v3, v4 = _cim_ebitda(ctx, CIM_V3), _cim_ebitda(ctx, CIM_V4)
    if v3 == v4:
        raise LookupError("CIM v3 and v4 give the same Adjusted EBITDA")
    return round(v4 * 1_000_000)


def process_counts(ctx) -> list[str]:
    """Contacted, NDAs signed, IOIs received: the Buyer Tracker's counts (Tracker!O3, O4, O6)."""
    return [str(int(_cell(ctx, TRACKER, "Tracker", a1))) for a1 in ("O3", "O4", "O6")]


def process_counts_key(ctx):
    return _key(ctx.task.answer.values, process_counts(ctx), "contacted / NDAs / IOIs")(ctx)


LABELS = {"contacted": r"\bcontact\w*", "NDAs": r"\bNDAs?\b|non-disclosure", "IOIs": r"\bIOIs?\b|indications? of interest"}


def process_counts_labelled(ctx):
    """Where the answer says which number is which, each label names its own count ("18 contacted, 29
    NDAs" names the right numbers against the wrong things); bare numbers are read as a set. The answer
    is read part by part (split at commas, semicolons, slashes, "and" and new lines): a part with one
    label and numbers must hold that label's count."""
    text = normalise(answer_text(ctx.answer or ""))
    want = dict(zip(LABELS, (float(v) for v in process_counts(ctx))))
    bad = []
    for part in re.split(r"[,;/\n]|\band\b", text):
        labels = [k for k, rx in LABELS.items() if re.search(rx, part, re.I)]
        nums = [c.value for c in number_cands(part, words=False)]
        if len(labels) == 1 and nums and want[labels[0]] not in nums:
            bad.append(f"{labels[0]}: {part.strip()!r}")
    return not bad, "; ".join(bad) or "each labelled count is the tracker's"


def headcount(ctx) -> int:
    """Total headcount at 2026-03-31 in the VDR's HR schedule (5.1)."""
    text = C.read(ctx, HEADCOUNT).replace("**", "")
    return int(re.search(r"Total headcount at March 31, 2026: (\d+)", text).group(1))


def process_counts_answer(ctx):
    """The three counts, read as a set of numbers with nothing else (the answer matcher's reading), and where
    the answer labels them, each label against its own count ("18 contacted, 29 NDAs" fails)."""
    from harness.tasks.schema import AnswerSpec
    from harness.verify.answer import match_answer
    got = match_answer(AnswerSpec(type="set", values=[str(int(v)) for v in process_counts(ctx)]), ctx.answer)
    if not got.passed:
        return False, f"the answer: {got.found}"
    return process_counts_labelled(ctx)
