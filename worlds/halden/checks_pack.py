"""Checks of the halden long days built from parts: the steering-committee deck and client pack
(the outline's workflow 2) and the Round 1 book (workflow 1).

What the parts already check (the IOI and shortlist slides, the equity line, the invitation's link,
Nathaniel's answer, the IOI Comparison, the CRM amounts, the one-pager) stays with them; these are the
checkpoints only the day has: the process slide's counts, the valuation on the QoE EBITDA, the deck in
the client's hands (and nobody else's) and the mail that tells them. Expected figures come from the world
(the Buyer Tracker's counts, the Rules tab, the letters) through the shared readers.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify.checks import world_module
from harness.verify.guard import Vouch
from harness.verify.mailtext import recipients
from harness.verify.reading import date_cands, normalise, number_cands

HERE = Path(__file__).parent
C = world_module(HERE, "checks")
D = world_module(HERE, "checks_deliverables")
DOMAIN = "haldenrowe.com"
BOARD_DECK = D.BOARD_DECK
PROCESS_SLIDE, VALUATION_SLIDE = "Process status", "Valuation summary"
# The client's side of the steering committee, who get the deck; Victoria is copied on the mail.
BOARD = ("claire.varden", "mark.dressler", "alison.park", "nathaniel.brooks")
VICTORIA = "victoria.ashby"
HEDGE = re.compile(r"\b(?:or|possibly|perhaps|maybe|approx\w*|about|around|roughly|c\.|circa|tbc|tbd)\b|~|\?|\[tbu\]", re.I)


def _process():
    return world_module(HERE, "checks_process")


def _lines(text: str | None) -> list[str]:
    """A box's lines, spaces squashed and bullet marks dropped (a bullet is layout, not content)."""
    return [re.sub(r"^(?:[-*•]\s+)+", "", " ".join(ln.split())) for ln in (text or "").splitlines() if ln.strip()]


def _counts_in(segment: str) -> list[int]:
    """Whole numbers a segment states as counts: dates (2026-02-23, 04-21, 02/23) and years left out."""
    s = re.sub(r"\b\d{4}-\d\d-\d\d\b|\b\d\d-\d\d\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b", " ", normalise(segment))
    return [int(float(c.value)) for c in number_cands(s, words=False)
            if float(c.value).is_integer() and not (1900 <= float(c.value) <= 2100)]


# ---------------------------------------------------------------- the deck
LABELS = {"contacted": r"\bcontact\w*|\bapproach\w*", "NDAs": r"\bNDAs?\b|non-disclosure",
          "IOIs": r"\bIOIs?\b|indications? of interest"}


def process_slide(ctx):
    """The process slide's three "[TBU]"s filled from the Buyer Tracker — parties contacted 29 (the teaser's
    28 plus Lakemont), NDAs 18, IOIs 8 — each where its label is, no hedge; a line says Pellham Controls was
    excluded (never contacted); the other lines as they were."""
    before, now = D._slide(ctx, PROCESS_SLIDE, "initial"), D._slide(ctx, PROCESS_SLIDE)
    if before is None or now is None:
        return False, "no process slide", []
    want = dict(zip(LABELS, (int(v) for v in _process().process_counts(ctx))))
    old, new = _lines(before["boxes"].get("body")), _lines(now["boxes"].get("body"))
    lost = [ln for ln in old if "[TBU]" not in ln and ln not in new]
    problems = [f"line lost or changed: {ln!r}" for ln in lost]
    text = "\n".join(ln for ln in new if ln not in old)
    if "[TBU]" in "\n".join(new):
        problems.append("a [TBU] is left")
    segments = [g for g in re.split(r"[;\n]|,\s|\s[–—-]\s", text) if g.strip()]
    for label, rx in LABELS.items():
        said = [g for g in segments if re.search(rx, g, re.I) and _counts_in(g)]
        if not any(want[label] in _counts_in(g) and not HEDGE.search(g) for g in said):
            problems.append(f"{label}: want {want[label]} (found {[g.strip() for g in said]})")
        elif any(want[label] not in _counts_in(g) for g in said if not re.search(r"pellham|teaser|initial|first", g, re.I)):
            problems.append(f"{label}: another count {[g.strip() for g in said]}")
    pellham = [g for g in text.splitlines() if re.search(r"pellham", g, re.I)]
    if not any(re.search(r"exclu\w*|(?:never|not) (?:been )?contacted|not approached|never approached", g, re.I)
               and not re.search(r"\bnot exclu|\bno longer exclu|re-?(?:included|admitted)|\binvited\b", g, re.I)
               for g in pellham):
        problems.append(f"no line that Pellham was excluded ({pellham})")
    if problems:
        return False, "; ".join(problems), []
    return True, f"contacted {want['contacted']}, NDAs {want['NDAs']}, IOIs {want['IOIs']}; Pellham excluded", \
        A.slide_vouches(ctx, now, fields=("notes",), boxes=("body",))


