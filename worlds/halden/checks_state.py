"""State checks of the halden world's group C tasks (the agent changes the apps; each check grades the
end state against the start; the guard fails any collateral write).

Expected values come from the world's own files through the shared readers in ``checks.py``
(``like_for_like``, ``late_bidders``, ``top_bid`` …) and from the exports, never typed by hand.
"""
from __future__ import annotations

import re
from functools import lru_cache
from datetime import date, datetime
from pathlib import Path

import yaml

from apps.sheets.formula.a1 import col_letter
from harness.verify import artifacts as A
from harness.verify.answer import date_cands, normalise
from harness.verify.checks import world_module
from harness.verify.guard import Vouch
from harness.verify.reading import negated

C = world_module(Path(__file__).parent, "checks")

TODAY = date(2026, 5, 11)

# The Round 1 bidders' Juniper opportunities in the CRM (slug).
OPPS = {
    "Rheinwerk": "juniper-rheinwerk", "Granite Harbor": "juniper-granite-harbor", "Kestrel": "juniper-kestrel",
    "Marlow Peak": "juniper-marlow-peak", "Alder Creek": "juniper-alder-creek", "Sable Point": "juniper-sable-point",
    "Norwell": "juniper-norwell", "Corliss": "juniper-corliss",
}


def _tables(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def _by_slug(export: dict, table: str, slug: str) -> tuple[str | None, dict | None]:
    for k, r in _tables(export, table).items():
        if r.get("slug") == slug:
            return k, r
    return None, None


def _usd(m: float) -> int:
    return round(m * 1_000_000)


def _dates(text: str) -> list[date]:
    return [c.value for c in date_cands(normalise(text), TODAY)]


def received_at(ctx, bidder: str) -> datetime:
    """When the bidder's IOI mail (the one carrying its letter) arrived, world-local."""
    return _received_at(str(ctx.world_root), bidder)


@lru_cache(maxsize=64)
def _received_at(world_root: str, bidder: str) -> datetime:
    name = C.LETTERS[bidder].removesuffix(".md")
    for f in sorted((Path(world_root) / "mail").glob("*.yaml")):
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        for m in raw.get("messages", []):
            if any(Path(a).name == name for a in m.get("attachments") or []):
                return datetime.fromisoformat(str(m["date"]))
    raise LookupError(f"no mail carries {name}")


def phase_i_deadline(ctx) -> datetime:
    """The IOI deadline as the IOI Comparison's Rules tab states it ("received by 2026-04-30 17:00 CT")."""
    for row in C.sheet_yaml(ctx, C.IOIS / f"{C.IOI_COMPARISON}.gsheet.yaml")["Rules"]:
        m = re.search(r"received by (\d{4}-\d\d-\d\d) (\d\d:\d\d)", " ".join(str(x) for x in row or []))
        if m:
            return datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}")
    raise LookupError("no deadline in the Rules tab")


# ---------------------------------------------------------------- CRM
def like_for_like_amounts(ctx) -> dict[str, int]:
    """The on-time bidders' like-for-like EVs in whole USD (their CRM amounts after Victoria's ask (4))."""
    late = C.late_bidders(ctx)
    return {b: _usd(C.like_for_like(ctx, b)) for b in C.LETTERS if b not in late}


def crm_like_for_like(ctx):
    """Every on-time bidder whose CRM amount at the start is not its like-for-like EV now has exactly that
    amount (whole USD); those already right (Granite Harbor, Norwell) and every other field are left to
    the guard."""
    want = like_for_like_amounts(ctx)
    wrong, vouch, fixed = [], {}, []
    for bidder, amount in want.items():
        key, before = _by_slug(ctx.initial, "crm_opportunities", OPPS[bidder])
        if key is None:
            return False, f"no opportunity {OPPS[bidder]}", []
        if float(before["amount"] or 0) == amount:
            continue                # already like-for-like: leave it (the guard sees a change)
        now = _tables(ctx.final, "crm_opportunities")[key]
        if float(now.get("amount") or 0) != amount:
            wrong.append(f"{bidder} at {now.get('amount')} (want {amount})")
        else:
            fixed.append(bidder)
            vouch[key] = ["amount"]
    if wrong:
        return False, "; ".join(wrong), []
    return True, f"{', '.join(fixed)} at their like-for-like amounts", {"crm_opportunities": vouch}


