"""Checks of the halden deliverable tasks: the QoE / peg memo, the board deck's IOI, shortlist and equity
slides, and the Kestrel Phase II letter drafted for Julian.

Expected figures come from the world's files through the shared readers in ``checks.py`` (the IOI letters,
the IOI Comparison's FX and Rules tabs, Model v7's Bridge and NWC tabs as written) and the exports; the
readers of new docs, mail and Drive audiences come from ``checks_judgement.py``. Each check returns
``(ok, found[, vouches])`` and vouches for exactly what it examined and wanted; the guard sees the rest.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify.answer import states_by_label, within
from harness.verify.checks import world_module
from harness.verify.guard import Vouch
from harness.verify.mailtext import recipients
from harness.verify.reading import clause, date_cands, negated, normalise, number_cands

HERE = Path(__file__).parent
AGENT, AGENT_MAIL = "tariq.haddad", "tariq.haddad@haldenrowe.com"
MODEL_V7 = "03 Valuation/Juniper Model v7.gsheet.yaml"
BOARD_DECK = "Board Update – Project Juniper (2026-05-13) DRAFT"
MEMO = "QoE reconciliation and NWC peg"
LETTER = "Project Juniper – Phase II Process Letter – Kestrel"


def _c():
    return world_module(HERE, "checks")


def _j():
    return world_module(HERE, "checks_judgement")


# ---------------------------------------------------------------------------- figures
def in_m(text: str) -> str:
    """The text with every sum of $100,000 or more rewritten in $m ("$38.8m", "$38,800,000", "US$ 38.8
    million" → "$38.8"), so figures compare in millions whatever way they are written."""
    text = normalise(text)
    out, last = [], 0
    for c in number_cands(text, words=False):
        v = float(c.value)
        if abs(v) >= 100_000:
            out.append(text[last:c.start])
            out.append(f"${v / 1_000_000:.6g}")
            last = c.end
    out.append(text[last:])
    return "".join(out)


def values(text: str) -> list[float]:
    """The figures a text states (set-aside ones dropped), in $m where they are sums."""
    text = in_m(text)
    return [float(c.value) for c in number_cands(text, words=False)
            if not negated(text, c) and not re.match(r"\s*%", text[c.end:c.end + 3])]


def figures(text: str) -> list[float]:
    """Every figure a text names, set aside or not, in $m where they are sums."""
    text = in_m(text)
    return [float(c.value) for c in number_cands(text, words=False) if not re.match(r"\s*%", text[c.end:c.end + 3])]


def _close(a: float, b: float, tol: float = 0.05) -> bool:
    return within(a, b, tol)


HEDGE = re.compile(r"\b(?:or|possibly|perhaps|maybe)\s*\(?\s*(?:US)?\$?\s*\d|\d\s*[m%x]?\s*\?", re.I)


def _segments(text: str) -> list[str]:
    return [s for s in re.split(r"\n|;|·|\|", normalise(text)) if s.strip()]


def _bridge(ctx) -> dict[int, tuple[str, float, float]]:
    """Model v7's Bridge rows as written: item number → (name, management $m, QoE $m)."""
    c = _c()
    rows = c.sheet_yaml(ctx, c.TEAM / MODEL_V7)["Bridge"]
    out = {}
    for r in rows[3:11]:
        num = lambda x: float(x) / 1000 if isinstance(x, (int, float)) else 0.0   # noqa: E731
        out[int(r[0])] = (r[1], num(r[2]), num(r[3]))
    return out


def contested(ctx) -> dict[int, float]:
    """The items where Ashcombe Pell's add-back differs from management's: number → the difference, $m."""
    return {n: round(m - q, 1) for n, (_, m, q) in _bridge(ctx).items() if round(m - q, 1) != 0}


def nwc(ctx) -> dict[str, float]:
    """Model v7's NWC tab (24 month-ends, $000s) → the sellers' 24-month peg, the QoE's TTM peg, March's
    actual and what the peg point is worth, in $m."""
    c = _c()
    rows = c.sheet_yaml(ctx, c.TEAM / MODEL_V7)["NWC"]
    months = [float(r[1]) / 1000 for r in rows[2:26]]
    p24, ttm, march = sum(months) / 24, sum(months[12:]) / 12, months[-1]
    return {"sellers": round(p24, 1), "ttm": round(ttm, 1), "march": round(march, 1),
            "adj_sellers": round(march - p24, 1), "adj_ttm": round(march - ttm, 1),
            "stake": round((march - p24) - (march - ttm), 1)}


def gap_value(ctx) -> float:
    """The EBITDA gap priced at the top bid's multiple of the QoE EBITDA: 2.4 × 424.49 / 36.4, $m."""
    c = _c()
    gap = c.rule(ctx, "B5") - c.rule(ctx, "B4")
    return round(gap * c.top_bid(ctx) / c.rule(ctx, "B4"), 1)


# ---------------------------------------------------------------------------- the QoE / peg memo
ITEMS = {3: r"founder|family (?:pay|salar)", 4: r"monterrey", 5: r"beaumont|product[- ]liability",
         6: r"savings|pro[- ]forma", 8: r"warranty"}


def _memo(ctx):
    j = _j()
    item, doc = j._new_doc(ctx, MEMO)
    if doc is None:
        return None, None, ""
    return item, doc, "\n".join(j._doc_text_blocks(ctx, doc))


def memo_reconciliation(ctx):
    """The memo states management's FY2025 Adj. EBITDA (38.8), the QoE's (36.4) and the gap (2.4), and
    each contested item (3, 4, 5, 6, 8) with its difference on its own line or clause, no hedge."""
    c = _c()
    item, doc, text = _memo(ctx)
    if doc is None:
        return False, f"no doc titled {MEMO!r}"
    mg, qoe = c.rule(ctx, "B5"), c.rule(ctx, "B4")
    ok, why = states_by_label(in_m(text), {
        "management EBITDA": (r"management|mgmt|cim v4", mg),
        "QoE EBITDA": (r"ashcombe|\bqoe\b|quality of earnings", qoe),
        "gap": (r"\bgap\b|difference|shortfall", round(mg - qoe, 1)),
    }, tolerance=0.05)
    problems = [] if ok else [why]
    for n, diff in contested(ctx).items():
        segs = [s for s in _segments(text) if re.search(ITEMS[n], s, re.I)]
        good = [s for s in segs if any(_close(abs(v), diff) for v in values(s)) and not HEDGE.search(s)]
        if not good:
            problems.append(f"item {n} without its {diff:.1f} ({segs[:1]})")
    if problems:
        return False, "; ".join(problems)
    return True, "38.8 vs 36.4, gap 2.4 by item", [Vouch.of("drive_items", item)]


def memo_peg(ctx):
    """The memo states the sellers' peg (24-month, 40.4), the QoE's (TTM, 41.6), March's 43.9 and the
    $1.2m at stake, each where its label is, no hedge."""
    item, doc, text = _memo(ctx)
    if doc is None:
        return False, f"no doc titled {MEMO!r}"
    p = nwc(ctx)
    ok, why = states_by_label(in_m(text), {
        "sellers' peg": (r"sellers'?|24[- ]month|two[- ]year", p["sellers"]),
        "QoE peg": (r"\bttm\b|trailing|12[- ]month|twelve[- ]month", p["ttm"]),
        "March": (r"\bmarch\b|\bmar[- ]?26\b", p["march"]),
        "at stake": (r"at stake|peg point|worth to the sellers|worth \$", p["stake"]),
    }, tolerance=0.05)
    if not ok:
        return False, why
    return True, f"peg {p['sellers']} vs {p['ttm']}, {p['stake']} at stake, March {p['march']}", \
        [Vouch.of("drive_items", item)]


def memo_gap_value(ctx):
    """The memo prices the EBITDA gap at the top bid's multiple (11.66x / 11.7x): ≈ $28.0m (± 0.1)."""
    c = _c()
    item, doc, text = _memo(ctx)
    if doc is None:
        return False, f"no doc titled {MEMO!r}"
    want = gap_value(ctx)
    mult = c.top_bid(ctx) / c.rule(ctx, "B4")
    t = in_m(text)
    if not re.search(rf"(?<![\d.])(?:{round(mult, 2):.2f}|{round(mult, 1):.1f})\s*(?:x|×|times)", t):
        return False, f"the top bid's multiple {mult:.2f}x not stated"
    for s in _segments(text):
        vals = values(s)
        if any(_close(v, want, 0.1) for v in vals) and re.search(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:x|×)", in_m(s)):
            big = [v for v in vals if v >= 10 and not _close(v, want, 0.1) and not _close(v, mult, 0.01)
                   and not _close(v, c.top_bid(ctx), 0.05) and not _close(v, c.rule(ctx, "B4"), 0.05)]
            if not big and not HEDGE.search(s):
                return True, f"gap worth {want}", [Vouch.of("drive_items", item)]
    return False, f"the gap's value at {mult:.2f}x ({want}) not stated"


def memo_shared(ctx):
    """Victoria and Julian can open the memo and nobody else (the agent apart): no folder share lets
    others in, no other share."""
    j = _j()
    item, doc, _ = _memo(ctx)
    if doc is None:
        return False, f"no doc titled {MEMO!r}"
    who = A.audience(ctx.final, item) - {AGENT}
    want = {"victoria.ashby", "julian.pierce"}
    if who != want:
        return False, f"open to {sorted(who)}, not {sorted(want)}"
    shares = [Vouch.of("drive_shares", k) for k, s in j._recs(ctx, "drive_shares", "new").items()
              if str(s["item"]) == item and s["person"] in want]
    # a note to them with the link is welcome (not asked for): it goes with the memo
    link = re.compile(rf"/docs/d/{doc}\b")
    notes = [Vouch.of("mail_messages", k) for k, m in j._agent_mails(ctx).items()
             if recipients(m) and recipients(m) <= {j._mail_of(ctx, p) for p in want}
             and (link.search(m.get("body") or "") or any(str(a.get("drive_item")) == item for a in j._attachments(ctx, k)))]
    dms = set().union(*(j._dm_with(ctx, p) for p in want))
    files = {str(f["message"]) for f in j._recs(ctx, "chat_files").values() if str(f["item"]) == item}
    notes += [Vouch.of("chat_messages", k) for k, m in j._recs(ctx, "chat_messages", "new").items()
              if m.get("author") == AGENT and str(m.get("conversation")) in dms
              and (k in files or link.search(m.get("text") or ""))]
    return True, "Victoria and Julian only", shares + notes


# ---------------------------------------------------------------------------- the board deck
IOI_SLIDE, SHORTLIST_SLIDE, NET_DEBT_SLIDE = "Round 1 IOI summary", "Shortlist for Phase II", \
    "Net debt and debt-like items"
TRAP_FIGURES = [39.4, 61.7, 83.1]       # and Alder Creek on v6's net debt, Rheinwerk at its own rate (checks)


def _deck(ctx, export: str = "final") -> list[dict]:
    ex = getattr(ctx, export)
    return A.slides(ex, A.app_key(ex, BOARD_DECK, "deck"))


def _slide(ctx, title: str, export: str = "final") -> dict | None:
    return next((s for s in _deck(ctx, export) if (s["boxes"].get("title") or "").strip() == title), None)


def _bidder_lines(body: str, bidder: str) -> list[str]:
    rx = _j().SHORT[bidder]
    return [ln for ln in normalise(body).splitlines() if re.search(rf"\b(?:{rx})", ln, re.I)]


def ioi_slide(ctx):
    """Slide 3 ranks the eight bidders at like-for-like (each on its line, to $0.05m, best first, no other
    sum for the bidder, no hedge); the top bid is 424.5."""
    c = _c()
    s = _slide(ctx, IOI_SLIDE)
    if s is None:
        return False, "no IOI summary slide"
    body = s["boxes"].get("body") or ""
    lines = normalise(body).splitlines()
    problems, order = [], []
    for b in c.ranking(ctx):
        want = c.like_for_like(ctx, b)
        lo, hi = c.headline(ctx, b)
        mine = _bidder_lines(body, b)
        good = [ln for ln in mine if any(_close(v, want) for v in values(ln))
                and all(v < 100 or any(_close(v, a) for a in (want, lo, hi)) for v in values(ln))
                and not re.search(r"\b(?:or|possibly|perhaps|maybe)\b|\?", ln, re.I)]
        if not good:
            problems.append(f"{b} not at {want:.2f}: {mine[:1]}")
        else:
            order.append(lines.index(good[0]))
    if not problems and order != sorted(order):
        problems.append("not in like-for-like order")
    if problems:
        return False, "; ".join(problems), []
    return True, "eight ranked at like-for-like", A.slide_vouches(ctx, s, fields=(), boxes=("body",))


OUT = re.compile(r"\b(?:out|excluded|not (?:short-?listed|invited|progress\w*|taken)|drop\w*|below|under|"
                 r"less than|short of|late|missed|after the deadline|declin\w*)\b", re.I)
# What puts a bidder through to Phase II.
THROUGH = re.compile(r"\b(?:invit\w*|through|short-?listed|progress(?:es|ing|ed)?|advanc\w*|admit\w*|included|"
                     r"proceed\w*|qualif\w*|(?:goes|going|go|moves?|moving|gets?) (?:on )?(?:in)?to phase ii|into phase ii|"
                     r"phase ii access|access to phase ii|in phase ii)\b", re.I)
# A word that sets aside what follows it in its clause ("none under the bar", "not invited", "won't go into").
NOT_BEFORE = re.compile(r"(?:\b(?:not|no|none|nobody|never|nor|neither|without|cannot|fails? to|excluded from|"
                        r"out of|denied|barred from|refused)\b|n['’]t\b)(?:\s+[^\s,;:()—–]+){0,4}?\s*$", re.I)
LATE_WORDS = r"\blate\b|after the deadline|missed the deadline|past the deadline"


def _said(rx, clause: str) -> bool:
    """``rx`` occurs in the clause and is not set aside by a negation just before it."""
    rx = rx if isinstance(rx, re.Pattern) else re.compile(rx, re.I)
    return any(not NOT_BEFORE.search(clause[:m.start()]) for m in rx.finditer(clause))


def _clauses(body: str) -> list[tuple[set[str], str]]:
    """The body's clauses (lines split at ";" and at a sentence's full stop), each with the bidders it is
    about: those it names, or, for a clause naming none ("Invited anyway."), those of the clause before it
    on its line (unless it turns to others: "the five …")."""
    c, j = _c(), _j()
    out = []
    for line in normalise(body).splitlines():
        prev: set[str] = set()
        for cl in re.split(r";|\.(?=\s|$)", line):
            if not cl.strip():
                continue
            named = {b for b in c.LETTERS if re.search(rf"\b(?:{j.SHORT[b]})", cl, re.I)}
            if not named and not re.search(r"\bthe (?:five|other|rest|shortlist)|\bothers\b", cl, re.I):
                named = set(prev)
            prev = named
            out.append((named, cl))
    return out


# Below the bar, however it is said: "under $410m", "did not reach the $410m bar", "failed to meet the threshold".
BELOW_BAR = (r"\bbelow\b|\bunder\b|less than|short of|fell short|(?:did\s+not|didn[’']t|does\s+not|doesn[’']t|"
             r"failed\s+to|fails\s+to)\s+(?:\w+\s+){0,2}?(?:reach|meet|clear|make|hit|get\s+to)\b|\bmiss\w*\b")


def shortlist_slide(ctx):
    """Slide 4 names the five (in clauses that exclude nobody: an out word set aside, "none under the bar",
    is fine) and why the other three are out: Sable Point late, Norwell and Corliss below the $410.0m bar (the
    bar stated; no other sum for them), each clause about an out bidder reading its own reason and nothing
    that also puts it through ("late … but also invited into Phase II" fails)."""
    c = _c()
    s = _slide(ctx, SHORTLIST_SLIDE)
    if s is None:
        return False, "no shortlist slide"
    body = s["boxes"].get("body") or ""
    five = c.shortlist(ctx)
    out = [b for b in c.ranking(ctx) if b not in five]
    late = c.late_bidders(ctx)
    clauses = _clauses(body)
    problems = []
    for b in five:
        if not any(b in named and not (named & set(out)) and not _said(OUT, cl) for named, cl in clauses):
            problems.append(f"{b} not shown as shortlisted")
    for b in out:
        mine = [cl for named, cl in clauses if b in named]
        through = [cl for cl in mine if _said(THROUGH, cl)]
        if through:
            problems.append(f"{b} is out but also put through: {through[0].strip()!r}")
            continue
        if b in late:
            ok = any(_said(LATE_WORDS, cl) for cl in mine)
        else:
            named = lambda cl: [o for o in c.LETTERS if re.search(rf"\b(?:{_j().SHORT[o]})", cl, re.I)]  # noqa: E731
            # every figure the clause names, negated or not: "did not reach the $410m bar" names the bar
            ok = any(_said(BELOW_BAR, cl)
                     and any(_close(v, c.BAR) for v in figures(cl))
                     and all(v < 100 or _close(v, c.BAR) or any(_close(v, c.like_for_like(ctx, o)) for o in named(cl))
                             for v in figures(cl))
                     and not re.search(r"\b(?:or|possibly|perhaps|maybe)\b|\?", cl, re.I) for cl in mine)
        if not ok:
            problems.append(f"{b}: why it is out not stated ({mine[:1]})")
    if problems:
        return False, "; ".join(problems), []
    return True, "the five; Sable Point late; Norwell, Corliss below $410.0m", \
        A.slide_vouches(ctx, s, fields=(), boxes=("body",))


def deck_notes_fx(ctx):
    """The speaker notes of slide 3 or 4 cite the EUR/USD rate used (FX!B2, 1.1350)."""
    c = _c()
    fxs = f"{c.fx(ctx):.4f}".rstrip("0")
    rx = re.compile(rf"(?<![\d.]){re.escape(fxs)}0*(?!\d)")
    slides = [s for s in (_slide(ctx, IOI_SLIDE), _slide(ctx, SHORTLIST_SLIDE)) if s is not None]
    hits = [s for s in slides if rx.search(s.get("notes") or "")]
    if not hits:
        return False, f"no speaker notes on slides 3–4 cite {fxs}", []
    return True, f"notes cite {fxs}", [v for s in slides for v in A.slide_vouches(ctx, s, fields=("notes",))]


def deck_no_traps(ctx):
    """Nothing in the deck (boxes or notes) states 39.4, 61.7, 83.1, Alder Creek on v6's net debt or
    Rheinwerk at its own rate (435.1 and 415.1 in the published world; set aside is fine)."""
    own = _c().own_rate_figures(ctx) + _c().alder_trap_figures(ctx)[:1]

    def traps(export: str) -> list[float]:
        out = []
        for s in _deck(ctx, export):
            for text in list(s["boxes"].values()) + [s.get("notes") or ""]:
                out += [t for v in values(text) for t in TRAP_FIGURES + own if _close(v, t, 0.001)]
        return out

    # A figure the deck already wrote as something else is not the agent's (a variant's DCF end can be
    # Alder Creek's v6 figure, 438.1): only more of them than at the start count.
    before, after = traps("initial"), traps("final")
    found = sorted({t for t in after if after.count(t) > before.count(t)})
    if found:
        return False, f"trap figures in the deck: {found}", []
    return True, "no trap figure", []


def _equity_is(text: str, top: float, equity: float) -> bool:
    """The equity figure is the equity value: the result of a sum that starts from the top bid ("424.5 −
    58.3 − 11.5 = 354.7"), or the figure the word "equity" names while "top bid" names the top bid."""
    t = in_m(text)
    for m in re.finditer(r"=\s*", t):
        start = max(t.rfind(";", 0, m.start()), t.rfind("\n", 0, m.start()), t.rfind(":", 0, m.start())) + 1
        after = [float(c.value) for c in number_cands(t[m.end():m.end() + 20], words=False)][:1]
        before = [float(c.value) for c in number_cands(t[start:m.start()], words=False)]
        if after and _close(after[0], equity) and before and _close(before[0], top):
            return True
    ok, _ = states_by_label(t, {"top bid": (r"top (?:like-for-like )?bid|highest bid", top),
                                "equity": (r"\bequity\b", equity)}, tolerance=0.05)
    return ok


def equity_slide(ctx):
    """Slide 8's "[TBU]" equity line replaced: top bid 424.5 − 58.3 − 11.5 = 354.7; Varden Family Holdings
    70% 248.3; Calloway Ridge 30% 106.4 (each where its holder is named; no other sum, no hedge). The lines
    above it as they were."""
    c = _c()
    s0, s = _slide(ctx, NET_DEBT_SLIDE, "initial"), _slide(ctx, NET_DEBT_SLIDE)
    if s is None or s0 is None:
        return False, "no net debt slide", []
    old = [ln for ln in (s0["boxes"].get("body") or "").splitlines() if ln.strip()]
    new = [ln for ln in (s["boxes"].get("body") or "").splitlines() if ln.strip()]
    keep = [ln for ln in old if "[TBU]" not in ln]
    if [" ".join(x.split()) for x in new[:len(keep)]] != [" ".join(x.split()) for x in keep]:
        return False, "the lines above the equity line changed", []
    tail = "\n".join(new[len(keep):])
    if not tail.strip() or "[TBU]" in tail:
        return False, "the equity line is not filled in", []
    stake, _ = _c().calloway_stake(ctx)
    top = c.top_bid(ctx)
    equity = top - c.rule(ctx, "B2") - c.rule(ctx, "B3")
    want = {"equity": round(equity, 2), "family": round(equity * (1 - stake), 2), "calloway": round(equity * stake, 2)}
    allowed = list(want.values()) + [top, c.rule(ctx, "B2"), c.rule(ctx, "B3"), c.rule(ctx, "B2") + c.rule(ctx, "B3")]
    vals = values(tail)
    problems = []
    extra = [v for v in vals if v >= 10 and not any(_close(v, a) for a in allowed)]
    if extra:
        problems.append(f"other sums {extra}")
    if re.search(r"\b(?:or|possibly|perhaps|maybe|approximately)\b|\?", tail, re.I):
        problems.append("hedged")
    if not any(_close(v, want["equity"]) for v in vals):
        problems.append(f"equity {want['equity']:.1f} not stated")
    elif not _equity_is(tail, top, want["equity"]):
        problems.append(f"equity not stated as {want['equity']:.1f} (top bid {top:.1f})")
    if not any(_close(v, top) for v in vals):
        problems.append(f"top bid {top:.1f} not stated")
    for who, rx, other in (("family", r"family|varden family", "calloway"), ("calloway", r"calloway", "family")):
        segs = [g for g in re.split(r"[;\n·|]|,\s+(?=\D)|\band\b", normalise(tail)) if re.search(rx, g, re.I)]
        if not any(any(_close(v, want[who]) for v in values(g)) and not any(_close(v, want[other]) for v in values(g))
                   for g in segs):
            problems.append(f"{who} {want[who]:.1f} not stated for its holder")
    if problems:
        return False, "; ".join(problems), []
    return True, "equity 354.7; family 248.3; Calloway 106.4", A.slide_vouches(ctx, s, fields=(), boxes=("body",))


# ---------------------------------------------------------------------------- Kestrel's Phase II letter
JULIAN = "julian.pierce"


def _letter_sources(ctx) -> list[tuple[str, list[Vouch], str]]:
    """Where the Kestrel letter may be: the doc titled LETTER, or the agent's mail or draft to Julian with
    the letter in its body. (text, vouches, kind)."""
    j = _j()
    out = []
    item, doc = j._new_doc(ctx, LETTER)
    if doc is not None:
        out.append(("\n".join(j._doc_text_blocks(ctx, doc)), [Vouch.of("drive_items", item)], f"doc:{item}"))
    jm = j._mail_of(ctx, JULIAN)
    for k, m in j._recs(ctx, "mail_messages", "new").items():
        if (m.get("sender") or "").lower() == AGENT_MAIL and recipients(m) == {jm} \
                and len(j._strip_quote(m.get("body") or "")) > 800:
            out.append((j._strip_quote(m.get("body") or ""), [Vouch.of("mail_messages", k)], f"mail:{k}"))
    return out


DAYS = {"deadline": date(2026, 6, 25), "meetings from": date(2026, 5, 26), "meetings to": date(2026, 6, 4)}
DATE_HEDGE = re.compile(r"\s*[(,]?\s*(?:or|possibly|perhaps|maybe|/)\b|\s*\?")


def _dates_after(t: str, pos: int) -> list:
    """The dates written in the sentence of ``t`` from ``pos`` on (not set aside), in order."""
    end = re.search(r"[.;\n](?!\d)", t[pos:])
    seg_end = pos + end.start() if end else len(t)
    return [c for c in date_cands(t, date(2026, 5, 11)) if pos <= c.start < seg_end and not negated(t, c)]


def dated(t: str, label: str, want: date, then: date | None = None) -> bool:
    """Some mention of ``label`` is followed, in its sentence, first by ``want`` (and right after it by
    ``then``, a window's end), neither offered with an alternative."""
    for m in re.finditer(label, t, re.I):
        ds = _dates_after(t, m.end())
        if not ds or ds[0].value != want or DATE_HEDGE.match(t[ds[0].end:]):
            continue
        if then is not None:
            if len(ds) < 2 or ds[1].value != then or DATE_HEDGE.match(t[ds[1].end:]) \
                    or not re.search(r"\b(?:to|through|until|and)\b|[–→-]", t[ds[0].end:ds[1].start]):
                continue
        return True
    return False


# The Final Proposal's terms as Julian's comments have them: binding, fully financed (no financing condition),
# with a mark-up of the SPA. A term said and then taken back ("it need not be binding", "may remain subject to
# financing", "an SPA mark-up is optional") is not said; a clause that rejects the opposite ("non-binding
# proposals will not be considered") is fine.
NEG_CUE = re.compile(r"(?:\b(?:no|not|without|never|nor|need not|needn['’]t|non|optional(?:ly)?|free of)\b|n['’]t\b)"
                     r"(?:[\s-]+[^\s,;:.()\[\]]+){0,3}?[\s-]*$", re.I)
QUALIFIED = re.compile(r"^\s*[(—–-]?\s*(?:[^\s.;,()]+\s+){0,4}?(?:optional|not (?:strictly )?(?:required|necessary|needed|"
                       r"mandatory|essential)|if (?:possible|practicable|available|you (?:wish|prefer|can))|"
                       r"where (?:possible|available)|at your (?:discretion|option)|preferred|ideally|welcome|"
                       r"encouraged|appreciated)\b", re.I)
REJECTS = re.compile(r"\b(?:will not|won['’]t|cannot|can['’]t|shall not)\s+be\s+(?:accepted|considered|entertained)\b|"
                     r"\bnot (?:be )?acceptable\b|\bunacceptable\b|\brejected\b|\bdisregarded\b", re.I)


def _neg_before(t: str, pos: int) -> bool:
    cs, _ = clause(t, pos)
    return bool(NEG_CUE.search(t[max(cs, pos - 45):pos]))


def _qualified_after(t: str, end: int) -> bool:
    _, ce = clause(t, end)
    return bool(QUALIFIED.match(t[end:ce]))


def _rejecting(t: str, pos: int) -> bool:
    """The clause rejects what it names ("non-binding proposals will not be considered"), or is about the
    Phase I IOI, which was non-binding ("thanks Kestrel for its non-binding indication of interest")."""
    cs, ce = clause(t, pos)
    return bool(REJECTS.search(t[cs:ce]) or re.search(r"\bindicati\w*|\bIOIs?\b|\bphase i\b(?!i)|\bround 1\b|"
                                                      r"\bpreliminary\b", t[max(cs, pos - 60):min(ce, pos + 60)], re.I))


def _terms_problems(t: str) -> list[str]:
    """What is wrong with the letter's binding / financed / SPA mark-up terms: each said plainly at least once
    and nowhere negated or made optional."""
    p = []
    for name, rx in (("binding", r"\bbinding\b"), ("financed", r"\bfinanced\b|\bcommitted financ\w*|\bfinanc\w*"),
                     ("SPA mark-up", r"\bmark-?\s?up\b|\bmarked[- ]up\b")):
        said, taken_back = False, []
        for m in re.finditer(rx, t, re.I):
            word = m.group(0).casefold()
            if name == "financed" and word.startswith("financ") and word != "financed":
                # "financing": only what it says of a condition counts ("no financing condition" is the
                # term; "subject to financing", "a financing condition" take it back)
                tail = t[m.end():m.end() + 25]
                cond = re.match(r"\s*(?:condition|contingenc|out\b|approval)", tail, re.I)
                subject = re.search(r"\bsubject\s+to\s+(?:\w+\s+){0,2}$", t[max(0, m.start() - 40):m.start()], re.I)
                if not (cond or subject):
                    continue
                if _neg_before(t, m.start()) or (subject and _neg_before(t, m.start() - len(subject.group(0)))):
                    said = True                     # "no financing condition", "not subject to financing"
                elif not _rejecting(t, m.start()):
                    taken_back.append(t[max(0, m.start() - 30):m.end() + 15].strip())
                continue
            if _neg_before(t, m.start()) or _qualified_after(t, m.end()):
                if not _rejecting(t, m.start()):
                    taken_back.append(t[max(0, m.start() - 30):m.end() + 20].strip())
            else:
                said = True
        if taken_back:
            p.append(f"{name} taken back ({taken_back[0]!r})")
        elif not said:
            p.append(f"{name} missing")
    return p


def _more_leaks(ctx, t: str, own: tuple[str, ...]) -> list[str]:
    """Leaks the shared reader may miss: another prospect's people by name ("Dr. Katrin Vogel's team") and sums
    written "424.5mn", "424.5 mln", "11 times"."""
    import yaml
    out = []
    accounts = yaml.safe_load((Path(ctx.world_root) / "crm" / "accounts.yaml").read_text(encoding="utf-8"))["accounts"]
    theirs = {a["id"] for a in accounts if a.get("type") == "Prospect"
              and not any(re.search(rf"\b{re.escape(o)}", a.get("name") or "", re.I) for o in own)}
    contacts = yaml.safe_load((Path(ctx.world_root) / "crm" / "contacts.yaml").read_text(encoding="utf-8"))["contacts"]
    for c in contacts:
        if c.get("account") not in theirs:
            continue
        first, last = c.get("first_name") or "", c.get("last_name") or ""
        if not first or not last:
            continue
        if re.search(rf"\b{re.escape(first)}\s+{re.escape(last)}\b|\b(?:Mr|Ms|Mrs|Dr|Herr|Frau)\.?\s+{re.escape(last)}\b", t):
            out.append(f"names {first} {last}")
    for m in re.finditer(r"\b\d[\d,.]*\s*(?:mn|mln|mio|mm|bn|bln)\b|\b\d+(?:\.\d+)?\s*times\b", t, re.I):
        out.append(f"a figure {m.group(0)!r}")
    return out


def letter_problems(ctx, text: str) -> list[str]:
    """What is wrong with Kestrel's letter (``checks_launch.letter_problems``, which reads all five)."""
    return world_module(HERE, "checks_launch").letter_problems(ctx, "Kestrel", text)


def kestrel_letter(ctx):
    """The Kestrel Phase II letter (a doc titled as asked, or a mail to Julian carrying it) has the
    clean-team paragraph, 2026-06-25 17:00 CT, CFDF, USD, binding and financed, the SPA mark-up, meetings
    2026-05-26 → 2026-06-04, and names no other bidder and no price."""
    srcs = _letter_sources(ctx)
    if not srcs:
        return False, f"no doc {LETTER!r} and no mail to Julian with the letter"
    found = []
    for text, vouch, kind in srcs:
        p = letter_problems(ctx, text)
        if not p:
            return True, f"letter in {kind}", vouch
        found.append(f"{kind}: {'; '.join(p)}")
    return False, " | ".join(found)


def letter_to_julian(ctx):
    """The agent sent the draft to Julian alone (a mail to him only, carrying the doc or the letter, or a DM
    with the doc), and Julian answered it (his draft trigger replied)."""
    j = _j()
    jm = j._mail_of(ctx, JULIAN)
    item, doc = j._new_doc(ctx, LETTER)
    link = re.compile(rf"/docs/d/{doc}\b") if doc is not None else None
    sent = []
    for k, m in j._agent_mails(ctx).items():
        if not recipients(m) or recipients(m) != {jm}:
            continue
        body = m.get("body") or ""
        carries = (item is not None and (any(str(a.get("drive_item")) == item for a in j._attachments(ctx, k))
                                         or link.search(body))) \
            or not letter_problems(ctx, j._strip_quote(body))
        if carries:
            sent.append(Vouch.of("mail_messages", k))
    dms = j._dm_with(ctx, JULIAN)
    files = {str(f["message"]) for f in j._recs(ctx, "chat_files").values() if item is not None and str(f["item"]) == item}
    for k, m in j._recs(ctx, "chat_messages", "new").items():
        if m.get("author") == AGENT and str(m.get("conversation")) in dms \
                and (k in files or (link is not None and link.search(m.get("text") or ""))):
            sent.append(Vouch.of("chat_messages", k))
    if not sent:
        return False, "no mail or DM to Julian alone with the draft"
    if item is not None and JULIAN not in A.audience(ctx.final, item):
        return False, "Julian can't open the draft"
    replied = [k for k, m in j._recs(ctx, "mail_messages", "new").items()
               if (m.get("sender") or "").lower() == jm and "reading it now" in (m.get("body") or "")]
    replied += [k for k, m in j._recs(ctx, "chat_messages", "new").items()
                if m.get("author") == JULIAN and "reading it now" in (m.get("text") or "")]
    if not replied:
        return False, "Julian has not seen a draft (no reply)"
    shares = [Vouch.of("drive_shares", k) for k, s in j._recs(ctx, "drive_shares", "new").items()
              if item is not None and str(s["item"]) == item and s["person"] == JULIAN]
    return True, f"sent to Julian ({len(sent)}), he replied", sent + shares