def valuation_on_qoe(ctx):
    """The valuation summary's multiples line restated on the QoE EBITDA (Rules!B4, $36.4m) and no longer on
    management's $38.8m (Rules!B5); the other lines as they were."""
    before, now = D._slide(ctx, VALUATION_SLIDE, "initial"), D._slide(ctx, VALUATION_SLIDE)
    if before is None or now is None:
        return False, "no valuation summary slide", []
    qoe, mgmt = C.rule(ctx, "B4"), C.rule(ctx, "B5")
    old, new = _lines(before["boxes"].get("body")), _lines(now["boxes"].get("body"))
    basis = [ln for ln in old if re.search(r"multiples applied", ln, re.I)]
    keep = [ln for ln in old if ln not in basis]
    problems = [f"line lost or changed: {ln!r}" for ln in keep if ln not in new]
    added = [ln for ln in new if ln not in keep]
    figs = [v for ln in added for v in D.values(ln)]
    if not any(abs(v - qoe) < 0.05 for v in figs):
        problems.append(f"the multiples are not said to be on the QoE ${qoe}m: {added}")
    if any(abs(v - mgmt) < 0.05 for v in figs) and not re.search(rf"not (?:on )?(?:management|\$?{mgmt})", " ".join(added), re.I):
        problems.append(f"still on management's ${mgmt}m: {added}")
    if problems:
        return False, "; ".join(problems), []
    return True, f"multiples on the QoE ${qoe}m", A.slide_vouches(ctx, now, fields=("notes",), boxes=("body",))


# ---------------------------------------------------------------- the deck in the client's hands
def _deck_item(export: dict) -> str | None:
    return A.item_key(export, BOARD_DECK, "deck")


def deck_to_board(ctx):
    """Claire, Mark, Alison and Nathaniel can view the deck: a viewer share each on the deck itself (not
    editor or commenter), and none of them (nor anyone outside the firm) gains a share on the internal folder
    above it or on any other item."""
    item = _deck_item(ctx.final)
    if item is None:
        return False, "the board deck is gone", []
    shares = A.records(ctx.final, "drive_shares")
    new = {k: shares[k] for k in ctx.by_agent("drive_shares", inserted=True) if k in shares}
    changed = {k: shares[k] for k in ctx.by_agent("drive_shares") if k in shares and k not in new}
    people = {p["slug"]: p for p in A.records(ctx.final, "people").values()}
    problems, vouches = [], []
    for who in BOARD:
        mine = [(k, s) for k, s in {**new, **changed}.items() if s["person"] == who and str(s["item"]) == item]
        if not mine:
            problems.append(f"{who} has no new share on the deck")
        elif any(s["role"] != "viewer" for _, s in mine):
            problems.append(f"{who} is {mine[0][1]['role']}, not viewer")
        else:
            vouches += [Vouch.of("drive_shares", k, to=[who]) for k, _ in mine]
    above = set(A.ancestors(ctx.final, item)) - {item}
    for k, s in {**new, **changed}.items():
        email = (people.get(s["person"]) or {}).get("email") or ""
        if str(s["item"]) in above and not email.endswith("@" + DOMAIN):
            problems.append(f"{s['person']} shared on the internal folder")
        elif str(s["item"]) != item and s["person"] in BOARD:
            problems.append(f"{s['person']} shared on another item")
    if problems:
        return False, "; ".join(problems), []
    return True, "the four can view the deck, nothing above it", vouches