def sable_point_amount(ctx) -> int:
    return _usd(C.like_for_like(ctx, "Sable Point"))


LATE = r"\blate\b|\bafter the deadline\b|\bpast the deadline\b|\bmissed the deadline\b"


def sable_point_note(ctx):
    """One new note on Sable Point's opportunity saying its IOI was late and received on 2026-05-04; any
    other date it gives is the letter's own date ("dated 2026-05-01"), not when it arrived."""
    key, _ = _by_slug(ctx.final, "crm_opportunities", OPPS["Sable Point"])
    received = received_at(ctx, "Sable Point").date()
    deadline = phase_i_deadline(ctx).date()
    good, found = [], []
    for k, n in ctx.added_by_agent("crm_notes").items():
        if n.get("related_type") != "opportunity" or str(n.get("related_id")) != key:
            continue
        text = normalise(f"{n.get('title', '')}\n{n.get('body', '')}")
        if not re.search(LATE, text, re.I):
            found.append(f"note {text[:80]!r} doesn't say it was late")
            continue
        if received not in _dates(text):
            found.append(f"note {text[:80]!r} doesn't give {received}")
            continue
        if re.search(r"\b(?:not|never|wasn['’]?t|isn['’]?t)\s+late\b|\bon time\b", text, re.I):
            found.append(f"note {text[:80]!r} says it was not late")
            continue
        others = [c for c in date_cands(text, TODAY) if c.value != received]
        stray = [c for c in others if not re.search(r"\b(?:dated|letter(?: is)? dated|letter date|dated as of|not|"
                                                   r"rather than|instead of)\W*$", text[:c.start][-30:], re.I)
                 and not (c.value == deadline and re.search(r"\b(?:deadline|due)\b", text[max(0, c.start - 40):c.end + 40], re.I))]
        if stray:
            found.append(f"note {text[:80]!r} gives another date ({stray[0].value})")
            continue
        good.append(k)
    if len(good) > 1:
        return False, f"{len(good)} notes about the late IOI (one)", []
    if good:
        return True, "a note says the IOI was late, received 2026-05-04", {"crm_notes": good}
    return False, "; ".join(found) or "no new note on Sable Point's opportunity", []


# ---------------------------------------------------------------- service desk
def _catalog_item(ctx, name: str) -> str | None:
    return next((k for k, r in _tables(ctx.final, "tk_catalog").items() if r.get("name") == name), None)


def _new_requests(ctx, item_name: str) -> list[tuple[str, dict, dict]]:
    item = _catalog_item(ctx, item_name)
    return [(k, r, {f: str(v if v is not None else "") for f, v in (r.get("variables") or {}).items()})
            for k, r in ctx.added_by_agent("tk_requests").items() if str(r.get("item")) == item]


def _request_key(export: dict, number: str) -> str | None:
    return next((k for k, r in _tables(export, "tk_requests").items() if r.get("number") == number), None)


def _squash(s) -> str:
    return " ".join(normalise(str(s or "")).replace("–", "-").split()).casefold()


def _one(good: list, many: str, passed: str, none: str, vouch):
    if len(good) > 1:
        return False, many, []
    if good:
        return True, passed, vouch(good)
    return False, none, []


def _account_name(ctx, slug: str) -> str:
    for r in _tables(ctx.final, "crm_accounts").values():
        if r.get("slug") == slug:
            return r["name"]
    raise LookupError(slug)


def marlow_conflicts_check(ctx):
    """One new Wall-cross / conflicts check naming Marlow Peak Partners (its CRM account's name; not
    Marlow Point Capital, which REQ0004009 checked) with the role Bidder; a project, if given, is
    Juniper."""
    want = _squash(C.FULL_NAMES["Marlow Peak"])
    good, found = [], []
    for k, r, v in _new_requests(ctx, "Wall-cross / conflicts check"):
        party = _squash(v.get("party"))
        if not re.fullmatch(re.escape(want) + r"(?:,? (?:l\.?p\.?|llc|inc\.?))?", party):
            found.append(f"{r['number']} for {v.get('party')!r}")
        elif v.get("role") != "Bidder":
            found.append(f"{r['number']} with role {v.get('role')!r}")
        elif v.get("project") and "juniper" not in _squash(v.get("project")):
            found.append(f"{r['number']} for project {v.get('project')!r}")
        else:
            good.append(k)
    return _one(good, f"{len(good)} conflicts checks for Marlow Peak (one)", "a conflicts check for Marlow Peak Partners, Bidder",
                "; ".join(found) or "no new conflicts check", lambda ks: {"tk_requests": ks})


