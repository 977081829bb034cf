"""Checks of the quarter close (lumen/quarter-close): the Q2 forecast sheet brought in line with the
CRM, and the board numbers sent to Victor Hale with his question answered.

Every expected figure is read from the CRM as it is at the end (the Q2 opportunities, their stages
and amounts) and the stage probabilities from the forecast's own Summary tab as it was at the start,
so a CRM mistake elsewhere in the day is judged where it was made, not twice.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from harness.verify import artifacts as A
from harness.verify.answer import normalise, states_by_label
from harness.verify.guard import Vouch
from harness.verify.mailtext import read_as_sent

BOOK = "Q2 FY26 Forecast"
PIPELINE, SUMMARY = "Q2 Pipeline", "Summary"
Q2 = ("2026-04-01", "2026-06-30")
VICTOR = "victor.hale"
HARROWGATE = "harrowgate-fy27-renewal"
TOLERANCE = 5000            # "$2.12M" for $2,123,000: figures as people round them, to the nearest $10K
COLUMNS = "ABCDEFGHIJ"      # Opportunity, Account, Owner, Type, Stage, Amount, Close date, Probability, Weighted, CRM id

# Labels as they read once ``_plain`` has rewritten the words the reading treats as setting a value aside
# ("closed", "excluding", "less"), which here name a figure rather than reject it.
LABELS = {
    "closed won": r"\bwon\b(?!\s*\+)|\bbookings\b",
    "commit": r"\bcommit(?:ted)?\b(?!\s*\+)",
    "best case": r"best[- ]case",
}
EX_HARROWGATE = r"without\s+harrowgate|ex[- ]harrowgate|harrowgate\s+(?:out|removed|taken out|left out)"


def _plain(text: str) -> str:
    """"Closed won" is a label, not a figure set aside as closed; "excluding Harrowgate", "less
    Harrowgate" ask for the figure without it."""
    text = re.sub(r"(?i)\bclosed[- ]won\b", "won", normalise(text))
    return re.sub(r"(?i)\b(?:excluding|excl\.?|minus|less|leaving out|not counting|w/o)\s+(?:the\s+)?harrowgate"
                  r"|\bharrowgate\s+excluded\b", "without Harrowgate", text)


# ---------------------------------------------------------------------------- the CRM
def _q2_opportunities(ctx) -> dict[str, dict]:
    """The CRM's opportunities closing in Q2, at the end, by slug."""
    out = {}
    for r in ctx.final["tables"]["crm_opportunities"]["records"].values():
        if Q2[0] <= str(r.get("close_date") or "") <= Q2[1]:
            out[r["slug"]] = r
    return out


def _sum(opps: dict[str, dict], stages: tuple[str, ...]) -> int:
    return sum(int(o.get("amount") or 0) for o in opps.values() if o["stage"] in stages)


def board_figures(ctx) -> dict[str, int]:
    """Closed won to date, commit (won + Negotiation, Victor's definition), best case (+ Proposal),
    and commit without Harrowgate's renewal, from the CRM at the end."""
    opps = _q2_opportunities(ctx)
    won = _sum(opps, ("Closed Won",))
    commit = won + _sum(opps, ("Negotiation",))
    hg = opps.get(HARROWGATE)
    hg_in = int(hg["amount"] or 0) if hg and hg["stage"] == "Negotiation" else 0
    return {"closed won": won, "commit": commit, "best case": commit + _sum(opps, ("Proposal",)),
            "commit without harrowgate": commit - hg_in}


# ---------------------------------------------------------------------------- the sheet
def _tab(export: dict, name: str) -> str | None:
    return A.tab_key(export, A.app_key(export, BOOK, "sheet"), name)


def _day(kc) -> str | None:
    """A close-date cell as an ISO date: typed text ("2026-06-09") or a date the sheet parsed."""
    if kc is None:
        return None
    v, shown = A.cell_value(kc), str(kc[1].get("display") or "")
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v.strip()):
        return v.strip()
    if A.number(v) is not None and 20000 < v < 80000:                      # a spreadsheet date serial
        return (date(1899, 12, 30) + timedelta(days=int(v))).isoformat()
    m = re.fullmatch(r"\d{4}-\d{2}-\d{2}", shown.strip())
    return m.group(0) if m else None


def stage_probabilities(ctx) -> dict[str, float]:
    """The Summary's probability for each stage (A2:D8), as the sheet had them at the start."""
    out = {}
    for r, cells in A.rows(ctx.initial, _tab(ctx.initial, SUMMARY)).items():
        stage, p = A.cell_value(cells.get("A")), A.number(A.cell_value(cells.get("D")))
        if 2 <= r <= 8 and isinstance(stage, str) and p is not None:
            out[stage] = p
    return out