def deck_mail(ctx):
    """One mail of the agent to Claire, Mark, Alison and Nathaniel (to or cc), Victoria copied, with the
    deck's link or the deck attached from Drive; nobody else outside the firm on it (the same mail sent twice
    is spam, not a second right answer)."""
    people = {p["slug"]: (p.get("email") or "").lower() for p in A.records(ctx.final, "people").values()}
    board = {people[p] for p in BOARD}
    deck, item = A.app_key(ctx.final, BOARD_DECK, "deck"), _deck_item(ctx.final)
    mails = A.records(ctx.final, "mail_messages")
    atts = A.records(ctx.final, "mail_attachments")
    seen, good = [], []
    for k in ctx.by_agent("mail_messages", inserted=True):
        m = mails.get(k)
        if not m or not (board & recipients(m)):
            continue
        rcpt = recipients(m)
        problems = []
        if board - rcpt:
            problems.append(f"not to {sorted(board - rcpt)}")
        if people[VICTORIA] not in rcpt:
            problems.append("Victoria not copied")
        outside = {r for r in rcpt if not r.endswith("@" + DOMAIN) and r not in board}
        if outside:
            problems.append(f"also to {sorted(outside)}")
        attached = any(str(a["message"]) == k and str(a.get("drive_item")) == str(item) for a in atts.values())
        if not (attached or (deck is not None and _state()._links_to(m.get("body") or "", deck))):
            problems.append("no link to the deck")
        seen.append(f"mail {k}: " + ("; ".join(problems) or "ok"))
        if not problems:
            good.append((k, rcpt))
    if len(good) != 1:
        return False, "; ".join(seen) or "no mail to the board with the deck", []
    vouches = []
    for k, rcpt in good:
        outside = sorted(r for r in rcpt if not r.endswith("@" + DOMAIN))
        vouches.append(Vouch.of("mail_messages", k, to=outside))
        vouches += [Vouch.of("mail_attachments", a, to=outside) for a, r in atts.items()
                    if str(r["message"]) == k and str(r.get("drive_item")) == str(item)]
    return True, "; ".join(seen), vouches


# ---------------------------------------------------------------- the Round 1 book: the IOIs tab, column by column
def _state():
    return world_module(HERE, "checks_state")


def _ioi_tab(export: dict) -> str | None:
    return A.tab_key(export, A.app_key(export, C.IOI_COMPARISON, "sheet"), "IOIs")


def _book(ctx) -> dict[str, tuple[int, dict[str, tuple[str, dict]]]]:
    """{bidder: (row, its cells by column)} for the rows of the IOIs tab whose Bidder cell is a Round 1
    bidder's full name, exactly (the CRM's and the letters' spelling)."""
    full = {v: k for k, v in C.FULL_NAMES.items()}
    out = {}
    for r, cells in sorted(A.rows(ctx.final, _ioi_tab(ctx.final)).items()):
        name = " ".join(str(A.cell_value(cells.get("A")) or "").split())
        if r > 1 and name in full and full[name] not in out:
            out[full[name]] = (r, cells)
    return out


def _text(kc) -> str:
    v = A.cell_value(kc)
    return "" if v is None else " ".join(str(v).split())


def _column(ctx, col: str, problem, label: str):
    """Run ``problem(bidder, row, cell) -> str | None`` on column ``col`` of each bidder's row: the verdict and
    the vouches for the column's cells."""
    book = _book(ctx)
    problems = [f"no row for {C.FULL_NAMES[b]}" for b in C.LETTERS if b not in book]
    for b, (r, cells) in book.items():
        wrong = problem(b, r, cells.get(col))
        if wrong:
            problems.append(f"{col}{r} ({b}): {wrong}")
    if problems:
        return False, "; ".join(problems), []
    return True, label, A.cell_vouches(ctx, _ioi_tab(ctx.final), [f"{col}{r}" for r, _ in book.values()])