def _person(ctx, pid: str) -> dict:
    return next(r for r in _tables(ctx.final, "people").values() if r.get("slug") == pid)


EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"


def summit_ridge_revocation(ctx):
    """One new VDR access revocation for Summit Ridge Instruments: Alicia Ford's address (and no other
    party's user), folder 0 Phase I, a reason, effective today (the world clock's day)."""
    ford = _person(ctx, "alicia.ford")["email"].casefold()
    domain = ford.split("@")[1]
    good, found = [], []
    for k, r, v in _new_requests(ctx, "VDR access revocation"):
        users = {u.casefold() for u in re.findall(EMAIL, v.get("users", ""))}
        if "summit ridge" not in _squash(v.get("party")):
            found.append(f"{r['number']} for {v.get('party')!r}")
        elif ford not in users or any(not u.endswith("@" + domain) for u in users):
            found.append(f"{r['number']} revoking {sorted(users)}")
        elif not re.search(r"\b0\s*(?:[-–.]\s*)?phase i\b(?!i)", _squash(v.get("folders"))):
            found.append(f"{r['number']} on folders {v.get('folders')!r}")
        elif not v.get("reason", "").strip():
            found.append(f"{r['number']} without a reason")
        elif str(v.get("effective_date"))[:10] != TODAY.isoformat():
            found.append(f"{r['number']} effective {v.get('effective_date')!r}")
        else:
            good.append(k)
    return _one(good, f"{len(good)} revocations for Summit Ridge (one)", "a revocation for Alicia Ford on 0 Phase I",
                "; ".join(found) or "no new VDR access revocation", lambda ks: {"tk_requests": ks})


# Claire's reason itself (naming her is not giving it: "Cancelled per Claire." says who, not why).
LAKEMONT_REASON = (r"\bnew (?:entrants?|bidders?|part(?:y|ies)|participants?)\b|\bout of (?:the )?process\b|"
                   r"\bprocess (?:is |has )?(?:now )?closed\b|\bclosed to new\b|\bnot (?:in|part of) the process\b|"
                   r"\bno (?:more |further )?late bids?\b")
WRONG_REASON = (r"\bno nda\b|\bwithout an? nda\b|(?<!\bnever )(?<!\bnot )(?<!n't )\bdeclined\b|\bduplicate\b|\bpellham\b|"
                r"\bdo[- ]not[- ]contact\b")


def lakemont_cancel_reason(ctx):
    """One new work note or comment on REQ0004124 giving the reason from Claire's 05-09 mail: no new
    entrants, Lakemont is out of the process (and no other reason)."""
    key = _request_key(ctx.final, "REQ0004124")
    good, found = [], []
    for k, j in ctx.added_by_agent("tk_journal").items():
        if j["record_table"] != "request" or str(j["record"]) != key:
            continue
        text = normalise(j.get("text"))
        if not re.search(LAKEMONT_REASON, text, re.I):
            found.append(f"note {text[:80]!r} doesn't give Claire's reason")
        elif re.search(WRONG_REASON, text, re.I):
            found.append(f"note {text[:80]!r} gives another reason")
        else:
            good.append(k)
    return _one(good, f"{len(good)} notes with the reason (one)", "a note gives Claire's reason",
                "; ".join(found) or "no new note on REQ0004124", lambda ks: {"tk_journal": ks})


# ---------------------------------------------------------------- calendar
BOARD_DECK = "Board Update – Project Juniper (2026-05-13) DRAFT"
STEERING = "Project Juniper – Steering Committee"


def _deck_key(export: dict, title: str) -> str | None:
    return A.app_key(export, title, "deck")


def _event(export: dict, title: str) -> tuple[str | None, dict | None]:
    for k, r in _tables(export, "cal_events").items():
        if r.get("title") == title:
            return k, r
    return None, None


def _links_to(text: str, deck: str) -> bool:
    return re.search(rf"/slides/p/{re.escape(str(deck))}(?!\d)", text or "") is not None