def _pipeline_rows(export: dict) -> dict[int, dict]:
    """Deal rows of the Q2 Pipeline tab (below the header, above Total) by row number."""
    rows = A.rows(export, _tab(export, PIPELINE))
    out = {}
    for r, cells in sorted(rows.items()):
        a = str(A.cell_value(cells.get("A")) or "").strip()
        if r == 1 or not a:
            continue
        if a.casefold() == "total":
            break
        out[r] = cells
    return out


def _row_of(rows: dict[int, dict], opp: dict) -> list[int]:
    name = " ".join(str(opp["name"]).split()).casefold()
    return [r for r, c in rows.items()
            if str(A.cell_value(c.get("J")) or "").strip() == opp["slug"]
            or " ".join(str(A.cell_value(c.get("A")) or "").split()).casefold() == name]


def _row_problems(ctx, cells: dict, r: int, opp: dict, probs: dict[str, float]) -> list[str]:
    problems = []
    if str(A.cell_value(cells.get("E")) or "").strip() != opp["stage"]:
        problems.append(f"stage E{r} {A.cell_value(cells.get('E'))!r} (the CRM has {opp['stage']!r})")
    if A.number(A.cell_value(cells.get("F"))) != float(opp.get("amount") or 0):
        problems.append(f"amount F{r} {A.cell_value(cells.get('F'))!r} (the CRM has {opp.get('amount')})")
    if _day(cells.get("G")) != str(opp["close_date"]):
        problems.append(f"close date G{r} {A.cell_value(cells.get('G'))!r} (the CRM has {opp['close_date']})")
    want_p = probs.get(opp["stage"])
    if A.number(A.cell_value(cells.get("H"))) != want_p:
        problems.append(f"probability H{r} {A.cell_value(cells.get('H'))!r} (the Summary gives {opp['stage']} {want_p:g})")
    i = A.cell_input(cells.get("I"))
    refs = {m.upper() for m in re.findall(r"\$?([A-Za-z]+)\$?" + str(r) + r"\b", i)}
    v = A.number(A.cell_value(cells.get("I")))
    if not i.startswith("=") or refs != {"F", "H"} or v is None or \
            abs(v - float(opp.get("amount") or 0) * (want_p or 0) / 100) > 0.005:
        problems.append(f"weighted I{r} {i!r} = {A.cell_value(cells.get('I'))} (want the row's formula of F{r} and H{r})")
    return problems


def _forecast_row(ctx, slug: str):
    opp = _q2_opportunities(ctx).get(slug)
    if opp is None:
        return False, f"{slug} doesn't close in Q2 in the CRM (its row belongs to another quarter)"
    tab = _tab(ctx.final, PIPELINE)
    rows = _pipeline_rows(ctx.final)
    found = _row_of(rows, opp)
    if len(found) != 1:
        return False, f"{len(found)} rows for {opp['name']!r} in {PIPELINE} (want one)"
    r = found[0]
    problems = _row_problems(ctx, rows[r], r, opp, stage_probabilities(ctx))
    if problems:
        return False, f"{opp['name']} (row {r}): " + "; ".join(problems)
    return True, f"row {r}: {opp['stage']}, {opp['close_date']}", A.cell_vouches(ctx, tab, [f"{c}{r}" for c in COLUMNS])


def forecast_row_brightvault(ctx):
    """Brightvault's renewal row shows it won: stage, probability, the close date the CRM has."""
    return _forecast_row(ctx, "brightvault-bank-renewal-2026")


def forecast_row_quarry(ctx):
    """Quarry Lane's platform row shows it lost: stage and probability."""
    return _forecast_row(ctx, "quarry-lane-platform")


def forecast_matches_crm(ctx):
    """The Q2 Pipeline tab has one row for every Q2 opportunity of the CRM and none for another quarter's,
    every row as the CRM has it. Rows inserted for new Q2 deals are vouched, and so are the formulas
    the insertion rewrote (their references follow the rows that moved), nothing else."""
    out = _forecast(ctx, summary=False)
    if not out[0]:
        return out
    tab = _tab(ctx.final, PIPELINE)
    start = {kc[0] for kc in A.cells(ctx.initial, _tab(ctx.initial, PIPELINE)).values()}
    new_rows = sorted({r for r, cells in _pipeline_rows(ctx.final).items()
                       if all(kc[0] not in start for kc in cells.values())})
    vouches = A.cell_vouches(ctx, tab, [f"{c}{r}" for r in new_rows for c in COLUMNS])
    return out[0], out[1], vouches + inserted_row_vouches(ctx, new_rows)