def book_rows(ctx):
    """One row per Round 1 bidder, named exactly as in the letters and the CRM, and no other row filled."""
    book = _book(ctx)
    others = [r for r, cells in A.rows(ctx.final, _ioi_tab(ctx.final)).items()
              if r > 1 and r not in {x for x, _ in book.values()} and any(_text(kc) for kc in cells.values())]
    missing = [C.FULL_NAMES[b] for b in C.LETTERS if b not in book]
    if missing or others:
        return False, f"missing {missing}; other rows {sorted(others)}", []
    return True, "eight rows, one per bidder", A.cell_vouches(ctx, _ioi_tab(ctx.final), [f"A{r}" for r, _ in book.values()])


TIME = re.compile(r"\b(\d{1,2})[:.h](\d\d)\s*([ap])?\.?\s*m?\.?(?![\w])", re.I)


def _when(text: str):
    """The date and time a cell states ("2026-04-30 16:41", "4/30/2026 4:41 PM", "30 Apr 2026, 16:41 CT")."""
    from datetime import datetime as dt
    ds = [c.value for c in date_cands(normalise(text), _state().TODAY)]
    ts = TIME.findall(re.sub(r"\b\d{4}-\d\d-\d\d\b", " ", text))
    if len(set(ds)) != 1 or len(ts) != 1:
        return None
    h, m, ap = int(ts[0][0]), int(ts[0][1]), ts[0][2].lower()
    if ap == "p" and h < 12:
        h += 12
    elif ap == "a" and h == 12:
        h = 0
    return dt(ds[0].year, ds[0].month, ds[0].day, h, m) if h < 24 and m < 60 else None


YES, NO = re.compile(r"^(?:yes|y|true|late)$", re.I), re.compile(r"^(?:no|n|false|on time)$", re.I)


def book_received(ctx):
    """Received (CT): each IOI mail's arrival to the minute (Sable Point's 2026-05-04 09:12, not its letter's
    05-01 date); Late?: Yes for a mail after the 2026-04-30 17:00 deadline, No for the rest."""
    deadline = _state().phase_i_deadline(ctx)

    def problem(b, r, kc):
        want = _state().received_at(ctx, b)
        got = _when(_text(kc))
        return None if got == want else f"{_text(kc)!r}, not {want:%Y-%m-%d %H:%M}"

    ok, found, vouches = _column(ctx, "B", problem, "received times")
    if not ok:
        return ok, found, []

    def late(b, r, kc):
        want = _state().received_at(ctx, b) > deadline
        t = _text(kc)
        return None if (YES if want else NO).match(t) else f"{t!r}, not {'Yes' if want else 'No'}"

    ok2, found2, vouches2 = _column(ctx, "C", late, "late flags")
    return ok2, f"{found}; {found2}", (vouches + vouches2) if ok2 else []


def _figures(text: str) -> list[float]:
    s = re.sub(r"\b\d{4}-\d\d-\d\d\b", " ", normalise(text))
    return [float(c.value) for c in number_cands(s, words=False)]


def book_headline(ctx):
    """Headline as written: the letter's own figures in its own currency (Rheinwerk's EUR 374m, Kestrel's
    $405m–$425m, Alder Creek's $352m equity value, Corliss's $360,000–$380,000 in thousands), not an adjusted
    value."""
    def problem(b, r, kc):
        t = _text(kc)
        lo, hi = C.headline(ctx, b)
        want = {lo, hi}
        # sums in $m; Corliss wrote thousands ("$360,000 – $380,000 (in thousands)" is $360m–$380m)
        figs = [v / 1e6 if v >= 1e8 else v / (1e3 if b == "Corliss" else 1e6) if v >= 1e5 else v for v in _figures(t)]
        big = {round(v, 2) for v in figs if v >= 100}
        if big != {round(x, 2) for x in want}:
            return f"{t!r}, not the letter's {lo:g}{'' if lo == hi else f'–{hi:g}'}"
        if b == "Corliss" and any(1e5 <= v < 1e8 for v in _figures(t)) \
                and not re.search(r"thousand|\b0{3}s\b|'000|\(000\)", t, re.I):
            return f"{t!r}: the letter's figures are in thousands and the cell doesn't say so"
        if b == "Rheinwerk" and not re.search(r"EUR|€", t):
            return f"{t!r} doesn't say EUR"
        return None
    return _column(ctx, "D", problem, "headlines as written")