def steering_deck_link(ctx):
    """The steering committee's description now carries a link to the 05-13 board deck (its /slides/p/<id>
    address), keeps every line it had (agenda, dial-in), and links no other deck. An event deleted and
    made again must be the same meeting (time, place, guests)."""
    key, before = _event(ctx.initial, STEERING)
    events = {k: r for k, r in _tables(ctx.final, "cal_events").items() if r.get("title") == STEERING}
    if len(events) != 1:
        return False, f"{len(events)} events titled {STEERING!r} (one)", []
    now_key, now = next(iter(events.items()))
    desc = now.get("description") or ""
    deck = _deck_key(ctx.final, BOARD_DECK)
    if not _links_to(desc, deck):
        return False, f"no link to the board deck (/slides/p/{deck}) in {desc[:160]!r}", []
    others = [d for d in re.findall(r"/slides/p/(\d+)", desc) if d != str(deck)]
    if others:
        return False, f"links another deck too ({others})", []
    squash = lambda s: " ".join(str(s or "").split())
    lost = [line for line in (before.get("description") or "").splitlines() if squash(line) and squash(line) not in squash(desc)]
    if lost:
        return False, f"the description lost {lost}", []
    if now_key == key:
        return True, "the description links the board deck and keeps the agenda", [Vouch.of("cal_events", key, ("description",))]
    # deleted and made again: the same meeting, guests included
    guests = lambda export, ev: {g["person"] for g in _tables(export, "cal_guests").values() if str(g["event"]) == str(ev)}
    same = all(now.get(f) == before.get(f) for f in ("start", "end", "all_day", "location", "organizer"))
    if not same or guests(ctx.final, now_key) != guests(ctx.initial, key):
        return False, "the event made again is not the same meeting (time, place or guests differ)", []
    old_guests = [k for k, g in _tables(ctx.initial, "cal_guests").items() if str(g["event"]) == str(key)]
    new_guests = [(k, g["person"]) for k, g in _tables(ctx.final, "cal_guests").items() if str(g["event"]) == str(now_key)]
    return True, "the meeting made again with the deck's link", (
        [Vouch.of("cal_events", now_key, to=[p for _, p in new_guests]), Vouch.of("cal_events", key)]
        + [Vouch.of("cal_guests", g) for g in old_guests] + [Vouch.of("cal_guests", k, to=[p]) for k, p in new_guests])


# ---------------------------------------------------------------- sheets

BUYER_TRACKER = "Buyer Tracker"
FEE_TRACKER = "Fee & Retainer Tracker"


def _tab(export: dict, book: str, tab: str) -> str | None:
    return A.tab_key(export, A.app_key(export, book, "sheet"), tab)


def _row_of(export: dict, tab: str | None, party: str) -> int | None:
    for a1, (_, c) in A.cells(export, tab).items():
        if a1.startswith("A") and a1[1:].isdigit() and _squash(c.get("value")) == _squash(party):
            return int(a1[1:])
    return None


def _text(kc) -> str:
    return "" if kc is None else normalise(str(kc[1].get("value") if kc[1].get("value") is not None else ""))


def _kept_dates(text: str) -> list[date]:
    """The dates a cell gives, less those it sets aside ("(not 2026-04-22)", "(was shown as 2026-04-22)")."""
    t = normalise(text)
    return [c.value for c in date_cands(t, TODAY)
            if not negated(t, c) and not re.search(r"\b(?:was|were)(?: (?:shown|listed|recorded|entered|given))?"
                                                   r"(?: as)?\s*$", t[:c.start], re.I)]


