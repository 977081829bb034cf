"""Checks of lumen's office work: the sheets, docs and decks Jordan Blake (RevOps) is asked to build or fix —
the pricing sheet's prepay column and a quote tab, the forecast's gap to quota and commit by owner, a sheet of
Q3 renewals, the Q2 forecast notes, the SDR pricing cheat sheet, the risk register as a doc, the H2 price
changes, the remediation plan's owners, the Harrowgate exec review deck and the pipeline review deck.

Every expected value is computed from the instance's own state (the store's export at the start,
``ctx.initial``: the CRM, the service desk, the calendar, the sheets) or from its rendered files
(``ctx.world_root``), never typed here; each check vouches for exactly the cells, blocks and slides it
examined and wanted changed (``harness.verify.artifacts``), so the guard sees any other edit.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from apps.sheets.formula.a1 import col_index, col_letter
from harness.verify import artifacts as A, world_time
from harness.verify.answer import date_cands, normalise, number_cands, states, states_by_label
from harness.verify.reading import HEDGE_WORDS, clause, negated
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

HERE = Path(__file__).parent
PRICING = "Lumen Pricing 2026"
PRICING_H2 = "Lumen Pricing H2 2026 (proposal)"
FORECAST = "Q2 FY26 Forecast"
CHEAT_SHEET = "SDR pricing cheat sheet"
REMEDIATION = "Harrowgate – Remediation plan (June 2026)"
EXEC_REVIEW = "Harrowgate – Exec Review (June 2026)"
PIPELINE_REVIEW = "Q2 FY26 Pipeline Review"
Q2 = ("2026-04-01", "2026-06-30")
Q3 = ("2026-07-01", "2026-09-30")
OPEN_STAGES = ("Prospecting", "Qualification", "Discovery", "Proposal", "Negotiation")
BULLET = re.compile(r"^\s*(?:[-•*]|\d+[.)])\s+")
TOLERANCE = 5000          # figures as people round them: "$1.72M" for $1,721,000


def _base():
    return world_module(HERE, "checks")


# ---------------------------------------------------------------------------- helpers
def _recs(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def _tab(export: dict, book: str, tab: str) -> str | None:
    return A.tab_key(export, A.app_key(export, book, "sheet"), tab)


REF = re.compile(r"(?<![\w.$'])(?:('[^']+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?(?![\w(])")


def _strip_strings(formula: str) -> str:
    return re.sub(r'"[^"]*"', '""', formula)


def ref_cells(formula: str) -> set[tuple[str, str, int]]:
    """Every cell a formula refers to, ranges expanded: {(tab lower-cased or "", column, row)}."""
    out = set()
    for m in REF.finditer(_strip_strings(formula)):
        prefix = (m.group(1) or "").strip("'").lower()
        c1, r1 = m.group(2), int(m.group(3))
        c2, r2 = (m.group(4), int(m.group(5))) if m.group(4) else (c1, r1)
        for c in range(min(col_index(c1), col_index(c2)), max(col_index(c1), col_index(c2)) + 1):
            for r in range(min(r1, r2), max(r1, r2) + 1):
                out.add((prefix, col_letter(c), r))
    return out


def literals(formula: str) -> list[float]:
    """The numbers typed into a formula (not cell references, not inside strings)."""
    f = REF.sub(" ", _strip_strings(formula))
    return [float(x) for x in re.findall(r"(?<![A-Za-z_\d.])\d+(?:\.\d+)?", f)]


def _people(export: dict) -> dict[str, str]:
    return {p["slug"]: p["name"] for p in _recs(export, "people").values()}


def _opps(export: dict) -> list[dict]:
    return list(_recs(export, "crm_opportunities").values())


def _account_names(export: dict) -> dict[str, str]:
    return {str(k): a["name"] for k, a in _recs(export, "crm_accounts").items()}


def _q2_sum(export: dict, stages) -> int:
    return sum(int(o["amount"] or 0) for o in _opps(export)
               if o["stage"] in stages and Q2[0] <= str(o["close_date"] or "") <= Q2[1])


def q2_figures(ctx) -> dict[str, int]:
    """Closed won to date, commit (+ Negotiation) and best case (+ Proposal) from the CRM at the start."""
    won = _q2_sum(ctx.initial, ("Closed Won",))
    commit = won + _q2_sum(ctx.initial, ("Negotiation",))
    return {"closed won": won, "commit": commit, "best case": commit + _q2_sum(ctx.initial, ("Proposal",))}


def q3_renewals(ctx) -> list[dict]:
    """Open Renewal opportunities closing 1 July – 30 September 2026, earliest first (CRM at the start)."""
    names = _account_names(ctx.initial)
    out = [dict(o, account_name=names.get(str(o["account"]), "")) for o in _opps(ctx.initial)
           if o["type"] == "Renewal" and o["stage"] in OPEN_STAGES and Q3[0] <= str(o["close_date"] or "") <= Q3[1]]
    return sorted(out, key=lambda o: (str(o["close_date"]), o["name"]))


def _new_items(ctx, kind: str) -> dict[str, dict]:
    return {k: it for k, it in ctx.records("drive_items", which="new").items()
            if it["kind"] == kind and not it.get("trashed")}


def _title_key(name: str) -> str:
    return re.sub(r"[\s\-–—_]+", " ", (name or "").casefold()).strip()


def _folder(ctx, owner: str, name: str) -> str | None:
    return next((k for k, it in _recs(ctx.final, "drive_items").items()
                 if it["kind"] == "folder" and it["name"] == name and it["owner"] == owner), None)


def _app_of(ctx, item_key: str, kind: str) -> str | None:
    return next((k for k, r in _recs(ctx.final, A.APP_TABLE[kind]).items() if str(r["item"]) == str(item_key)), None)


def _new_named(ctx, kind: str, title: str, folder: str | None):
    """(found, problems): the new, untrashed Drive items of ``kind`` named ``title`` (dashes, case and spaces
    aside) in ``folder``; what is wrong with the others."""
    found, problems = [], []
    for k, it in _new_items(ctx, kind).items():
        if _title_key(it["name"]) != _title_key(title):
            problems.append(f"a new {kind} named {it['name']!r}")
        elif folder is not None and str(it.get("parent")) != str(folder):
            problems.append(f"“{it['name']}” is not in the folder asked for")
        else:
            found.append(k)
    return found, problems


def _text(s) -> str:
    return normalise(str(s or ""))


def _stated(text: str, value, **kw) -> bool:
    return states(text, "number", value, **kw)[0]


# ============================================================================ SHEETS
# ---------------------------------------------------------------------------- pricing: annual prepay column
def pricing_prepay_column(ctx):
    """Platform tiers, column G: headed as the prepay price, and for each tier a formula on its own list price
    (D) taking 10% off — no price typed —, formatted as currency like the list prices."""
    tab = _tab(ctx.final, PRICING, "Platform tiers")
    start = A.rows(ctx.initial, _tab(ctx.initial, PRICING, "Platform tiers"))
    rows = A.rows(ctx.final, tab)
    tiers = [r for r, c in start.items() if r > 1 and A.number(A.cell_value(c.get("D"))) is not None]
    problems = []
    head = str(A.cell_value(rows.get(1, {}).get("G")) or "")
    if not re.search(r"(?i)prepay", head) or any(float(p) != 10 for p in re.findall(r"(\d+(?:\.\d+)?)\s*%", head)):
        problems.append(f"G1 is {head!r}, not the prepay header (10% off)")
    inputs = [("Platform tiers", f"D{r}") for r in tiers]
    for r in tiers:
        kc = rows.get(r, {}).get("G")
        f, v = A.cell_input(kc), A.number(A.cell_value(kc))
        lst = A.number(A.cell_value(rows[r].get("D")))
        refs = ref_cells(f)
        bad_literal = [x for x in literals(f) if x >= 100]
        if not f.startswith("=") or refs != {("", "D", r)} or bad_literal or v is None or lst is None \
                or abs(v - lst * 0.9) > 0.005 or A.cell_format(kc).get("type") != "currency":
            problems.append(f"G{r} {f!r} = {A.cell_value(kc)} {A.cell_format(kc).get('type')} (want 90% of D{r}, as currency)")
            continue
        # "=D2*0+16.2*10*10*10" names D2 and types the price: the cell must follow D{r} (and no other tier's
        # price) when the list prices move; rounding to the dollar is allowed.
        wrong = A.follows(ctx.final, PRICING, ("Platform tiers", f"G{r}"),
                          lambda vals, r=r: 0.9 * vals[("Platform tiers", f"D{r}")], inputs, tolerance=0.51)
        if wrong:
            problems.append(f"G{r} {f!r} doesn't follow its list price ({wrong})")
    if problems:
        return False, "; ".join(problems[:4])
    return True, f"G2:G{max(tiers)} take 10% off the list prices", A.cell_vouches(ctx, tab, ["G1"] + [f"G{r}" for r in tiers])


# ---------------------------------------------------------------------------- pricing: a quote tab
QUOTE_TIER, QUOTE_SEATS, QUOTE_OFF = "Growth", 25, 0.10


def quote_price(ctx) -> float:
    """Growth with 25 seats (the included ones plus extra seats at the tier's seat price), 10% off for prepay."""
    rows = A.rows(ctx.initial, _tab(ctx.initial, PRICING, "Platform tiers"))
    r = next(r for r, c in rows.items() if A.cell_value(c.get("A")) == QUOTE_TIER)
    lst, seats, seat = (A.number(A.cell_value(rows[r].get(c))) for c in "DCE")
    return (lst + max(0, QUOTE_SEATS - seats) * seat) * (1 - QUOTE_OFF)


QUOTE_TOTAL = re.compile(r"(?i)\btotal\b|\bto quote\b|\bquoted?\s+(?:price|total|amount)\b|\bnet\s+(?:price|total|amount)\b"
                         r"|\bprepay\s+price\b|\bfinal\s+(?:price|amount)\b|\bamount\s+due\b")
NOT_TOTAL = re.compile(r"(?i)\bbefore\b|\bpre-?discount|\bundiscounted\b|\bgross\b|\bsub-?\s?total\b|\bexcl|\bwithout\b"
                       r"|\blist\b|\bseats?\b|\busers?\b|\btables\b|\bmonths?\b|\bdiscount\b")
DATE_INPUT = re.compile(r"^\s*(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4})\s*$")


def _quote_labels(cells: dict) -> dict[tuple[int, int], str]:
    """(row, col) → the label of each number of a tab: the nearest text to its left, else the nearest above."""
    grid = {(int(kc[1]["row"]), int(kc[1]["col"])): kc for kc in cells.values()}

    def text(rc):
        kc = grid.get(rc)
        v = A.cell_value(kc) if kc else None
        return str(v) if isinstance(v, str) and v.strip() and A.number(v) is None else None
    out = {}
    for (r, c), kc in grid.items():
        if A.number(A.cell_value(kc)) is None:
            continue
        left = next((text((r, x)) for x in range(c - 1, 0, -1) if text((r, x))), None)
        out[(r, c)] = left or next((text((y, c)) for y in range(r - 1, 0, -1) if text((y, c))), "") or ""
    return out


def quillfield_quote_tab(ctx):
    """A new tab of the pricing sheet named for Quillfield. The figure labelled as the total to quote (every
    one so labelled) is a formula that comes to the prepay price of 25 Growth seats and follows Growth's list
    price, included seats and extra-seat price on Platform tiers (and the 25 seats where they are typed in a
    cell) when those move — and no other tier's figures (``harness.verify.artifacts.follows``), so a total
    typed in pieces or with the included seats typed fails however it names the Platform tiers cells. No
    cell of the tab moves with another tier's figures (a list price pulled from Business); no price typed
    (a date is not a price). The other tabs untouched."""
    book = A.app_key(ctx.final, PRICING, "sheet")
    before = {k for k in _recs(ctx.initial, "sheets_tabs")}
    tabs = {k: t for k, t in _recs(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book) and k not in before}
    want = quote_price(ctx)
    start = A.rows(ctx.initial, _tab(ctx.initial, PRICING, "Platform tiers"))
    growth = next(r for r, c in start.items() if A.cell_value(c.get("A")) == QUOTE_TIER)
    tier_cells = [(f"{col}{r}", r) for r, c in start.items() if r > 1 for col in "BCDE"
                  if A.number(A.cell_value(c.get(col))) is not None]
    PT = "Platform tiers"
    seen = []
    for key, t in tabs.items():
        if "quillfield" not in t["name"].casefold():
            seen.append(f"a new tab {t['name']!r}")
            continue
        cells = A.cells(ctx.final, key)
        formulas = {a1: A.cell_input(kc) for a1, kc in cells.items() if A.cell_input(kc).startswith("=")}
        problems = []
        typed = [a1 for a1, kc in cells.items() if not A.cell_input(kc).startswith("=")
                 and (A.number(A.cell_value(kc)) or 0) >= 100 and A.number(A.cell_value(kc)) != QUOTE_SEATS
                 and not DATE_INPUT.match(A.cell_input(kc)) and A.cell_format(kc).get("type") not in ("date", "datetime")]
        typed += [a1 for a1, f in formulas.items()
                  if any(x >= 100 and x != QUOTE_SEATS for x in literals(re.sub(r"(?i)\bDATE\([^()]*\)", "0", f)))]
        if typed:
            problems.append(f"prices typed instead of referred to: {sorted(typed)[:3]}")
        labels = _quote_labels(cells)
        by_rc = {(int(kc[1]["row"]), int(kc[1]["col"])): a1 for a1, kc in cells.items()}
        totals = [by_rc[rc] for rc, lab in labels.items() if QUOTE_TOTAL.search(lab) and not NOT_TOTAL.search(lab)]
        if not totals:          # no label read as the total: the formulas that come to it
            totals = [a1 for a1 in formulas
                      if A.number(A.cell_value(cells[a1])) is not None and abs(A.number(A.cell_value(cells[a1])) - want) < 0.005]
        if not totals:
            problems.append(f"no total to quote ({want:,.0f})")
        wrong_totals = [f"{a1} ({labels.get((int(cells[a1][1]['row']), int(cells[a1][1]['col'])), '')!r}) = "
                        f"{A.cell_value(cells[a1])}" for a1 in totals
                        if abs((A.number(A.cell_value(cells[a1])) or 0) - want) >= 0.005]
        if wrong_totals:
            problems.append(f"the total to quote is {wrong_totals[:2]}, not {want:,.0f}")
        if problems:
            seen.append(f"{t['name']!r}: " + "; ".join(problems))
            continue
        wb = A.workbook(ctx.final, PRICING)
        # the seats typed in a cell of the tab (the total moves with it), else typed in the formula
        from apps.sheets.formula.a1 import parse_ref
        tr, tc = parse_ref(totals[0])
        base_total = A.number(wb.value(t["name"], tr, tc))
        seat_cells = []
        for a1, kc in cells.items():
            if not A.cell_input(kc).startswith("=") and A.number(A.cell_value(kc)) == QUOTE_SEATS:
                r, c = parse_ref(a1)
                wb.set(t["name"], r, c, "30")
                moved = A.number(wb.value(t["name"], tr, tc))
                wb.set(t["name"], r, c, A.cell_input(kc))
                if moved != base_total:
                    seat_cells.append(a1)
        inputs = [(PT, a1) for a1, _ in tier_cells] + [(t["name"], a1) for a1 in seat_cells]

        def expect(v, _seats=seat_cells, _t=t["name"]):
            seats = next((v[(_t, a1)] for a1 in _seats if v[(_t, a1)] != QUOTE_SEATS), QUOTE_SEATS)
            lst, inc, seat = (v[(PT, f"{col}{growth}")] for col in "DCE")
            return (lst + max(0, seats - inc) * seat) * (1 - QUOTE_OFF)
        for a1 in totals:
            if a1 not in formulas:
                problems.append(f"the total {a1} is typed, not a formula")
                continue
            wrong = A.follows(ctx.final, PRICING, (t["name"], a1), expect, inputs)
            if wrong:
                problems.append(f"the total {a1} {formulas[a1]!r} doesn't follow Growth's prices and seats ({wrong})")
        # no figure of the tab pulled from another tier
        base = {rc: A.number(v) for rc, v in wb.values(t["name"]).items()}
        for a1, r in tier_cells:
            if r == growth or problems:
                continue
            rr, cc = parse_ref(a1)
            raw, v = wb.raw(PT, rr, cc), A.number(wb.value(PT, rr, cc))
            wb.set(PT, rr, cc, repr(v * 1.1 + 0.5))
            moved = [rc for rc, x in wb.values(t["name"]).items() if A.number(x) != base.get(rc)]
            wb.set(PT, rr, cc, raw)
            if moved:
                from apps.sheets.formula.a1 import ref_name
                problems.append(f"{', '.join(ref_name(*rc) for rc in sorted(moved)[:3])} move with {PT}!{a1} "
                                f"(the {A.cell_value(start[r].get('A'))} tier, not Growth)")
        if problems:
            seen.append(f"{t['name']!r}: " + "; ".join(problems[:4]))
            continue
        return True, f"tab {t['name']!r} prices the quote at {want:,.0f}", \
            [Vouch.of("sheets_tabs", key)] + [Vouch.of("sheets_cells", kc[0]) for kc in cells.values()]
    return False, "; ".join(seen) or "no new tab for Quillfield in the pricing sheet"


# ---------------------------------------------------------------------------- forecast: gap to quota
def _summary_row(rows: dict, label: str) -> int | None:
    return next((r for r, c in rows.items() if str(A.cell_value(c.get("A")) or "").casefold().startswith(label)), None)


def forecast_gap_to_quota(ctx):
    """Summary, the row under Attainment to date: labelled as the gap to quota, and in C a formula on the
    Summary's quota and commit cells (no figure typed) giving quota − commit, as currency."""
    tab = _tab(ctx.final, FORECAST, "Summary")
    rows = A.rows(ctx.final, tab)
    start = A.rows(ctx.initial, _tab(ctx.initial, FORECAST, "Summary"))
    att = _summary_row(start, "attainment")
    quota_r = _summary_row(start, "q2 quota")
    r = att + 1
    cells = rows.get(r, {})
    label, kc = str(A.cell_value(cells.get("A")) or ""), cells.get("C")
    f, v = A.cell_input(kc), A.number(A.cell_value(kc))
    quota = A.number(A.cell_value(start[quota_r].get("C")))
    want = quota - q2_figures(ctx)["commit"]
    problems = []
    if not re.search(r"(?i)\bgap\b|short(?:fall)?\b|to go\b|remaining", label):
        problems.append(f"A{r} is {label!r}, not labelled as the gap to quota")
    refs = ref_cells(f)
    if not f.startswith("=") or not refs & {("", "C", quota_r), ("summary", "C", quota_r)} \
            or any(p not in ("", "summary") for p, _, _ in refs) or any(x >= 100 for x in literals(f)):
        problems.append(f"C{r} {f!r} is not a formula on the Summary's quota (C{quota_r}) and commit cells")
    floored = want < 0 and v is not None and abs(v) <= 0.005         # =MAX(0, …) when commit passes quota
    if v is None or (abs(v - want) > 0.005 and not floored):
        problems.append(f"C{r} gives {A.cell_value(kc)} (quota − commit is {want:,.0f})")
    elif not problems:
        # "=C11/C11*95*10*10*10" names the quota and types the gap: C{r} must follow the quota and commit
        # (its closed won and Negotiation cells) when they move.
        won_r, neg_r = (_summary_row(start, s) for s in ("closed won", "negotiation"))
        ins = [("Summary", f"C{x}") for x in (quota_r, won_r, neg_r)]
        gap = lambda v: v[ins[0]] - v[ins[1]] - v[ins[2]]          # noqa: E731
        wrong = A.follows(ctx.final, FORECAST, ("Summary", f"C{r}"), gap, ins)
        if wrong and A.follows(ctx.final, FORECAST, ("Summary", f"C{r}"), lambda v: max(0, gap(v)), ins) is None:
            wrong = None                                             # =MAX(0, C11-C13): no negative gap
        if wrong:
            problems.append(f"C{r} {f!r} doesn't follow the quota and commit ({wrong})")
    if A.cell_format(kc).get("type") != "currency":
        problems.append(f"C{r} is not formatted as currency")
    others = [f"{c}{r}" for c, x in cells.items() if c not in ("A", "C") and A.cell_input(x)]
    if others:
        problems.append(f"other cells of the row filled: {others}")
    if problems:
        return False, "; ".join(problems)
    return True, f"row {r}: gap {want:,.0f}", A.cell_vouches(ctx, tab, [f"A{r}", f"C{r}"])


# ---------------------------------------------------------------------------- forecast: commit by owner
def forecast_commit_by_owner(ctx):
    """By owner, column G headed Commit: each owner's row =B+C (closed won + Negotiation) by formula, the
    Total row too (a SUM of the owners or B+C of the totals), as currency."""
    tab = _tab(ctx.final, FORECAST, "By owner")
    start = A.rows(ctx.initial, _tab(ctx.initial, FORECAST, "By owner"))
    rows = A.rows(ctx.final, tab)
    owners = [r for r, c in start.items() if r > 1 and str(A.cell_value(c.get("A")) or "").casefold() != "total" and A.cell_value(c.get("A"))]
    total = next(r for r, c in start.items() if str(A.cell_value(c.get("A")) or "").casefold() == "total")
    problems = []
    if str(A.cell_value(rows.get(1, {}).get("G")) or "").strip().casefold() != "commit":
        problems.append(f"G1 is {A.cell_value(rows.get(1, {}).get('G'))!r}, not Commit")
    for r in owners + [total]:
        kc = rows.get(r, {}).get("G")
        f, v = A.cell_input(kc), A.number(A.cell_value(kc))
        want = (A.number(A.cell_value(rows[r].get("B"))) or 0) + (A.number(A.cell_value(rows[r].get("C"))) or 0)
        refs = ref_cells(f)
        ok_refs = refs == {("", "B", r), ("", "C", r)} or (r == total and refs == {("", "G", x) for x in owners})
        if not f.startswith("=") or not ok_refs or literals(f) or v is None or abs(v - want) > 0.005 \
                or A.cell_format(kc).get("type") != "currency":
            problems.append(f"G{r} {f!r} = {A.cell_value(kc)} {A.cell_format(kc).get('type')} (want B{r}+C{r} = {want:,.0f}, as currency)")
        elif r == total:     # =SUM(G2:G5) or =G2+G3+G4+G5: it must add the owners up, whatever the function
            ins = [("By owner", f"{c}{x}") for x in owners for c in "BC"]
            wrong = A.follows(ctx.final, FORECAST, ("By owner", f"G{r}"), lambda v: sum(v.values()), ins)
            if wrong:
                problems.append(f"G{r} {f!r} doesn't add up the owners' commit ({wrong})")
    if problems:
        return False, "; ".join(problems[:4])
    return True, "Commit column G by formula", A.cell_vouches(ctx, tab, ["G1"] + [f"G{r}" for r in owners + [total]])


# ---------------------------------------------------------------------------- a new sheet of Q3 renewals
def _day_of(kc) -> str | None:
    if kc is None:
        return None
    v = A.cell_value(kc)
    if isinstance(v, str):
        cands = date_cands(v, date(2026, 6, 9))
        return cands[0].value.isoformat() if len(cands) == 1 else None
    n = A.number(v)
    if n is not None and 40000 < n < 60000:
        from datetime import timedelta
        return (date(1899, 12, 30) + timedelta(days=int(n))).isoformat()
    return None


def _not_q3_renewals(ctx, want: list[dict]) -> list[tuple[str, re.Pattern]]:
    """(name, pattern) of every opportunity that is not an open Q3 renewal and of every account without one —
    an account by its name or the first two words of a longer one ("Riverbend Health"), case and dashes aside."""
    mine = {o["slug"] for o in want}
    mine_accounts = {o["account_name"] for o in want}
    forms = [(o["name"], o["name"]) for o in _opps(ctx.initial) if o["slug"] not in mine]
    for a in set(_account_names(ctx.initial).values()) - mine_accounts:
        forms.append((a, a))
        words = a.split()
        if len(words) >= 3:
            forms.append((a, " ".join(words[:2])))
    taken = {_title_key(f) for a in mine_accounts for f in (a, " ".join(a.split()[:2]))}
    return [(name, re.compile(rf"(?<!\w){re.escape(_title_key(f))}(?!\w)")) for name, f in forms if _title_key(f) not in taken]


def _names_other(cells: dict, others) -> str | None:
    """The other deal or account a row's cells name (a cell that sets it aside — "not", "excluded" — aside)."""
    for kc in cells.values():
        text = _title_key(str(A.cell_value(kc) or ""))
        if not text or re.search(r"\b(?:not|excluded|excluding|except|without)\b", text):
            continue
        hit = next((name for name, rx in others if rx.search(text)), None)
        if hit:
            return hit
    return None


def q3_renewals_sheet(ctx):
    """A new spreadsheet “Q3 FY26 Renewals” in Jordan's RevOps folder: one row per open renewal closing in
    Q3 (its account, amount and close date), earliest close date first, and a SUM formula over the amounts
    of every row giving their total; no other deal."""
    folder = _folder(ctx, "jordan.blake", "RevOps")
    found, seen = _new_named(ctx, "sheet", "Q3 FY26 Renewals", folder)
    want = q3_renewals(ctx)
    total = sum(int(o["amount"]) for o in want)
    others = _not_q3_renewals(ctx, want)
    for key in found:
        book = _app_of(ctx, key, "sheet")
        tabs = [k for k, t in _recs(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)]
        problems = []
        for tab in tabs:
            rows = A.rows(ctx.final, tab)
            order, amount_cols, bad = [], set(), []
            for o in want:
                hit = [r for r, c in rows.items()
                       if any(str(A.cell_value(kc) or "").strip().casefold() in (o["account_name"].casefold(), o["name"].casefold())
                              for kc in c.values())]
                if len(hit) != 1:
                    bad.append(f"{len(hit)} rows for {o['account_name']}")
                    continue
                r = hit[0]
                amt = [c for c, kc in rows[r].items() if A.number(A.cell_value(kc)) == float(o["amount"])]
                day = [c for c, kc in rows[r].items() if _day_of(kc) == str(o["close_date"])]
                if not amt or not day:
                    bad.append(f"row {r} ({o['account_name']}) lacks its amount {o['amount']:,} or close date {o['close_date']}")
                    continue
                amount_cols.update(amt)
                order.append(r)
            if bad:
                problems += bad[:3]
                continue
            days = [str(o["close_date"]) for _, o in sorted(zip(order, want), key=lambda x: x[0])]
            if days != sorted(days):
                problems.append("the renewals are not in order of close date")
            stray = [f"{r} ({hit})" for r, c in rows.items() if r not in order
                     for hit in [_names_other(c, others)] if hit]
            if stray:
                problems.append(f"rows {stray[:3]} list other deals")
            sums = []
            for a1, kc in A.cells(ctx.final, tab).items():
                f = A.cell_input(kc).replace(" ", "").upper()
                if f.startswith("=SUM(") and A.number(A.cell_value(kc)) is not None and abs(A.number(A.cell_value(kc)) - total) < 0.005:
                    col = re.match(r"[A-Z]+", a1).group(0)
                    cov = {r for p, c, r in ref_cells(f) if c == col}
                    if col in amount_cols and set(order) <= cov and int(a1[len(col):]) not in cov:
                        sums.append(a1)
            if len(sums) != 1:
                problems.append(f"{len(sums)} SUM formulas over every amount giving {total:,} (want one)")
            if problems:
                continue
            return True, f"{len(order)} renewals, total {total:,} in {sums[0]}", \
                {"drive_items": [key], "sheets_books": [book]}
        seen.append("; ".join(problems[:4]) or "no tab")
    return False, "; ".join(seen) or "no new spreadsheet “Q3 FY26 Renewals” in RevOps"


# ============================================================================ DOCS
def _doc_text(ctx, doc) -> tuple[list[tuple[str, dict]], str]:
    bs = [(k, b) for k, b in A.blocks(ctx.final, doc) if (b["text"] or "").strip()]
    return bs, "\n".join(b["text"] for _, b in bs)


def _revops_doc(ctx, title: str, problems_of, passed: str):
    """A new doc ``title`` in Jordan's RevOps folder that starts with a heading and in which
    ``problems_of(blocks, text)`` finds nothing wrong."""
    found, seen = _new_named(ctx, "doc", title, _folder(ctx, "jordan.blake", "RevOps"))
    for key in found:
        doc = _app_of(ctx, key, "doc")
        bs, text = _doc_text(ctx, doc)
        problems = [] if bs and bs[0][1]["type"] in ("heading", "title") else ["it doesn't start with a heading"]
        problems += problems_of(bs, text)
        if not problems:
            return True, passed, {"drive_items": [key], "docs_documents": [doc]}
        seen.append("; ".join(problems[:4]))
    return False, "; ".join(seen) or f"no new doc “{title}” in RevOps"


def _segments(text: str, mentions: dict[str, str]) -> list[tuple[str, str]]:
    """(key, its stretch of the text): each mention of a key (``mentions``: key → regex) runs from there to the
    next mention of another key or the end of its sentence."""
    out = []
    for sent in re.split(r"(?<!\d)[.;!?](?!\d)|\n", text):
        hits = sorted((m.start(), k) for k, rx in mentions.items() for m in re.finditer(rx, sent, re.I))
        for i, (pos, k) in enumerate(hits):
            end = next((p for p, k2 in hits[i + 1:] if k2 != k), len(sent))
            out.append((k, sent[pos:end]))
    return out


def _money(text: str) -> list[float]:
    """The money figures of a stretch of text (≥ 1,000; not set aside)."""
    text = normalise(text)
    return [c.value for c in number_cands(text, words=False) if c.value >= 1000 and not negated(text, c)]


# ---------------------------------------------------------------------------- Q2 forecast notes
FIGURE_LABELS = {
    "closed won": r"\bwon\b(?!\s*\+)|\bbookings\b",
    "commit": r"\bcommit(?:ted)?\b(?!\s*\+)",
    "best case": r"best[- ]case",
}


def _plain(text: str) -> str:
    return re.sub(r"(?i)\bclosed[- ]won\b", "won", normalise(text))


def _label_conflicts(plain: str, figures: dict[str, int]) -> list[str]:
    """Every other place the doc gives a figure against one of the labels — the first figure after the label
    in its clause, or one right before it ("$3.9M in bookings") — must be that label's figure too (a figure
    set aside, "not $X", aside): states_by_label is content with one right mention."""
    cands = [c for c in number_cands(plain, words=False) if c.value >= 1000 and not negated(plain, c)]
    marks = sorted((m.start(), m.end(), k) for k in figures for m in re.finditer(FIGURE_LABELS[k], plain, re.I))
    out = []
    for s0, e0, k in marks:
        cs, ce = clause(plain, s0)
        nxt = min([s2 for s2, _, _ in marks if s2 > e0] + [ce])
        after = [c for c in cands if e0 <= c.start < nxt]
        before = [c for c in cands if cs <= c.start and c.end <= s0
                  and re.fullmatch(r"\s*(?:\S+\s+){0,2}", plain[c.end:s0]) and not re.search(r"[.;:\n]", plain[c.end:s0])]
        pick = after[0] if after else (before[-1] if before else None)
        if pick is not None and abs(pick.value - figures[k]) > TOLERANCE:
            out.append(f"{k} given as {plain[pick.start:pick.end]!r} in {plain[max(cs, s0 - 40):min(ce, e0 + 40)]!r} "
                       f"(the CRM has {figures[k]:,})")
    return out


def q2_forecast_notes_doc(ctx):
    """A new doc “Q2 forecast notes” in Jordan's RevOps folder with a heading, stating closed won to date,
    commit and best case (the CRM's Q2, to the nearest $10K), each against its own label, and saying
    Harrowgate's renewal is at risk."""
    figures = q2_figures(ctx)

    def problems_of(bs, text):
        problems = []
        plain = _plain(text)
        for label, rx in FIGURE_LABELS.items():
            if not re.search(rx, plain, re.I):
                problems.append(f"no {label}")
        ok, why = states_by_label(plain, {k: (FIGURE_LABELS[k], v) for k, v in figures.items()}, tolerance=TOLERANCE)
        if not ok:
            problems.append(why)
        problems += _label_conflicts(plain, figures)
        hg = [b["text"] for _, b in bs if re.search(r"(?i)harrowgate", b["text"])]
        if not any(_base().flags_at_risk(t)[0] for t in hg):
            problems.append("Harrowgate's renewal is not flagged at risk")
        return problems
    return _revops_doc(ctx, "Q2 forecast notes", problems_of,
                       "closed won, commit and best case stated; Harrowgate at risk")


# ---------------------------------------------------------------------------- SDR cheat sheet vs the price list
TIERS = ("Starter", "Growth", "Business", "Enterprise Plus", "Enterprise")


def _tier_of(text: str) -> str | None:
    m = re.match(r"\s*(Enterprise Plus|Enterprise|Business|Growth|Starter)\b", text or "")
    return m.group(1) if m else None


def list_prices(export: dict, book: str = PRICING) -> dict[str, float]:
    rows = A.rows(export, _tab(export, book, "Platform tiers"))
    return {str(A.cell_value(c.get("A"))): A.number(A.cell_value(c.get("D"))) for r, c in rows.items() if r > 1 and A.cell_value(c.get("A"))}


def _last_figure(text: str) -> str:
    """What follows the tier's last comma (the price)."""
    return text.rsplit(", ", 1)[-1]


# what may stand where a tier line's price was: a price alone ("$96,000", "$96K", "USD 96,000", "$96,000 a year"
# — a figure set aside after it, "(not $105,600)", is the same correction, not a note added to the line)
PRICE_ONLY = re.compile(r"(?i)(?:USD\s?|US)?\$?\s?\d[\d,]*(?:\.\d+)?\s?(?:k|K|thousand)?(?:\s*(?:a|per|/)\s*(?:year|yr))?"
                        r"(?:\s*\((?:not|rather than|instead of)\s+(?:USD\s?|US)?\$?\s?\d[\d,.]*\s?(?:k|K|thousand)?\))?\.?")


def cheat_sheet_fixed(ctx):
    """Every tier line of the SDR cheat sheet gives the pricing sheet's list price; the lines that were wrong
    were changed in their price alone (the rest of each line as it was, and nothing added after the price:
    "$96,000 (corrected from $86,000 …)" changes more than the figure)."""
    doc = A.app_key(ctx.final, CHEAT_SHEET, "doc")
    prices = list_prices(ctx.initial)
    start = {k: b for k, b in A.blocks(ctx.initial, A.app_key(ctx.initial, CHEAT_SHEET, "doc"))}
    end = dict(A.blocks(ctx.final, doc))
    problems, fixed = [], []
    for k, b in start.items():
        tier = _tier_of(b["text"]) if b["type"] == "bullet" else None
        if tier is None:
            continue
        now = end.get(k)
        if now is None:
            problems.append(f"the {tier} line is gone")
            continue
        head = b["text"].rsplit(", ", 1)[0]
        was_right = _stated(_last_figure(b["text"]), prices[tier])
        tail = now["text"][len(head) + 2:] if now["text"].startswith(head + ", ") else ""
        if not PRICE_ONLY.fullmatch(tail.strip()) or not _stated(tail, prices[tier]):
            problems.append(f"{tier}: {now['text']!r} (the price list has {prices[tier]:,.0f})")
        elif not was_right:
            fixed.append(k)
    if problems:
        return False, "; ".join(problems)
    if not fixed:
        return False, "no line was corrected"
    return True, f"{len(fixed)} price(s) corrected", A.block_vouches(ctx, fixed)


# ---------------------------------------------------------------------------- the risk register as a doc
def risk_register(ctx) -> list[dict]:
    """The rows of Farah's register (its rendered Markdown table): account, renewal, ARR, CSM, risk."""
    text = (Path(ctx.world_root) / "drive/farah.aziz/Customer Success/Renewal risk register – Q2.md").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.match(r"\d{4}-\d{2}-\d{2}", cells[1]):
            out.append({"account": cells[0], "renewal": date.fromisoformat(cells[1]),
                        "arr": int(re.sub(r"[^\d]", "", cells[2])), "csm": cells[3],
                        "risk": re.match(r"\w+", cells[4]).group(0)})
    return out


RISK_WORDS = re.compile(r"(?i)\b(high|medium|low)\b")


def _risk_levels(text: str) -> set[str]:
    """The risk levels a text gives, a former one aside ("High (raised from Medium on June 8)")."""
    return {m.group(1).casefold() for m in RISK_WORDS.finditer(text)
            if not re.search(r"(?i)\b(?:from|was|were|previously|formerly|not)\s+(?:\w+\s+)?$", text[:m.start()])}


def risk_register_doc(ctx):
    """A new doc “Renewal risk register – Q2” in Jordan's RevOps folder: a heading, then one list item per
    account of the register, in its order, each with its renewal date, ARR, CSM and risk level."""
    reg = risk_register(ctx)

    def problems_of(bs, _text):
        problems = []
        items = [b for _, b in bs if b["type"] in ("bullet", "numbered")]
        if len(items) != len(reg):
            problems.append(f"{len(items)} list items (the register has {len(reg)} accounts)")
        for row, b in zip(reg, items):
            t = b["text"]
            bad = []
            if row["account"].casefold() not in t.casefold():
                bad.append("account")
            if not states_by_label(t, {"ARR": (r"\bARR\b", row["arr"])})[0] or not re.search(r"\bARR\b", t):
                bad.append(f"ARR {row['arr']:,}")
            if not states(re.sub(r"\$[\d,]+", " ", t), "date", row["renewal"])[0]:
                bad.append(f"renewal {row['renewal']}")
            if row["csm"].casefold() not in t.casefold():
                bad.append(f"CSM {row['csm']}")
            levels = {m.group(1).casefold() for m in RISK_WORDS.finditer(t)}
            if levels != {row["risk"].casefold()}:
                bad.append(f"risk {row['risk']} (found {sorted(levels)})")
            if bad:
                problems.append(f"{t[:50]!r}: " + ", ".join(bad))
        # the rest of the doc (a summary paragraph, a heading) may not give a listed account another risk
        # level or ARR than its item does
        rows = {row["account"]: row for row in reg}
        forms = {a: "|".join(rf"\b{re.escape(f)}\b" for f in dict.fromkeys([a, a.split()[0]])) for a in rows}
        rest = "\n".join(b["text"] for _, b in bs if b["type"] not in ("bullet", "numbered"))
        for acct, seg in _segments(rest, forms):
            row = rows[acct]
            levels = _risk_levels(seg)
            figures = [v for v in _money(seg) if abs(v - row["arr"]) > TOLERANCE]
            if levels - {row["risk"].casefold()} or figures:
                problems.append(f"{seg.strip()[:70]!r} contradicts the register's {acct} (risk {row['risk']}, ARR {row['arr']:,})")
        return problems
    return _revops_doc(ctx, "Renewal risk register – Q2", problems_of, f"{len(reg)} accounts as the register has them")


# ---------------------------------------------------------------------------- H2 price changes
def price_changes(ctx) -> dict[str, tuple[float, float]]:
    """Tier → (current list price, proposed) for the tiers whose list price the H2 proposal changes."""
    now, h2 = list_prices(ctx.initial), list_prices(ctx.initial, PRICING_H2)
    return {t: (now[t], h2[t]) for t in now if t in h2 and now[t] != h2[t]}


def _names_tier(text: str, tier: str) -> bool:
    rx = r"\bEnterprise\b(?!\s+Plus)" if tier == "Enterprise" else rf"\b{tier}\b"
    return re.search(rx, text, re.I) is not None


def price_changes_doc(ctx):
    """A new doc “Pricing changes – H2 2026” in Jordan's RevOps folder: a heading, then one list item per tier
    whose list price changes, giving the current price and then the proposed one; no unchanged tier named."""
    changes = price_changes(ctx)
    unchanged = [t for t in list_prices(ctx.initial) if t not in changes]

    def problems_of(bs, _text):
        problems = []
        items = [b["text"] for _, b in bs if b["type"] in ("bullet", "numbered")]
        for tier, (old, new) in changes.items():
            mine = [t for t in items if _names_tier(t, tier)]
            if len(mine) != 1:
                problems.append(f"{len(mine)} list items for {tier}")
                continue
            text = re.sub(r"(?i)\((?:not|rather than|instead of)\b[^()]*\)", lambda m: " " * len(m.group(0)), normalise(mine[0]))
            cands = [c for c in number_cands(text, words=False) if c.value >= 1000]
            first_old = next((c for c in cands if c.value == old), None)
            ok = first_old is not None and all(c.value == old for c in cands if c.start < first_old.start) \
                and states(text[first_old.end:], "number", new)[0] \
                and next((c.value for c in cands if c.start >= first_old.end), None) == new
            if not ok:
                problems.append(f"{tier}: {mine[0]!r} (want {old:,.0f} → {new:,.0f})")
        # the rest of the doc may not give a changed tier another price ("Business customers will pay $110,000")
        rest = "\n".join(b["text"] for _, b in bs if b["type"] not in ("bullet", "numbered"))
        forms = {t: (r"\bEnterprise\b(?!\s+Plus)" if t == "Enterprise" else rf"\b{t}\b") for t in changes}
        for tier, seg in _segments(rest, forms):
            old, new = changes[tier]
            stray = [v for v in _money(seg) if not any(abs(v - x) < 0.5 for x in (old, new, abs(new - old)))]
            if stray:
                problems.append(f"{seg.strip()[:70]!r} gives {tier} another price than {old:,.0f} → {new:,.0f}")
        named = [t for t in unchanged if any(_names_tier(b["text"], t) for _, b in bs)]
        if named:
            problems.append(f"unchanged tiers named: {named}")
        if len(items) != len(changes):
            problems.append(f"{len(items)} list items for {len(changes)} changed tiers")
        return problems
    return _revops_doc(ctx, "Pricing changes – H2 2026", problems_of, f"{len(changes)} price changes listed")


# ---------------------------------------------------------------------------- the remediation plan's owners
DOUBT = re.compile(r"(?i)\bTB[CDA]\b|\bto be (?:confirmed|decided|agreed|assigned)\b|\bpending\b|\bprovisional(?:ly)?\b"
                   r"|\btentative(?:ly)?\b|\bunconfirmed\b|\bor\b|\bwhoever\b|\band/or\b|/")


def _doubted(fill: str) -> bool:
    """A blank filled with doubt or an alternative: "X (TBC)", "X?", "X or whoever is on call", "X or Y"."""
    return bool(DOUBT.search(fill) or HEDGE_WORDS.search(fill))


def incident_owner(ctx, number: str) -> str:
    inc = next(i for i in _recs(ctx.initial, "tk_incidents").values() if i["number"] == number)
    return _people(ctx.initial)[inc["assigned_to"]]


def remediation_owners(ctx):
    """Each action of the remediation plan has its ``[owner]`` blank filled with the engineer the service
    desk has its incident assigned to — that person alone, without doubt ("(TBC)", "?") or an alternative
    ("or whoever is on call") —, the rest of the line as it was."""
    doc = A.app_key(ctx.final, REMEDIATION, "doc")
    start = A.blocks(ctx.initial, A.app_key(ctx.initial, REMEDIATION, "doc"))
    end = dict(A.blocks(ctx.final, doc))
    names = _people(ctx.initial)
    problems, keys = [], []
    for k, b in start:
        if "[owner]" not in (b["text"] or ""):
            continue
        number = re.search(r"INC\d{7}", b["text"]).group(0)
        want = incident_owner(ctx, number)
        now = (end.get(k) or {}).get("text") or ""
        head, _, tail = b["text"].partition("[owner]")
        fill = now[len(head):len(now) - len(tail)] if now.startswith(head) and now.endswith(tail) else None
        if fill is None or len(now) < len(head) + len(tail):
            problems.append(f"{number}: the line was changed beyond its blank: {now[:80]!r}")
            continue
        who = {n for n in names.values() if n.casefold() in fill.casefold()}
        if who != {want} or "[owner]" in fill or _doubted(re.sub(r"\S+@\S+", " ", fill)):
            problems.append(f"{number}: owner {fill.strip()!r} (the service desk has {want})")
            continue
        keys.append(k)
    if problems:
        return False, "; ".join(problems)
    return True, f"{len(keys)} owners filled", A.block_vouches(ctx, keys)


# ============================================================================ DECKS
def _slides(export: dict, title: str) -> list[dict]:
    return A.slides(export, A.app_key(export, title, "deck"))


def _titled(slides: list[dict], title: str) -> dict | None:
    return next((s for s in slides if normalise(s["boxes"].get("title", "")).strip().casefold() == title.casefold()), None)


def _lines(text: str) -> list[str]:
    return [ln for ln in (text or "").splitlines() if ln.strip()]


def _slots(before: str, after: str) -> list[str] | None:
    """What each ``[…]`` blank of ``before`` became in ``after`` (the rest of the text kept), else None."""
    parts = A.BLANK.split(before)
    pattern = "(.*?)".join(re.escape(p) for p in parts)
    m = re.fullmatch(pattern, after or "", re.S)
    return list(m.groups()) if m else None


# ---------------------------------------------------------------------------- exec review: open incidents
def harrowgate_open_incidents(ctx) -> dict[str, int]:
    """Harrowgate's open incidents (service desk, at the start) → priority."""
    return {i["number"]: int(i["priority"]) for i in _recs(ctx.initial, "tk_incidents").values()
            if i["account"] == "harrowgate" and i["state"] not in ("Resolved", "Closed", "Canceled")}


def exec_review_open_incidents(ctx):
    """The “Open incidents” slide's body lists Harrowgate's open incidents, one bullet each with its
    number and its priority, and no other incident."""
    want = harrowgate_open_incidents(ctx)
    before = _titled(_slides(ctx.initial, EXEC_REVIEW), "Open incidents")
    end = next((s for s in _slides(ctx.final, EXEC_REVIEW) if s["key"] == before["key"]), None)
    if end is None:
        return False, "the Open incidents slide is gone"
    lines = _lines(end["boxes"].get("body"))
    base = _base()
    problems, seen = [], {}
    for ln in lines:
        nums = re.findall(r"INC\d{7}", ln)
        if not BULLET.match(ln):
            problems.append(f"not a bullet: {ln!r}")
        if len(nums) != 1:
            problems.append(f"{len(nums)} incident numbers in {ln!r}")
            continue
        n = nums[0]
        if n not in want:
            problems.append(f"{n} is not an open Harrowgate incident")
            continue
        ok, why = base.stated_only(ln, base.priority_mentions(ln), want[n])
        if not ok:
            problems.append(f"{n}: {why} (the desk has P{want[n]})")
        seen[n] = seen.get(n, 0) + 1
    missing = [n for n in want if seen.get(n) != 1]
    if missing:
        problems.append(f"not one bullet each for {missing}")
    if problems:
        return False, "; ".join(problems[:4])
    return True, ", ".join(f"{n} P{p}" for n, p in sorted(want.items())), A.slide_vouches(ctx, end, fields=(), boxes=("body",))


# ---------------------------------------------------------------------------- exec review: renewal figures
def exec_review_renewal_figures(ctx):
    """On “FY27 renewal”, [ARR] holds Harrowgate's ARR and [date] the renewal's close date (CRM), nothing
    else of the left column changed."""
    acct = next(a for a in _recs(ctx.initial, "crm_accounts").values() if a["slug"] == "harrowgate")
    opp = next(o for o in _opps(ctx.initial) if o["slug"] == "harrowgate-fy27-renewal")
    before = _titled(_slides(ctx.initial, EXEC_REVIEW), "The FY27 renewal")
    end = next((s for s in _slides(ctx.final, EXEC_REVIEW) if s["key"] == before["key"]), None)
    if end is None:
        return False, "the FY27 renewal slide is gone"
    slots = _slots(before["boxes"]["left"], end["boxes"].get("left", ""))
    if slots is None:
        return False, f"the left column changed beyond its blanks: {end['boxes'].get('left', '')!r}"
    arr, day = slots
    problems = []
    if not _stated(arr, int(acct["arr"])) or "\n" in arr.strip():
        problems.append(f"ARR reads {arr!r} (the CRM has {int(acct['arr']):,})")
    if not states(day, "date", date.fromisoformat(str(opp["close_date"])))[0] or "\n" in day.strip():
        problems.append(f"renewal date reads {day!r} (the CRM has {opp['close_date']})")
    if problems:
        return False, "; ".join(problems)
    return True, f"ARR {arr.strip()}, renewal {day.strip()}", A.slide_vouches(ctx, end, fields=(), boxes=("left",))


# ---------------------------------------------------------------------------- exec review: a renewal-risk slide
def exec_review_risk_slide(ctx):
    """A new title-and-body slide “Renewal risk” right after “FY27 renewal”: bullets giving the register's
    risk level (and no other), the ARR at stake (Harrowgate's ARR, against its label) and the open P1
    incident on a line that gives it as the P1 (no incident with another priority than the desk's); speaker
    notes are the slide's own business."""
    reg = next(r for r in risk_register(ctx) if r["account"].startswith("Harrowgate"))
    p1 = [n for n, p in harrowgate_open_incidents(ctx).items() if p == 1]
    slides = _slides(ctx.final, EXEC_REVIEW)
    anchor = _titled(_slides(ctx.initial, EXEC_REVIEW), "The FY27 renewal")["key"]
    keys = [s["key"] for s in slides]
    if anchor not in keys:
        return False, "the FY27 renewal slide is gone"
    i = keys.index(anchor)
    new = slides[i + 1] if i + 1 < len(slides) else None
    if new is None or new["key"] not in ctx.added("slides_slides"):
        return False, "no new slide right after FY27 renewal"
    problems = []
    if new["layout"] != "title_body":
        problems.append(f"layout {new['layout']}")
    if normalise(new["boxes"].get("title", "")).strip().casefold() != "renewal risk":
        problems.append(f"titled {new['boxes'].get('title')!r}")
    body = new["boxes"].get("body", "")
    lines = _lines(body)
    if len(lines) < 3 or not all(BULLET.match(ln) for ln in lines):
        problems.append(f"the body is not bullets (three or more): {body!r}")
    levels = _risk_levels(body)
    if levels != {reg["risk"].casefold()}:
        problems.append(f"risk levels {sorted(levels)} (the register has {reg['risk']})")
    labelled = [ln for ln in lines if re.search(r"(?i)\bARR\b|at stake", ln)]
    if not labelled or not all(_only_figure(ln, reg["arr"]) for ln in labelled):
        problems.append(f"the ARR at stake ({reg['arr']:,}) is not given against its label")
    rival = [ln for ln in lines if ln not in labelled and any(abs(v - reg["arr"]) > 0.5 for v in _money(BULLET.sub("", ln)))]
    if rival:       # "$552,000 at risk counting the Lineage add-on": another amount at stake, unlabelled
        problems.append(f"another amount on the slide: {rival[0].strip()!r}")
    base, want = _base(), harrowgate_open_incidents(ctx)
    if not p1 or not any(p1[0] in ln and base.stated_only(ln, base.priority_mentions(ln), 1)[0] for ln in lines):
        problems.append(f"the open P1 ({', '.join(p1)}) is not on it as the P1")
    for ln in lines:            # an incident given another priority than the desk's ("Open P1: INC0010440")
        nums = set(re.findall(r"INC\d{7}", ln))
        if len(nums) == 1 and base.priority_mentions(ln):
            n = nums.pop()
            if n not in want or not base.stated_only(ln, base.priority_mentions(ln), want[n])[0]:
                problems.append(f"{ln.strip()!r}: the desk has {n} at " + (f"P{want[n]}" if n in want else "no open Harrowgate incident"))
    if problems:
        return False, "; ".join(problems)
    return True, f"slide {new['seq']}: Renewal risk", A.slide_vouches(ctx, new)


def _only_figure(line: str, want) -> bool:
    """The line states ``want`` and no other money figure (a figure set aside in "(not …)" aside)."""
    text = re.sub(r"(?i)\((?:not|rather than|instead of)\b[^()]*\)", " ", normalise(BULLET.sub("", line)))
    big = [c.value for c in number_cands(text, words=False) if c.value >= 1000]
    return bool(big) and set(big) == {float(want)} and states(text, "number", want)[0]


# ---------------------------------------------------------------------------- exec review: a speaker note
def cab_date(ctx) -> date:
    """The day of the CAB review of CHG0000319 (the calendar, world-local)."""
    ev = next(e for e in _recs(ctx.initial, "cal_events").values() if "CHG0000319" in (e["title"] or ""))
    return world_time(ctx.initial, ev["start"]).date()


def exec_review_cab_note(ctx):
    """The notes of “Remediation plan” keep what was there and add a short reminder giving the day of the
    CAB review of the scheduler autoscaling change (CHG0000319), and no other day."""
    before = _titled(_slides(ctx.initial, EXEC_REVIEW), "Remediation plan")
    end = next((s for s in _slides(ctx.final, EXEC_REVIEW) if s["key"] == before["key"]), None)
    if end is None:
        return False, "the Remediation plan slide is gone"
    old, new = (before.get("notes") or "").strip(), (end.get("notes") or "").strip()
    if old not in new:
        return False, f"the notes lost what was there: {new[:120]!r}"
    added = new.replace(old, " ", 1).strip()
    problems = []
    if not re.search(r"(?i)\bCAB\b|CHG0*319|change advisory", added):
        problems.append(f"the added note doesn't name the CAB review: {added[:100]!r}")
    day = cab_date(ctx)
    if not states(added, "date", day, today=date(2026, 6, 9))[0]:
        problems.append(f"the added note doesn't give {day:%A %B %-d} alone: {added[:100]!r}")
    if len(added.split()) > 40:
        problems.append(f"the added note is {len(added.split())} words, not a short reminder")
    if problems:
        return False, "; ".join(problems)
    return True, f"note added: {added[:80]!r}", A.slide_vouches(ctx, end, fields=("notes",))


# ---------------------------------------------------------------------------- pipeline review: Q2 at a glance
def pipeline_review_glance(ctx):
    """On “Q2 at a glance”, the three [tbc] blanks hold closed won to date, commit and best case (the
    forecast's, i.e. the CRM's Q2, to the nearest $10K), the rest of the body as it was."""
    before = _titled(_slides(ctx.initial, PIPELINE_REVIEW), "Q2 at a glance")
    end = next((s for s in _slides(ctx.final, PIPELINE_REVIEW) if s["key"] == before["key"]), None)
    if end is None:
        return False, "the Q2 at a glance slide is gone"
    slots = _slots(before["boxes"]["body"], end["boxes"].get("body", ""))
    if slots is None:
        return False, f"the body changed beyond its blanks: {end['boxes'].get('body', '')!r}"
    figures = q2_figures(ctx)
    problems = []
    for (label, want), got in zip(figures.items(), slots):
        if not _stated(got, want, tolerance=TOLERANCE) or "\n" in got.strip():
            problems.append(f"{label} reads {got!r} (the forecast has {want:,})")
    if problems:
        return False, "; ".join(problems)
    return True, " · ".join(s.strip() for s in slots), A.slide_vouches(ctx, end, fields=(), boxes=("body",))


# ---------------------------------------------------------------------------- pipeline review: Q3 renewals
def pipeline_review_q3(ctx):
    """On “Renewals due in Q3”, the blanks hold how many open renewals close in Q3, their total and the
    account of the largest, the rest of the body as it was."""
    before = _titled(_slides(ctx.initial, PIPELINE_REVIEW), "Renewals due in Q3")
    end = next((s for s in _slides(ctx.final, PIPELINE_REVIEW) if s["key"] == before["key"]), None)
    if end is None:
        return False, "the Renewals due in Q3 slide is gone"
    slots = _slots(before["boxes"]["body"], end["boxes"].get("body", ""))
    if slots is None:
        return False, f"the body changed beyond its blanks: {end['boxes'].get('body', '')!r}"
    ren = q3_renewals(ctx)
    count, total = len(ren), sum(int(o["amount"]) for o in ren)
    top = max(ren, key=lambda o: o["amount"])
    n, t, acct = (s.strip() for s in slots)
    problems = []
    if not _stated(n, count) or any(c.value != count for c in number_cands(normalise(n), words=False)
                                    if not negated(normalise(n), c)):
        problems.append(f"count reads {n!r} (want {count})")     # "12 (13 with Harrowgate)" offers two counts
    if not _stated(t, total, tolerance=TOLERANCE):
        problems.append(f"total reads {t!r} (want {total:,})")
    others = [o["account_name"] for o in ren if o is not top and o["account_name"].casefold() in acct.casefold()]
    if top["account_name"].split(" ")[0].casefold() not in acct.casefold() or others or _doubted(acct):
        problems.append(f"largest reads {acct!r} (want {top['account_name']})")
    if problems:
        return False, "; ".join(problems)
    return True, f"{n} renewals, {t}, largest {acct}", A.slide_vouches(ctx, end, fields=(), boxes=("body",))