def book_basis(ctx):
    """Basis: Alder Creek's an equity value; Marlow Peak's counts the debt-like items as debt; the others an
    enterprise value (cash-free / debt-free)."""
    def problem(b, r, kc):
        t = _text(kc)
        if not t:
            return "empty"
        if b == "Alder Creek":
            said = re.search(r"\bequity\b", t, re.I) and not re.search(r"\bnot (?:an? )?equity", t, re.I)
            return None if said else f"{t!r} doesn't say equity value"
        if re.search(r"\bequity value\b", t, re.I) and not re.search(r"\bnot (?:an )?equity value", t, re.I):
            return f"{t!r} calls it an equity value"
        if not re.search(r"\bEV\b|enterprise|cash[- ]free", t, re.I):
            return f"{t!r} doesn't say EV / cash-free, debt-free"
        if b == "Marlow Peak" and not re.search(r"debt[- ]like", t, re.I):
            return f"{t!r} doesn't say the debt-like items are counted as debt"
        return None
    return _column(ctx, "E", problem, "bases")


def book_currency(ctx):
    """Currency: EUR for Rheinwerk, USD for the rest."""
    def problem(b, r, kc):
        t = _text(kc).upper().replace("€", "EUR").replace("US$", "USD").replace("$", "USD")
        want = "EUR" if b == "Rheinwerk" else "USD"
        return None if t == want else f"{_text(kc)!r}, not {want}"
    return _column(ctx, "F", problem, "currencies")


def book_like_for_like(ctx):
    """Like-for-like EV ($m) on Victoria's rules, the adjusted bids as formulas on FX and Rules that follow
    them (nothing built on 1.1100, 61.7 or 83.1)."""
    return _column(ctx, "G", lambda b, r, kc: _state().like_for_like_cell_problem(ctx, b, r, kc), "like-for-like EVs")


def _multiple(ctx, col: str, rule: str, label: str):
    """The bidder's like-for-like EV (its G cell) over a Rules EBITDA, to 0.01, as a formula that follows both
    (a typed 11.66 or "=424.49/36.4" fails)."""
    base = C.rule(ctx, rule)

    def problem(b, r, kc):
        v = A.number(A.cell_value(kc))
        want = C.like_for_like(ctx, b) / base
        if v is None or abs(v - want) > 0.01:
            return f"{A.cell_value(kc)!r}, not {want:.2f}"
        wrong = A.follows(ctx.final, C.IOI_COMPARISON, ("IOIs", f"{col}{r}"),
                          lambda x: x[("IOIs", f"G{r}")] / x[("Rules", rule)], [("IOIs", f"G{r}"), ("Rules", rule)],
                          tolerance=0.01)
        return f"{A.cell_input(kc)!r} doesn't follow G{r} and Rules!{rule} ({wrong})" if wrong else None
    return _column(ctx, col, problem, label)


def book_qoe_multiple(ctx):
    """EV / QoE Adj. EBITDA: like-for-like ÷ Rules!B4 ($36.4m), to 0.01, a formula on G and Rules!B4."""
    return _multiple(ctx, "H", "B4", "multiples on QoE")


def book_management_multiple(ctx):
    """EV / Mgmt Adj. EBITDA: like-for-like ÷ Rules!B5 ($38.8m), to 0.01, a formula on G and Rules!B5."""
    return _multiple(ctx, "I", "B5", "multiples on management's EBITDA")


def book_rank(ctx):
    """Rank 1–8 by like-for-like EV, highest first."""
    order = C.ranking(ctx)

    def problem(b, r, kc):
        v = A.number(A.cell_value(kc))
        return None if v == order.index(b) + 1 else f"{A.cell_value(kc)!r}, not {order.index(b) + 1}"
    return _column(ctx, "J", problem, "ranks")


# The condition a banker would flag on each bid (the letters' own words).
CONDITIONS = {"Granite Harbor": r"employment|\bCEO\b|\bCOO\b|management (?:condition|agreements?|contracts?|team)", "Corliss": r"financ", "Norwell": r"\bboard\b",
              "Kestrel": r"\bHSR\b|Hart[- ]Scott", "Rheinwerk": r"\bCFIUS\b"}