def buyer_tracker_fixed(ctx):
    """The Tracker's three errors corrected, and only those cells: Harwick's Phase I VDR "No" (REQ0004117
    closed incomplete; "Not granted" says the same), Summit Ridge's "Revoked <today>" (its access is pulled
    today, not on 04-22; the old date set aside in brackets is fine), and Sable Point's IOI received at its mail's time (2026-05-04 09:12, not the letter's 05-01)."""
    tab = _tab(ctx.final, BUYER_TRACKER, "Tracker")
    start = _tab(ctx.initial, BUYER_TRACKER, "Tracker")
    harwick = _row_of(ctx.initial, start, "Harwick Partners")
    summit = _row_of(ctx.initial, start, "Summit Ridge Instruments")
    sable = _row_of(ctx.initial, start, C.FULL_NAMES["Sable Point"])
    got = A.cells(ctx.final, tab)
    problems = []
    h = _text(got.get(f"H{harwick}"))
    if not re.match(r"(?i)(?:no\b|not granted\b|never granted\b)", h) \
            or re.search(r"(?i)\byes\b|\b(?:pending|may|might|tb[cd]|possibly|perhaps)\b|\?", h):
        problems.append(f"H{harwick} (Harwick) is {h!r}, not No")
    s = _text(got.get(f"H{summit}"))
    if not re.match(r"(?i)revoked\b", s) or _kept_dates(s) != [TODAY]:
        problems.append(f"H{summit} (Summit Ridge) is {s!r}, not Revoked {TODAY}")
    when = received_at(ctx, "Sable Point")
    r = _text(got.get(f"I{sable}"))
    if _dates(r) != [when.date()] or not re.search(rf"\b0?{when.hour}:{when.minute:02d}\b", r):
        problems.append(f"I{sable} (Sable Point) is {r!r}, not {when:%Y-%m-%d %H:%M}")
    if problems:
        return False, "; ".join(problems), []
    return True, "Harwick No, Summit Ridge revoked today, Sable Point received 05-04 09:12", \
        A.cell_vouches(ctx, tab, [f"H{harwick}", f"H{summit}", f"I{sable}"])


def _fee(ctx, tv: float) -> float:
    """The executed letter's success fee at Transaction Value ``tv`` (the tracker's own inputs)."""
    rel = C.TEAM / "06 Engagement" / f"{FEE_TRACKER}.gsheet.yaml"
    cell = lambda a1: float(C.sheet_source_cell(ctx, rel, "Success fee", a1))
    threshold, low, high, minimum = cell("B2"), cell("B3"), cell("B4"), cell("B5")
    return max(minimum, low * min(tv, threshold) + high * max(tv - threshold, 0))


def fee_at_top_bid(ctx):
    """The Success fee tab's Transaction Value input (B8) is the top Round 1 bid like-for-like in whole
    USD (Rheinwerk at FX!B2), typed or as a formula, and the fee formula (B11) still gives the executed
    letter's fee at it; nothing else on the tab changes (the guard)."""
    tab = _tab(ctx.final, FEE_TRACKER, "Success fee")
    got = A.cells(ctx.final, tab)
    want = C.top_bid_usd(ctx)
    tv = got.get("B8")
    v = None if tv is None else tv[1].get("value")
    if not isinstance(v, (int, float)) or abs(v - want) > 0.5:
        return False, f"B8 is {v!r} ({'' if tv is None else tv[1].get('input')}), not {want:,}", []
    fee = got.get("B11")
    fv = None if fee is None else fee[1].get("value")
    if not isinstance(fv, (int, float)) or abs(fv - _fee(ctx, want)) > 0.5:
        return False, f"B11 gives {fv!r}, not {_fee(ctx, want):,.0f}", []
    return True, f"B8 {v:,.0f} → fee {fv:,.0f}", A.cell_vouches(ctx, tab, ["B8"])


def fee_at_top_bid_value(ctx) -> float:
    return _fee(ctx, C.top_bid_usd(ctx))


IOI_COMPARISON = "IOI Comparison"
# What each bidder's like-for-like formula must refer to (Victoria's rules): the tab and cell.
NEEDS = {"Rheinwerk": ("fx", "B2"), "Alder Creek": ("rules", "B2"), "Marlow Peak": ("rules", "B3")}


def _which_bidder(text: str) -> str | None:
    t = _squash(text)
    hits = [b for b in C.LETTERS if _squash(b) in t or _squash(C.FULL_NAMES[b]) in t]
    return hits[0] if len(hits) == 1 else None


REF = re.compile(r"(?<![\w.$'])((?:'[^']+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?![\w(])")


def _refs(formula: str) -> set[tuple[str, str]]:
    """{(tab lower-cased or "", "B2")} of the single-cell references in a formula (strings left out)."""
    f = re.sub(r'"[^"]*"', '""', formula or "")
    return {((m.group(1) or "").rstrip("!").strip("'").casefold(), f"{m.group(2)}{m.group(3)}") for m in REF.finditer(f)}