def _row_shift(new_rows: list[int]):
    """Where a row of the start is at the end, given the final positions of the rows inserted."""
    points = [p - i for i, p in enumerate(sorted(new_rows))]      # each insertion, in the start's numbering
    return lambda r: r + sum(1 for q in points if q <= r)


REF = re.compile(r"(?:(?:'([^']+)'|([A-Za-z_][\w.]*))!)?(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\w(])")


def _shifted(formula: str, shift, here: bool) -> str:
    """``formula`` with its row references into the Q2 Pipeline tab moved by ``shift``."""
    def one(m):
        tab = m.group(1) or m.group(2)
        if (tab is None and not here) or (tab is not None and tab != PIPELINE):
            return m.group(0)
        head = m.group(0)[:m.start(3) - m.start(0)]
        return f"{head}{m.group(3)}{m.group(4)}{m.group(5)}{shift(int(m.group(6)))}"
    parts = re.split(r'("[^"]*")', formula)
    out = []
    for p in parts:
        if p.startswith('"'):
            out.append(p)
            continue
        # a range's sheet prefix covers its second cell too: 'Q2 Pipeline'!E2:E60
        p = re.sub(r"('[^']+'|[A-Za-z_][\w.]*)!(\$?[A-Z]{1,3}\$?\d+):(\$?[A-Z]{1,3}\$?\d+)",
                   lambda m: f"{m.group(1)}!{m.group(2)}:{m.group(1)}!{m.group(3)}", p)
        p = REF.sub(one, p)
        p = re.sub(r"('[^']+'|[A-Za-z_][\w.]*)!(\$?[A-Z]{1,3}\$?\d+):\1!", r"\1!\2:", p)
        out.append(p)
    return "".join(out)


def inserted_row_vouches(ctx, new_rows: list[int]) -> list[Vouch]:
    """The formulas of the forecast that inserting ``new_rows`` into Q2 Pipeline rewrote, and no other."""
    if not new_rows:
        return []
    shift = _row_shift(new_rows)
    book = str(A.app_key(ctx.final, BOOK, "sheet"))
    names = {k: t["name"] for k, t in A.records(ctx.final, "sheets_tabs").items() if str(t["book"]) == book}
    before = A.records(ctx.initial, "sheets_cells")
    out = []
    for k, c in A.records(ctx.final, "sheets_cells").items():
        if str(c["tab"]) not in names or k not in before:
            continue
        was, now = str(before[k].get("input") or ""), str(c.get("input") or "")
        if was != now and was.startswith("=") and _shifted(was, shift, names[str(c["tab"])] == PIPELINE) == now:
            out.append(Vouch.of("sheets_cells", k, ("input",)))
    return out


def forecast_summary(ctx):
    """The Summary's closed won, commit and best case are the CRM's Q2 figures (its formulas still
    count every row)."""
    return _forecast(ctx, rows_too=False)


def _forecast(ctx, *, summary: bool = True, rows_too: bool = True):
    opps = _q2_opportunities(ctx) if rows_too else {}
    rows = _pipeline_rows(ctx.final)
    probs = stage_probabilities(ctx)
    problems, seen = [], set()
    for slug, opp in sorted(opps.items()):
        found = _row_of(rows, opp)
        seen.update(found)
        if len(found) != 1:
            problems.append(f"{len(found)} rows for {opp['name']}")
            continue
        problems += _row_problems(ctx, rows[found[0]], found[0], opp, probs)
    for r in sorted(set(rows) - seen) if rows_too else ():
        problems.append(f"row {r} {A.cell_value(rows[r].get('A'))!r} is no Q2 opportunity of the CRM")
    table = A.rows(ctx.final, _tab(ctx.final, SUMMARY))
    figures = board_figures(ctx)
    by_label = {str(A.cell_value(c.get("A")) or "").split(" (")[0].casefold(): c for c in table.values()}
    for label, key in (("closed won to date", "closed won"), ("commit", "commit"), ("best case", "best case"))[:3 if summary else 0]:
        v = A.number(A.cell_value((by_label.get(label) or {}).get("C")))
        if v is None or abs(v - figures[key]) > 0.005:
            problems.append(f"the Summary's {label} is {v} (the CRM's Q2 is {figures[key]})")
    if problems:
        return False, "; ".join(problems[:6]) + (f" (and {len(problems) - 6} more)" if len(problems) > 6 else "")
    if not rows_too:
        return True, f"closed won {figures['closed won']:,}, commit {figures['commit']:,}, best case {figures['best case']:,}"
    return True, f"{len(opps)} Q2 rows, each as the CRM has it"