def book_conditions(ctx):
    """Conditions: Granite Harbor's management condition, Corliss's financing, Norwell's board, Kestrel's HSR,
    Rheinwerk's CFIUS; something for each of the others."""
    def problem(b, r, kc):
        t = _text(kc)
        if not t:
            return "empty"
        rx = CONDITIONS.get(b)
        return None if rx is None or re.search(rx, t, re.I) else f"{t!r} misses its key condition"
    return _column(ctx, "K", problem, "conditions")


def book_shortlist(ctx):
    """Shortlist: Yes on exactly Victoria's five (on time and ≥ $410.0m), No (or nothing) on the rest."""
    five = set(C.shortlist(ctx))

    def problem(b, r, kc):
        t = _text(kc)
        if b in five:
            return None if re.match(r"^(?:yes|y|true|✓|x)$", t, re.I) else f"{t!r}, not Yes"
        return None if not t or NO.match(t) else f"{t!r}, not No"
    return _column(ctx, "L", problem, "the shortlist flag")


# ---------------------------------------------------------------- the diligence log: the five's key asks
LOG, LOG_TAB = "Diligence Q&A Log", "Q&A Log"
ALISON = "alison.park"
# Each shortlisted bidder's three key asks (section 6 of its letter): topic, how a question names it, the
# data-room folder that answers it (None: only the CFO can, or the outline maps none), whether it is
# clean-team material, and for the five only Alison can answer, what her answer must carry.
ASKS = [
    ("Rheinwerk", "Navy and export control", r"navy|itar|export", None, False, (r"(?<![\d.])11\.9(?!\d)", r"\bITAR\b")),
    ("Rheinwerk", "hydrogen roadmap", r"hydrogen", None, False, (r"(?<![\d.])4\.2(?!\d)", r"(?<![\d.])12(?:\.0)?(?![\d.])")),
    ("Rheinwerk", "pension", r"pension", "5.2", False, None),
    ("Granite Harbor", "quality of earnings", r"quality of earnings|\bqoe\b", "R1", False, None),
    ("Granite Harbor", "customer concentration", r"customer|concentration", "3.2", False, None),
    ("Granite Harbor", "succession", r"succession|retention", None, False, (r"retention",)),
    ("Kestrel", "named contracts and pricing", r"contracts?\b|pricing|price lists?|rebate", "R2", True, None),
    ("Kestrel", "Monterrey capacity", r"capacity|utili[sz]ation|monterrey", "6.2", False, None),
    ("Kestrel", "pension", r"pension", "5.2", False, None),
    ("Marlow Peak", "quality of earnings", r"quality of earnings|\bqoe\b", "R1", False, None),
    ("Marlow Peak", "pension buy-out cost", r"buy-?\s?out|annuit", None, False, (r"(?<![\d.])9\.4(?!\d)",)),
    ("Marlow Peak", "ERP", r"\berp\b", None, False, (r"\b2027\b", r"(?<![\d.])1\.6(?!\d)")),
    ("Alder Creek", "quality of earnings", r"quality of earnings|\bqoe\b", "R1", False, None),
    ("Alder Creek", "Rockford environmental", r"environmental|\besa\b|contamination", "4.5", False, None),
    ("Alder Creek", "NWC seasonality", r"working capital|\bnwc\b|seasonal", "2.6", False, None),
]
HOLD_HARMLESS = r"hold[- ]harmless"


def _log_tab(export: dict) -> str | None:
    return A.tab_key(export, A.app_key(export, LOG, "sheet"), LOG_TAB)


def _new_log_rows(ctx) -> dict[int, dict[str, tuple[str, dict]]]:
    """The log's rows below the ones it started with that have anything in them."""
    first = max((r for r, cells in A.rows(ctx.initial, _log_tab(ctx.initial)).items()
                 if any(_text(kc) for kc in cells.values())), default=1)
    return {r: cells for r, cells in A.rows(ctx.final, _log_tab(ctx.final)).items()
            if r > first and any(_text(kc) for kc in cells.values())}