def _follows_inputs(ctx, bidder: str, a1: str) -> str | None:
    """Why the bidder's like-for-like formula at ``a1`` (IOIs) does not move with the FX and Rules inputs the
    way Victoria's rule does, or None (``harness.verify.artifacts.follows``): every number on FX and Rules is
    moved in turn; Rheinwerk's must stay its EUR headline × FX!B2, Alder Creek's its equity value + Rules!B2,
    Marlow Peak's its headline − Rules!B3, and nothing else may move them."""
    lo, hi = C.headline(ctx, bidder)
    base = (lo + hi) / 2
    inputs = [(tab, f"{col_letter(c)}{r + 1}") for tab in ("FX", "Rules")
              for (r, c), v in sorted(A.workbook(ctx.final, IOI_COMPARISON).values(tab).items())
              if A.number(v) is not None]

    def expect(v: dict) -> float:
        if bidder == "Rheinwerk":
            return base * v[("FX", "B2")]
        if bidder == "Alder Creek":
            return base + v[("Rules", "B2")]
        return base - v[("Rules", "B3")]
    return A.follows(ctx.final, IOI_COMPARISON, ("IOIs", a1), expect, inputs)


def like_for_like_cell_problem(ctx, bidder: str, r: int, g) -> str | None:
    """What is wrong with G<r>, the bidder's like-for-like EV cell (a (key, cell) pair or None): its value
    (±0.005), and for a bid a rule adjusts, a formula on FX!B2 / Rules!B2 / Rules!B3 that follows them."""
    v = None if g is None else g[1].get("value")
    want = C.like_for_like(ctx, bidder)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or abs(v - want) > 0.005:
        return f"G{r} ({bidder}) is {v!r}, not {want:.2f}"
    inp = str(g[1].get("input") or "")
    if bidder in NEEDS:
        need = NEEDS[bidder]
        if not inp.startswith("=") or need not in _refs(inp):
            return f"G{r} ({bidder}) is {inp!r}, not a formula on {need[0].upper()}!{need[1]}"
        wrong = _follows_inputs(ctx, bidder, f"G{r}")
        if wrong:
            return f"G{r} ({bidder}) {inp!r} doesn't follow its inputs ({wrong})"
    return None


def ioi_like_for_like_formulas(ctx):
    """The IOIs tab has one row per Round 1 bidder (its name in A) with its like-for-like EV ($m, ±0.005)
    in G; Rheinwerk's, Alder Creek's and Marlow Peak's are formulas that refer to FX!B2, Rules!B2 and
    Rules!B3 and follow them when they change (a typed 424.49 fails, and so does "=424.49+0*FX!B2"); no other cell of the tab is filled. FX and Rules are left to the
    guard."""
    tab = _tab(ctx.final, IOI_COMPARISON, "IOIs")
    rows = A.rows(ctx.final, tab)
    seen: dict[str, int] = {}
    problems, vouch = [], []
    for r, cells in sorted(rows.items()):
        if r == 1:
            continue
        filled = {c: kc for c, kc in cells.items() if str(kc[1].get("input") or "").strip()}
        if not filled:
            continue
        bidder = _which_bidder(_text(filled.get("A")))
        if bidder is None:
            problems.append(f"row {r}: {_text(filled.get('A'))!r} is not one Round 1 bidder")
            continue
        if bidder in seen:
            problems.append(f"{bidder} on rows {seen[bidder]} and {r}")
            continue
        seen[bidder] = r
        extra = sorted(set(filled) - {"A", "G"})
        if extra:
            problems.append(f"row {r}: other cells filled ({', '.join(c + str(r) for c in extra)})")
            continue
        wrong = like_for_like_cell_problem(ctx, bidder, r, filled.get("G"))
        if wrong:
            problems.append(wrong)
            continue
        vouch += [f"A{r}", f"G{r}"]
    missing = [b for b in C.LETTERS if b not in seen]
    if missing:
        problems.append(f"no row for {', '.join(missing)}")
    if problems:
        return False, "; ".join(problems), []
    return True, "eight bidders at like-for-like, the adjusted ones as formulas", A.cell_vouches(ctx, tab, vouch)


# ---------------------------------------------------------------- slides
FOOTBALL = "Valuation football field (enterprise value, $m)"


def _bars(body: str) -> list[str]:
    return [ln for ln in (body or "").splitlines()]