# ---------------------------------------------------------------------------- to Victor
def messages_to(ctx, person: str, prep=normalise) -> list[tuple[int, str, str, str]]:
    """The agent's messages that reach ``person`` in this episode, in order: (seq, table, key, text) —
    mails to or copying them (a new subject and the sender's own words, not the quoted thread:
    ``harness.verify.mailtext``), and messages in a direct conversation with them; ``prep`` reads the text."""
    email = next(p["email"] for p in A.records(ctx.final, "people").values() if p["slug"] == person).lower()
    out = []
    mails = A.records(ctx.final, "mail_messages")
    for k, seq in ctx.by_agent("mail_messages", inserted=True).items():
        m = mails.get(k)
        if m and email in [a.lower() for a in (m.get("to") or []) + (m.get("cc") or [])]:
            out.append((seq, "mail_messages", k, prep(read_as_sent(ctx.final, k, m, email))))
    convs = A.records(ctx.final, "chat_conversations")
    members: dict[str, set] = {}
    for r in A.records(ctx.final, "chat_members").values():
        members.setdefault(str(r["conversation"]), set()).add(r["person"])
    msgs = A.records(ctx.final, "chat_messages")
    for k, seq in ctx.by_agent("chat_messages", inserted=True).items():
        m = msgs.get(k)
        c = convs.get(str(m["conversation"])) if m else None
        if c and c["kind"] == "dm" and person in members.get(str(m["conversation"]), set()):
            out.append((seq, "chat_messages", k, prep(m.get("text") or "")))
    return sorted(out)


def to_victor(ctx) -> list[tuple[int, str, str, str]]:
    """The agent's messages that reach Victor in this episode, in order (``messages_to``)."""
    return messages_to(ctx, VICTOR, _plain)


def _figures_vouch(ctx, msgs) -> list[Vouch]:
    return [Vouch.of(table, k, to=[VICTOR] if table == "mail_messages" else ()) for _, table, k, _ in msgs]


def board_numbers(ctx):
    """Victor has the board numbers: the last message of yours to him that gives closed won, commit and
    best case gives the CRM's, each where its label is, none hedged (within $10K rounding). Said once,
    or corrected once when he pushes back (three sets of numbers are noise, whichever comes last): at most
    three messages with figures reach him."""
    msgs = to_victor(ctx)
    want = board_figures(ctx)
    full = [m for m in msgs if all(re.search(rx, m[3], re.I) for rx in LABELS.values())]
    if not full:
        return False, "no message of yours to Victor gives closed won, commit and best case"
    if len(msgs) > 3:
        return False, f"{len(msgs)} messages to Victor (the numbers, a correction and an answer at most)"
    if len(full) > 2:
        return False, f"the board numbers sent {len(full)} times (once, and once more corrected at most)"
    text = full[-1][3]
    ok, why = states_by_label(text, {name: (rx, want[name]) for name, rx in LABELS.items()}, tolerance=TOLERANCE)
    if not ok:
        return False, f"the numbers you sent last: {why}"
    return True, f"closed won {want['closed won']:,}; commit {want['commit']:,}; best case {want['best case']:,}", \
        _figures_vouch(ctx, msgs)


def board_numbers_not_wrong(ctx):
    """Gate: nothing wrong stands with Victor — the last numbers you sent him (if any) are right, and
    there are no more than three messages to him. A stale figure he pushed back on and you corrected is fine."""
    msgs = to_victor(ctx)
    if not any(all(re.search(rx, m[3], re.I) for rx in LABELS.values()) for m in msgs):
        return True, "no board numbers sent"
    out = board_numbers(ctx)
    return out[0], out[1]


def commit_ex_harrowgate_not_wrong(ctx):
    """Gate: the last commit without Harrowgate you gave Victor (if any) is right and unhedged."""
    if not any(re.search(EX_HARROWGATE, m[3], re.I) for m in to_victor(ctx)):
        return True, "no commit without Harrowgate given"
    out = commit_ex_harrowgate(ctx)
    return out[0], out[1]


def commit_ex_harrowgate(ctx):
    """Victor's question back is answered: the last message of yours to him that names commit without
    Harrowgate gives it (commit less Harrowgate's renewal while it is in Negotiation), unhedged."""
    msgs = [m for m in to_victor(ctx) if re.search(EX_HARROWGATE, m[3], re.I)]
    if not msgs:
        return False, "no message of yours to Victor gives commit without Harrowgate"
    want = board_figures(ctx)["commit without harrowgate"]
    ok, why = states_by_label(msgs[-1][3], {"commit without Harrowgate": (EX_HARROWGATE, want)}, tolerance=TOLERANCE)
    if not ok:
        return False, why
    return True, f"commit without Harrowgate {want:,}", _figures_vouch(ctx, msgs)