def _asks_logged(ctx) -> tuple[dict[int, tuple], list[str]]:
    """{row: ask} for the new rows, each read as one of its bidder's asks (by the Bidder column's full name
    and the question's topic), and the problems: a row that is no ask of the five, two rows for one ask,
    an ask with no row."""
    full = {v: k for k, v in C.FULL_NAMES.items()}
    rows, problems, seen = {}, [], {}
    for r, cells in sorted(_new_log_rows(ctx).items()):
        b = full.get(_text(cells.get("C")))
        q = _text(cells.get("D"))
        hits = [a for a in ASKS if a[0] == b and re.search(a[2], q, re.I)]
        if b is None:
            problems.append(f"row {r}: {_text(cells.get('C'))!r} is not a shortlisted bidder's full name")
        elif len(hits) != 1:
            problems.append(f"row {r}: {q!r} is not one of {b}'s key asks" if not hits
                            else f"row {r}: {q!r} reads as {len(hits)} asks")
        elif hits[0] in seen:
            problems.append(f"{b} / {hits[0][1]} on rows {seen[hits[0]]} and {r}")
        else:
            seen[hits[0]] = r
            rows[r] = hits[0]
    problems += [f"no row for {a[0]} / {a[1]}" for a in ASKS if a not in seen]
    return rows, problems


def _log_column(ctx, cols: str, problem, label: str, which=lambda ask: True):
    """Run ``problem(ask, row, cells) -> str | None`` on the new rows of the asks ``which`` picks: the verdict
    and the vouches for those rows' ``cols``."""
    rows, problems = _asks_logged(ctx)
    if problems:
        return False, "; ".join(problems), []
    rows = {r: a for r, a in rows.items() if which(a)}
    every = A.rows(ctx.final, _log_tab(ctx.final))
    problems = [f"row {r} ({a[0]} / {a[1]}): {wrong}" for r, a in rows.items() if (wrong := problem(a, r, every[r]))]
    if problems:
        return False, "; ".join(problems), []
    return True, label, A.cell_vouches(ctx, _log_tab(ctx.final), [f"{c}{r}" for r in rows for c in cols])


def _answered(status: str) -> bool:
    return bool(re.search(r"answered", status, re.I)) and not re.search(r"\bnot answered|unanswered", status, re.I)


def _qoe(ask) -> bool:
    return ask[1] == "quality of earnings"


def log_asks(ctx):
    """The log gains one row per key ask of the five (15), numbered on from the last (#15–#29), received
    2026-04-30 (the IOIs' date), bidder by its full name, the question in the bidder's terms; nothing else."""
    rows, problems = _asks_logged(ctx)
    if problems:
        return False, "; ".join(problems), []
    every = A.rows(ctx.final, _log_tab(ctx.final))
    last = max(int(A.number(A.cell_value(c.get("A"))) or 0) for c in A.rows(ctx.initial, _log_tab(ctx.initial)).values())
    nums = sorted(A.number(A.cell_value(every[r].get("A"))) or 0 for r in rows)
    if nums != list(range(last + 1, last + 1 + len(ASKS))):
        problems.append(f"numbered {nums}, not {last + 1}–{last + len(ASKS)}")
    for r in rows:
        ds = {c.value for c in date_cands(normalise(_text(every[r].get("B"))), _state().TODAY)}
        if ds != {_state().received_at(ctx, rows[r][0]).date()}:
            problems.append(f"B{r} {_text(every[r].get('B'))!r}, not the IOI's date")
    if problems:
        return False, "; ".join(problems), []
    return True, "the fifteen asks logged", A.cell_vouches(ctx, _log_tab(ctx.final), [f"{c}{r}" for r in rows for c in "ABCD"])


def log_refs(ctx):
    """Each ask mapped to the folder that answers it: pension 5.2, NWC 2.6, environmental 4.5, concentration
    3.2, capacity 6.2, QoE R1, named contracts R2 (the CFO's five: any reference or none)."""
    def problem(ask, r, cells):
        got = _text(cells.get("E"))
        if ask[3] is None:
            return None
        refs = re.findall(r"(?<![\w.])(?:\d\.\d+|R\d)(?![\w.]*\d)", got, re.I)
        return None if [x.upper() for x in refs] == [ask[3]] else f"{got!r}, not {ask[3]}"
    return _log_column(ctx, "E", problem, "each ask mapped to its folder")