def _nums(line: str) -> list[float]:
    """The $m figures of a bar line: numbers not followed by x (multiples), % or part of FY2025A, and not
    years ("FY 2025", "2026", a date) — a bare 19xx/20xx with no $ before it and no m after it is a year."""
    out = []
    line = re.sub(r"\b(?:19|20)\d\d-\d\d-\d\d\b", " ", line)
    for m in re.finditer(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*(?:x|×|%))(?![A-LN-Za-ln-z\d])", line):
        if re.fullmatch(r"(?:19|20)\d\d", m.group(1)) and not re.search(r"\$\s*$|\bUSD\s*$", line[:m.start()]) \
                and not re.match(r"\s*(?:m\b|mn\b|million)", line[m.end():], re.I):
            continue                                      # a year, not a figure
        if re.search(r"(?i)\b(?:not|rather than|instead of|was|were|from|formerly|previously)\s*(?:US)?\$?\s*$",
                     line[:m.start()][-25:]):
            continue                                      # a figure set aside ("not $388.0m")
        v = float(m.group(1).replace(",", ""))
        out.append(round(v / 1e6, 1) if v >= 1e5 else v)      # $418,600,000 is $418.6m
    return out


def football_field_on_qoe(ctx):
    """Slide 6's trading and precedent bars restated on the QoE EBITDA (Rules!B4, $36.4m): each bar's own
    multiples (from the draft) × 36.4 → 364.0–418.6 and 400.4–436.8, and the bar no longer on 38.8; the
    DCF, LBO and IOI lines as they were. Only the body of slide 6 changes (the guard sees the rest)."""
    return football_field(ctx)


def football_field_with_iois(ctx):
    """As ``football_field_on_qoe``, and the IOI bar filled in: the lowest to the highest like-for-like bid
    ($370.0m–$424.5m), no other figure on it. The notes may change too (the long day's deck)."""
    return football_field(ctx, iois=True)


def football_field(ctx, iois: bool = False):
    deck = A.app_key(ctx.final, BOARD_DECK, "deck")
    deck0 = A.app_key(ctx.initial, BOARD_DECK, "deck")
    before = A.slide_titled(ctx.initial, deck0, FOOTBALL)
    now = A.slide_titled(ctx.final, deck, FOOTBALL)
    if before is None or now is None:
        return False, "no football-field slide", []
    qoe, mgmt = C.rule(ctx, "B4"), C.rule(ctx, "B5")
    old = _bars(before["boxes"].get("body"))
    new = [ln for ln in _bars(now["boxes"].get("body")) if ln.strip()]
    problems = []
    if len(new) != len([ln for ln in old if ln.strip()]):
        return False, f"the body has {len(new)} bars, not {len(old)}", []
    for o, n in zip([ln for ln in old if ln.strip()], new):
        kind = re.match(r"\W*(\w+)", o).group(1)
        if kind in ("Trading", "Precedent"):
            lo, hi = (float(x) for x in re.search(r"(\d+(?:\.\d+)?)x\s*[–-]\s*(\d+(?:\.\d+)?)x", o).groups())
            want = [round(lo * qoe, 1), round(hi * qoe, 1)]
            got = _nums(n)
            basis = [x for x in got if x < 100]           # the EBITDA it is on, if the bar says
            ends = [x for x in got if x >= 100]
            if not re.match(rf"\W*{kind}", n):
                problems.append(f"{kind} bar gone: {n!r}")
            elif ends != want or any(x != qoe for x in basis):
                problems.append(f"{kind} bar {n!r} (want {want[0]}–{want[1]} on {qoe}, not on {mgmt})")
        elif iois and kind == "Round":
            lfl = [C.like_for_like(ctx, b) for b in C.LETTERS]
            want = [round(min(lfl), 1), round(max(lfl), 1)]
            got = [x for x in _nums(n) if x >= 100]
            if [round(x, 1) for x in got] != want or "[TBU]" in n or not re.match(r"\W*Round 1 IOIs", n):
                problems.append(f"IOI bar {n!r} (want {want[0]}–{want[1]})")
        elif " ".join(o.split()) != " ".join(n.split()):
            problems.append(f"{kind} bar changed: {n!r}")
    if problems:
        return False, "; ".join(problems), []
    if iois:
        return True, "trading and precedent bars on QoE $36.4m, the IOI bar filled in", A.slide_vouches(
            ctx, now, fields=("notes",), boxes=("body",))
    return True, "trading and precedent bars on QoE $36.4m", A.slide_vouches(ctx, now, fields=(), boxes=("body",))