def log_clean_team(ctx):
    """Clean team only? Yes on Kestrel's named contracts and pricing ask alone, No on the rest."""
    def problem(ask, r, cells):
        t = _text(cells.get("H"))
        if ask[4]:
            return None if re.match(r"^(?:yes|y)\b", t, re.I) else f"{t!r}, not Yes"
        return None if re.match(r"^(?:no|n)$", t, re.I) else f"{t!r}, not No"
    return _log_column(ctx, "H", problem, "clean team on Kestrel's pricing ask only")


def log_qoe_answered(ctx):
    """The three QoE asks (Granite Harbor, Marlow Peak, Alder Creek; each holds a hold-harmless letter Ashcombe
    Pell confirmed, Lena's 05-08 status) marked answered, by R1, the answer saying the letter is in place."""
    holders = world_module(HERE, "checks_long").hold_harmless_orgs(ctx)

    def problem(ask, r, cells):
        status, answer = _text(cells.get("F")), _text(cells.get("G"))
        if C.FULL_NAMES[ask[0]] not in holders:
            return f"{ask[0]} has no confirmed hold-harmless letter"
        if not _answered(status):
            return f"status {status!r}"
        if not (re.search(r"\bR1\b", answer) and re.search(HOLD_HARMLESS, answer, re.I)):
            return f"answer {answer!r} doesn't point to R1 with the hold-harmless letter"
        return None
    return _log_column(ctx, "FG", problem, "the three QoE asks answered by R1", _qoe)


def _alison_mails(ctx) -> list[tuple[str, dict]]:
    addr = world_module(HERE, "checks_judgement")._mail_of(ctx, ALISON)
    mails = A.records(ctx.final, "mail_messages")
    return [(k, mails[k]) for k in ctx.by_agent("mail_messages", inserted=True) if k in mails
            and addr in recipients(mails[k])]


def alison_asked(ctx):
    """One mail to Alison Park asks all five questions only she can answer (Navy and ITAR, hydrogen,
    succession, the pension buy-out cost, ERP), and no other mail to her."""
    five = [a for a in ASKS if a[5]]
    mails = _alison_mails(ctx)
    if len(mails) != 1:
        return False, f"{len(mails)} mails to Alison (one, with the five questions)", []
    k, m = mails[0]
    text = f"{m.get('subject') or ''}\n{m.get('body') or ''}"
    missing = [a[1] for a in five if not re.search(a[2], text, re.I)]
    if missing:
        return False, f"the mail doesn't ask about {missing}", []
    outside = sorted(r for r in recipients(m) if not r.endswith("@" + DOMAIN))
    return True, "the five open questions to Alison in one mail", [Vouch.of("mail_messages", k, to=outside)]


def alison_replied(ctx):
    """Alison's answers came back (her trigger fired on the five questions)."""
    return world_module(HERE, "checks_judgement").replied(ctx, ALISON, "Answers to the five")


def log_alison_answers(ctx):
    """Her answers came back (her trigger fired on the five questions) and are logged against the five asks:
    Navy $11.9m and ITAR; hydrogen $4.2m → $12.0m; retention agreements; buy-out $9.4m; ERP 2027 and $1.6m;
    each marked answered."""
    came, why = alison_replied(ctx)
    if not came:
        return False, why, []

    def problem(ask, r, cells):
        status, answer = _text(cells.get("F")), _text(cells.get("G"))
        missing = [p for p in ask[5] if not re.search(p, answer, re.I)]
        if missing:
            return f"answer {answer!r} lacks {missing}"
        return None if _answered(status) else f"status {status!r}"
    return _log_column(ctx, "FG", problem, "Alison's five answers logged", lambda a: bool(a[5]))


def log_rest_filled(ctx):
    """Every new row has an owner, and the seven asks a folder answers a status (the QoE's and the CFO's have
    theirs checked with their answers): a log line a colleague can act on."""
    owners = _log_column(ctx, "I", lambda a, r, cells: None if _text(cells.get("I")) else "no owner", "owners")
    folders = _log_column(ctx, "FG", lambda a, r, cells: None if _text(cells.get("F")) else "no status", "statuses",
                          lambda a: not a[5] and not _qoe(a))
    if not (owners[0] and folders[0]):
        return False, "; ".join(x[1] for x in (owners, folders) if not x[0]), []
    return True, "statuses and owners", owners[2] + folders[2]
