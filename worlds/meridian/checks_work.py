"""Python checks (and expected values) for a group of meridian tasks: billing tracker, damages model,
claims register, replies with figures.

Each check returns ``(ok, found, vouches)`` and vouches for exactly the parts it examined and wanted
changed (the cells of the new row, the edited cell, the reply it read); the guard sees every other
edit. Expected values are computed from the world's own files (``checks.py``) or, for "what the
model now shows", from the end state.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify import world_day
from harness.verify.answer import Cand, date_cands, negated, states, states_by_label
from harness.verify.checks import world_module, world_yaml
from harness.verify.guard import Vouch

HERE = Path(__file__).parent
DAMAGES = "Damages Model – Aurelia Dawn"
BILLING = "Billing Tracker – M-2026-0147 (live)"
ALEX = "alex.chen@meridianshaw.com"


def _base():
    return world_module(HERE, "checks")


def _today(ctx) -> date:
    """The world's day at the start (dates written without a year, "Friday", are read against it)."""
    return world_day(ctx.initial) or date(2026, 4, 6)


# ---------------------------------------------------------------------------- helpers
def _mail_thread(ctx, subject_part: str) -> dict:
    """The world's mail file whose subject contains ``subject_part`` (parsed)."""
    for p in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        data = world_yaml(p)
        if subject_part in (data.get("subject") or ""):
            return data
    raise LookupError(f"no mail thread about {subject_part!r}")


def _tab(export: dict, book: str, tab: str) -> str | None:
    return A.tab_key(export, A.app_key(export, book, "sheet"), tab)


def _val(kc):
    return None if kc is None else kc[1].get("value")


def _inp(kc) -> str:
    return "" if kc is None else str(kc[1].get("input") or "")


def _num(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


REF = re.compile(r"(?<![\w.$'])(?:(?:'[^']+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?(?![\w(])")


def _strip_strings(formula: str) -> str:
    return re.sub(r'"[^"]*"', '""', formula)


def _refs(formula: str) -> list[tuple[str, str, int, str, int]]:
    """(sheet prefix, col1, row1, col2, row2) of every reference in a formula (strings left out)."""
    out = []
    for m in REF.finditer(_strip_strings(formula)):
        text = m.group(0)
        prefix = text.split("!")[0].strip("'") if "!" in text else ""
        c1, r1 = m.group(1), int(m.group(2))
        c2, r2 = (m.group(3), int(m.group(4))) if m.group(3) else (c1, r1)
        out.append((prefix, c1, r1, c2, r2))
    return out


def _sum_range(formula: str, col: str) -> tuple[float, float] | None:
    """(first, last) row of ``=SUM(<col>a:<col>b)`` or ``=SUM(<col>:<col>)`` — a SUM over one range of
    one column — else None."""
    f = formula.replace(" ", "").upper()
    if re.fullmatch(rf"=SUM\(\$?{col}:\$?{col}\)", f):
        return 1, float("inf")
    m = re.fullmatch(rf"=SUM\(\$?{col}\$?(\d+):\$?{col}\$?(\d+)\)", f)
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return min(a, b), max(a, b)


def _ref_cells(formula: str) -> set[tuple[str, str, int]]:
    """Every cell a formula refers to, ranges expanded: {(sheet prefix lower-cased, column, row)}."""
    out = set()
    for p, c1, r1, c2, r2 in _refs(formula):
        for c in range(min(_col_index(c1), _col_index(c2)), max(_col_index(c1), _col_index(c2)) + 1):
            for r in range(min(r1, r2), max(r1, r2) + 1):
                out.add((p.lower(), _col_letter(c), r))
    return out


def _col_index(col: str) -> int:
    n = 0
    for ch in col:
        n = n * 26 + ord(ch) - 64
    return n


def _col_letter(n: int) -> str:
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


# "revised from $4,125,000 to $4,310,000" states the new figure; the old one is what it changed from
# (the answer reader would take "X to Y" for a range). The old figure is dropped before reading.
CHANGE_FROM = re.compile(r"(?i)\b(revis\w*|chang\w*|increas\w*|rais\w*|updat\w*|correct\w*|amend\w*|went|goes|gone|"
                         r"mov\w*|ris\w*|rose|up|down|drop\w*|fell|fall\w*)\b([^.;\n]{0,60}?)\bfrom\s+"
                         r"(?:US)?\$?\s?[\d][\d,]*(?:\.\d+)?(?:\s?(?:million|mn|m|bn|k)\b)?\s+to\b")


def says_number(text: str, value, about: str | None = None) -> tuple[bool, str]:
    """``states(text, "number", value)``, reading "changed from X to Y" as stating Y; with ``about`` (a
    regex for its label), where the text names the figure, the figure named must be it ("the tracker
    shows 19.6 hours … 17.8 is another figure" fails)."""
    text = CHANGE_FROM.sub(lambda m: f"{m.group(1)}{m.group(2)}from the earlier figure to", text or "")
    if about and re.search(about, text, re.I):
        ok, why = states_by_label(text, {"the figure": (about, value)})
        if not ok:
            return ok, why
    return states(text, "number", value)


def _mail_vouch(key, *to) -> Vouch:
    return Vouch.of("mail_messages", key, to=[t for t in to if t])


# ---------------------------------------------------------------------------- billing tracker
def _henry_entry(ctx) -> dict:
    """The entry Henry's mail asks for: date, task code, description, hours."""
    body = _mail_thread(ctx, "Live tracker – your Friday entry")["messages"][0]["body"]
    m = re.search(r"(\d{1,2} \w+ \d{4}) – (L\d{3}) – (.+?) – ([\d.]+) hours", body)
    rate = re.search(r"the \$([\d,]+) rate", body)
    day = re.search(r"date as (\d{4}-\d\d-\d\d)", body)
    return {"code": m.group(2), "description": m.group(3).strip(), "hours": float(m.group(4)),
            "rate": float(rate.group(1).replace(",", "")), "date": day.group(1)}


def _billing_rows(ctx) -> list[list]:
    """The live tracker's Entries rows as the variant's data room has them at the start."""
    path = Path(ctx.world_root) / _base().MATTER / "08 Billing/Billing Tracker – M-2026-0147 (live).gsheet.yaml"
    return world_yaml(path)["tabs"][0]["rows"]


def henry_hours(ctx) -> float:
    """Alex's total hours in the live tracker once Henry's missing entry is in."""
    before = sum(r[5] for r in _billing_rows(ctx)[1:] if r and r[1] == "Alex Chen")
    return round(before + _henry_entry(ctx)["hours"], 4)


def billing_friday_entry(ctx):
    """Exactly one new Entries row for Henry's 3 April entry, laid out like the others (text date,
    Alex Chen, Associate, the task code and description, the hours, the rate the mail gives, and an Amount
    formula multiplying that row's hours by its rate), inside the range the By timekeeper tab sums."""
    want = _henry_entry(ctx)
    tab = _tab(ctx.final, BILLING, "Entries")
    start = A.rows(ctx.initial, _tab(ctx.initial, BILLING, "Entries"))
    rows = A.rows(ctx.final, tab)
    good, seen = [], []
    for r, cells in sorted(rows.items()):
        if r == 1 or str(_val(cells.get("B"))) != "Alex Chen" or _num(_val(cells.get("F"))) != want["hours"]:
            continue
        if {c: _inp(kc) for c, kc in cells.items()} == {c: _inp(kc) for c, kc in start.get(r, {}).items()}:
            continue                                    # a row that was there already
        problems = []
        a = cells.get("A")
        if want["date"] not in (str(_val(a)), str((a or (None, {}))[1].get("display"))):
            problems.append(f"date {_val(a)!r}")
        if _val(cells.get("C")) != "Associate":
            problems.append(f"role {_val(cells.get('C'))!r}")
        if str(_val(cells.get("D"))).strip() != want["code"]:
            problems.append(f"task code {_val(cells.get('D'))!r}")
        if "claim and answer v2" not in str(_val(cells.get("E")) or "").lower():
            problems.append(f"description {_val(cells.get('E'))!r}")
        if _num(_val(cells.get("G"))) != want["rate"]:
            problems.append(f"rate {_val(cells.get('G'))!r}")
        h = _inp(cells.get("H"))
        if not h.startswith("=") or _ref_cells(h) != {("", "F", r), ("", "G", r)} or \
                _num(_val(cells.get("H"))) is None or abs(_val(cells.get("H")) - want["hours"] * want["rate"]) > 1e-6:
            problems.append(f"Amount {h!r} = {_val(cells.get('H'))} (want a formula of F{r} and G{r})")
        extra = sorted(set(cells) - set("ABCDEFGH"))
        if extra:
            problems.append(f"cells outside the layout: {extra}")
        seen.append(f"row {r}: " + ("; ".join(problems) or "ok"))
        if not problems:
            good.append((r, cells))
    if len(good) != 1:
        return False, "; ".join(seen) or f"no new row for Alex Chen with {want['hours']} hours"
    r, cells = good[0]
    by = A.rows(ctx.final, _tab(ctx.final, BILLING, "By timekeeper"))
    alex = next((c for c in by.values() if _val(c.get("A")) == "Alex Chen"), {})
    total = _num(_val(alex.get("D")))
    if total is None or abs(total - henry_hours(ctx)) > 1e-6:
        return False, f"row {r} is in, but the By timekeeper tab shows {total} hours for Alex (it doesn't count the row)"
    out = A.cell_vouches(ctx, tab, [f"{c}{r}" for c in cells])
    if len(rows) > len(start) and r in start:       # a row inserted for the entry: formulas follow the rows below
        out += shifted_formula_vouches(ctx, BILLING, "Entries", "row", r)
    return True, f"row {r}; By timekeeper shows {total} hours", out


def billing_total_row(ctx):
    """A row below the entries labelled Total, with =SUM over the Hours (F) and the Amount (H) of
    every entry row (and not itself), giving their totals."""
    tab = _tab(ctx.final, BILLING, "Entries")
    start = A.rows(ctx.initial, _tab(ctx.initial, BILLING, "Entries"))
    entries = [r for r, c in start.items() if r > 1 and _val(c.get("B"))]
    first, last = min(entries), max(entries)
    rows = A.rows(ctx.final, tab)
    hours = round(sum(_num(_val(rows[r].get("F"))) or 0 for r in entries), 6)
    amount = round(sum(_num(_val(rows[r].get("H"))) or 0 for r in entries), 6)
    good, seen = [], []
    for r, cells in sorted(rows.items()):
        if r <= last:
            continue
        labels = [c for c, kc in cells.items() if re.match(r"(?i)\s*totals?\b", str(_val(kc) or ""))]
        if not labels:
            continue
        problems = []
        for col, want in (("F", hours), ("H", amount)):
            rng = _sum_range(_inp(cells.get(col)), col)
            v = _num(_val(cells.get(col)))
            if rng is None or rng[0] > first or rng[1] < last or rng[1] >= r or v is None or abs(v - want) > 1e-6:
                problems.append(f"{col}{r} {_inp(cells.get(col))!r} = {_val(cells.get(col))} "
                                f"(want a SUM of {col}{first}:{col}{last} giving {want:g})")
        others = [f"{c}{r}" for c, kc in cells.items() if c not in ("F", "H", *labels) and _inp(kc)]
        if others:
            problems.append(f"other cells filled: {others}")
        seen.append(f"row {r}: " + ("; ".join(problems) or "ok"))
        if not problems:
            good.append((r, cells))
    if len(good) != 1:
        return False, "; ".join(seen) or "no row labelled Total below the entries"
    r, cells = good[0]
    return True, f"row {r}: {hours:g} hours, ${amount:,.2f}", A.cell_vouches(ctx, tab, [f"{c}{r}" for c in cells])


# ---------------------------------------------------------------------------- claims register as a sheet
def claims_register_sheet_total(ctx):
    """A new spreadsheet made from Claims Register.csv (its rows as they are) with a =SUM over the
    Amount (USD) column of every row of the register."""
    import csv
    with open(Path(ctx.world_root) / _base().MATTER / "04 Claims/Claims Register.csv", encoding="utf-8") as f:
        table = list(csv.reader(f))
    header, body = table[0], table[1:]
    col = _col_letter(header.index("Amount (USD)") + 1)
    everything = sum(int(r[header.index("Amount (USD)")]) for r in body)
    good, seen = [], []
    for key, it in ctx.records("drive_items", which="new").items():
        if it["kind"] != "sheet" or "claims register" not in it["name"].lower() or it.get("trashed"):
            continue
        book = next((k for k, b in A.records(ctx.final, "sheets_books").items() if str(b["item"]) == key), None)
        tabs = [k for k, t in A.records(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)]
        ok_sheet = False
        for tab in tabs:
            rows = A.rows(ctx.final, tab)

            def same(kc, text):
                return _inp(kc).strip() == text.strip()
            kept = all(same(rows.get(i + 1, {}).get(_col_letter(j + 1)), text)
                       for i, line in enumerate(table) for j, text in enumerate(line))
            sums = [(a1, kc) for a1, kc in A.cells(ctx.final, tab).items()
                    if (rng := _sum_range(_inp(kc), col)) and rng[0] <= 2 and rng[1] >= len(table)
                    and not (kc[1]["row"] <= len(table) and kc[1]["col"] <= len(header))
                    and _num(kc[1].get("value")) == everything]
            # Nothing else in the tab: no duplicated or invented rows beside the register — only the
            # total and its label (in its row, or just above it).
            spots = {(kc[1]["row"], kc[1]["col"]) for _, kc in sums}
            extra = [a1 for a1, kc in A.cells(ctx.final, tab).items()
                     if _inp(kc).strip() and not (kc[1]["row"] <= len(table) and kc[1]["col"] <= len(header))
                     and (kc[1]["row"], kc[1]["col"]) not in spots
                     and not (_num(kc[1].get("value")) is None and not _inp(kc).startswith("=")
                              and any(kc[1]["row"] == r_ or (kc[1]["row"] == r_ - 1 and kc[1]["col"] == c_)
                                      for r_, c_ in spots))]
            if kept and sums and extra:
                seen.append(f"“{it['name']}” has cells beyond the register and its total: {', '.join(sorted(extra)[:6])}")
            elif kept and sums:
                ok_sheet = True
                seen.append(f"“{it['name']}” {sums[0][0]} {_inp(sums[0][1])} = {everything:,}")
        if ok_sheet:
            good.append(key)
        else:
            seen.append(f"“{it['name']}” does not keep the register's rows with a =SUM({col}2:{col}{len(table)}) "
                        f"giving {everything:,} outside them")
    if not good:
        return False, "; ".join(seen) or "no new spreadsheet named like Claims Register"
    return True, "; ".join(seen), {"drive_items": set(good)}


# ---------------------------------------------------------------------------- damages model
def _claims_tab(export):
    return _tab(export, DAMAGES, "Claims")


def _row_of(rows, claim_id: str) -> int | None:
    return next((r for r, c in rows.items() if str(_val(c.get("A")) or "").strip() == claim_id), None)


def _total_row(rows) -> int | None:
    """The Claims tab's "Third-party total" row."""
    return next((r for r, c in rows.items() if _val(c.get("A")) == "Third-party total"), None)


def damages_port_calder_fixed(ctx):
    """CL-002's amount is Port Calder's invoiced total and the third-party total, still a formula,
    recomputes to the register's figure."""
    tab = _claims_tab(ctx.final)
    rows = A.rows(ctx.final, tab)
    r = _row_of(rows, "CL-002")
    tp_row = _total_row(rows)
    if r is None or tp_row is None:
        return False, "the CL-002 or the third-party total row is missing"
    want, tp_want = _base().port_calder_invoices_total(ctx), _base().third_party_total(ctx)
    amount, tp = _num(_val(rows[r].get("D"))), _num(_val(rows[tp_row].get("D")))
    # Still a formula over the claims: one that reads CL-002's amount (=122755000 is a typed number).
    tp_input = _inp(rows[tp_row].get("D"))
    formula = tp_input.startswith("=") and ("", "D", r) in _ref_cells(tp_input)
    ok = amount == want and tp == tp_want and formula
    found = (f"CL-002 {amount}, third-party total {tp} ({'a formula over the claims' if formula else 'not a formula over the claims'}); "
             f"want {want} and {tp_want}")
    return ok, found, A.cell_vouches(ctx, tab, [f"D{r}"])


def damages_summary_follows(ctx):
    """The Summary's third-party figure (B2) is a formula reading the Claims tab's third-party total and
    shows the corrected figure (a typed number, or one behind an equals sign, never recomputes)."""
    tab = _tab(ctx.final, DAMAGES, "Summary")
    claims = A.rows(ctx.final, _claims_tab(ctx.final))
    tp_row = _total_row(claims)
    b2 = A.cells(ctx.final, tab).get("B2")
    if tab is None or tp_row is None or b2 is None:
        return False, "the Summary tab, its B2 or the Claims total row is missing"
    want = _base().third_party_total(ctx)
    inp, value = _inp(b2), _num(_val(b2))
    follows = inp.startswith("=") and ("claims", "D", tp_row) in _ref_cells(inp)
    ok = follows and value == want
    return ok, f"Summary!B2 {inp!r} = {value} (want a reference to Claims!D{tp_row} showing {want})", \
        A.cell_vouches(ctx, tab, ["B2"])


def tourism_revised_amounts(ctx) -> tuple[int, int]:
    body = _mail_thread(ctx, "Calder Coast Tourism Board – supporting data")["messages"][-1]["body"]
    m = re.search(r"revised from \$([\d,]+) to \$([\d,]+)", body)
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def tourism_revised_amount(ctx) -> int:
    return tourism_revised_amounts(ctx)[1]


NEGATOR = re.compile(r"(?i)\b(?:not|no|never|nothing|none|without|yet\s+to|no\s+longer|nor)\b|n't\b")
IN = re.compile(r"(?i)\b(?:receiv\w*|review\w*|arriv\w*|complete\w*|in\s+hand|provided|supplied|submitted|produced)\b")
AWAITED = re.compile(r"(?i)\b(?:request\w*|await\w*|pending|outstanding|missing|to\s+follow|chas\w*|overdue|due)\b")
# A decision on the claim (accepted, rejected, disputed, settled…) is none the world records: "Received –
# not accepted" reads as rejected, "no longer disputed" as accepted; "not yet accepted" is still open.
DECIDED = re.compile(r"(?i)accept|approv|reject|declin|\bden(?:y|ied)\b|disput|withdr|settl|\bpaid\b|admit")
DOCS = re.compile(r"(?i)\b(?:doc\w*|data|information|support\w*|evidence|papers?|records?)\b")


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"\s[–—-]\s|[;,.()/|:]|\bbut\b", text or "") if c.strip()]


def _affirmed(clause: str, pattern: re.Pattern) -> bool:
    """``pattern`` occurs in the clause without a negation before it ("not received", "no longer
    awaiting", "unreviewed" deny it)."""
    for m in pattern.finditer(clause):
        if not NEGATOR.search(clause[:m.start()]):
            return True
    return False


def documentation_in(status: str) -> bool:
    """A status saying a claim's documentation has come in, read like a person: "Received – under
    review", "Documentation received; nothing outstanding", "Received – pending review" and "Received –
    no longer awaiting documents" say so; "Not received", "Documentation not yet received",
    "Received? No – documentation still awaited" and "Awaiting documentation" don't."""
    clauses = _clauses(status)
    positive = any(_affirmed(c, IN) for c in clauses)
    awaited = any(_affirmed(c, AWAITED) and (DOCS.search(c) or not IN.search(c) and not re.search(r"(?i)review", c))
                  for c in clauses)
    decided = any(DECIDED.search(c) and not re.search(r"(?i)\byet\b", c) for c in clauses)
    return positive and not awaited and not decided


def tourism_row_updated(ctx):
    """CL-004's amount is the revised claim and its status no longer says documentation is awaited."""
    tab = _claims_tab(ctx.final)
    rows = A.rows(ctx.final, tab)
    r = _row_of(rows, "CL-004")
    if r is None:
        return False, "CL-004 is missing"
    want = tourism_revised_amount(ctx)
    amount = _num(_val(rows[r].get("D")))
    status = str(_val(rows[r].get("E")) or "").strip()
    problems = []
    if amount != want:
        problems.append(f"amount {amount} (want {want:,})")
    if not documentation_in(status):
        problems.append(f"status {status!r} (want one saying the documentation is in)")
    return not problems, "; ".join(problems) or f"CL-004 {amount:,.0f}, {status!r}", A.cell_vouches(ctx, tab, [f"D{r}", f"E{r}"])


def model_third_party_total(export) -> float | None:
    rows = A.rows(export, _claims_tab(export))
    r = _total_row(rows)
    return None if r is None else _num(_val(rows[r].get("D")))


def tourism_mail_to_daniel(ctx):
    """One new mail to Daniel stating the revised claim amount and the third-party total the model
    shows at the end."""
    daniel = "daniel.ortiz@meridianshaw.com"
    revised, tp = tourism_revised_amount(ctx), model_third_party_total(ctx.final)
    good, seen = [], []
    for k, m in ctx.records("mail_messages", which="new").items():
        if m.get("sender") != ALEX or daniel not in (m.get("to") or []) + (m.get("cc") or []):
            continue
        body = m.get("body") or ""
        a, why_a = says_number(body, revised)
        b, why_b = says_number(body, tp) if tp is not None else (False, "no total in the model")
        # Each figure where it belongs: the revised claim by the claim, the total by the total.
        c, why_c = states_by_label(CHANGE_FROM.sub(lambda mm: f"{mm.group(1)}{mm.group(2)}from the earlier figure to",
                                                   body), {"revised claim": (r"revis\w*|\bclaim\b|CL-004", revised),
                                                           "total": (r"\btotal\b", tp)}) if a and b else (False, "")
        seen.append(f"mail {k}: revised {why_a if not a else 'ok'}; total {why_b if not b else 'ok'}"
                    + (f"; {why_c}" if a and b and not c else ""))
        if a and b and c:
            good.append(k)
    if len(good) != 1:
        return False, "; ".join(seen) or "no new mail to Daniel"
    return True, f"mail {good[0]} gives {revised:,} and {tp:,.0f}", [_mail_vouch(good[0])]


def _shift_refs(formula: str, at: int, by: int, tab_name: str, same_tab: bool, axis: str = "col") -> str:
    """``formula`` with its references to ``tab_name`` at or past column (``axis`` col) or row
    (``axis`` row) ``at`` moved ``by`` — what inserting columns or rows there does to it."""
    parts = re.split(r'("[^"]*")', formula)

    def fix(m):
        text = m.group(0)
        prefix = text.split("!")[0].strip("'") if "!" in text else None
        if (prefix is None and not same_tab) or (prefix is not None and prefix != tab_name):
            return text

        def one(mc):
            d1, c, d2, r = mc.groups()
            if axis == "col":
                n = _col_index(c)
                return f"{d1}{_col_letter(n + by) if n >= at else c}{d2}{r}"
            return f"{d1}{c}{d2}{int(r) + by if int(r) >= at else r}"
        head, sep, refs = text.rpartition("!")
        return head + sep + re.sub(r"(\$?)([A-Z]{1,3})(\$?)(\d+)", one, refs)
    return "".join(p if p.startswith('"') else REF.sub(fix, p) for p in parts)


def shifted_formula_vouches(ctx, book: str, tab_name: str, axis: str, at: int, by: int = 1) -> list[Vouch]:
    """Vouches for the formulas of ``book`` that inserting ``by`` rows or columns at ``at`` of
    ``tab_name`` rewrote (their references follow the cells that moved), and nothing else."""
    tabs = {k: t for k, t in A.records(ctx.final, "sheets_tabs").items()
            if str(t["book"]) == str(A.app_key(ctx.final, book, "sheet"))}
    before = A.records(ctx.initial, "sheets_cells")
    out = []
    for k, c in A.records(ctx.final, "sheets_cells").items():
        if str(c["tab"]) not in tabs or k not in before:
            continue
        was, now = str(before[k].get("input") or ""), str(c.get("input") or "")
        if was != now and was.startswith("=") and \
                _shift_refs(was, at, by, tab_name, tabs[str(c["tab"])]["name"] == tab_name, axis) == now:
            out.append(Vouch.of("sheets_cells", k, ("input",)))
    return out


def damages_share_column(ctx):
    """A column inserted just right of Amount (USD) on Claims, headed Share of limit, whose CL-001…
    CL-007 cells are =amount / the limit on the Limit tab, formatted as percentages; the columns to
    its right moved over (formulas that pointed at them follow)."""
    tab = _claims_tab(ctx.final)
    start = A.rows(ctx.initial, _claims_tab(ctx.initial))
    rows = A.rows(ctx.final, tab)
    header = rows.get(1, {})
    amount_col = next((c for c, kc in header.items() if _val(kc) == "Amount (USD)"), None)
    if amount_col is None:
        return False, "no Amount (USD) header"
    col = _col_letter(_col_index(amount_col) + 1)
    nxt = _col_letter(_col_index(amount_col) + 2)
    if str(_val(header.get(col)) or "").strip().lower() != "share of limit":
        return False, f"{col}1 is {_val(header.get(col))!r}, not Share of limit"
    old_next = _val(start.get(1, {}).get(col))
    if _val(header.get(nxt)) != old_next:
        return False, f"{nxt}1 is {_val(header.get(nxt))!r}: the {old_next!r} column was overwritten, not moved right"
    limit_tab = _tab(ctx.final, DAMAGES, "Limit")
    limit_cells = A.rows(ctx.final, limit_tab)
    limit_row = next((r for r, c in limit_cells.items() if _val(c.get("A")) == "Limit"), None)
    limit = _base().copla_limit(ctx)
    bad, vouch = [], [f"{col}1"]
    claim_rows = [r for r, c in rows.items() if re.fullmatch(r"CL-\d{3}", str(_val(c.get("A")) or ""))]
    for r in sorted(claim_rows):
        cell = rows[r].get(col)
        f = _inp(cell)
        refs = _ref_cells(f)
        amount = _num(_val(rows[r].get(amount_col)))
        v = _num(_val(cell))
        fmt = (cell[1].get("format") or {}) if cell else {}
        if not f.startswith("=") or refs != {("", amount_col, r), ("limit", "B", limit_row)} or \
                re.search(r"\d{5,}", _strip_strings(f)) or amount is None or v is None or \
                abs(v - amount / limit) > 1e-9 or fmt.get("type") != "percent":
            bad.append(f"{col}{r}={f!r}→{v} {fmt}")
        vouch.append(f"{col}{r}")
    if bad or len(claim_rows) != 7:
        return False, "; ".join(bad[:3]) or f"{len(claim_rows)} claim rows"
    # The rest of the new column: cells the insert made with the formats of their row and nothing typed.
    for r, c in rows.items():
        if r not in claim_rows and r != 1 and col in c and not _inp(c[col]):
            vouch.append(f"{col}{r}")
    out = A.cell_vouches(ctx, tab, vouch) + A.tab_vouches(ctx, tab)
    # Formulas that pointed at the moved columns follow them (the insert rewrote them).
    out += shifted_formula_vouches(ctx, DAMAGES, "Claims", "col", _col_index(col))
    return True, f"column {col}, {old_next} moved to {nxt}", out


def damages_sorted_by_amount(ctx):
    """The claim rows (whole rows, as they were) in descending order of amount, between the header
    and the total rows, and the totals still add up."""
    tab = _claims_tab(ctx.final)
    start = A.rows(ctx.initial, _claims_tab(ctx.initial))
    rows = A.rows(ctx.final, tab)
    claim_rows = sorted(r for r, c in start.items() if re.fullmatch(r"CL-\d{3}", str(_val(c.get("A")) or "")))

    def whole(cells):
        return tuple(sorted((c, _inp(kc)) for c, kc in cells.items() if _inp(kc)))
    before = sorted(whole(start[r]) for r in claim_rows)
    after = [whole(rows.get(r, {})) for r in claim_rows]
    amounts = [_num(_val(rows.get(r, {}).get("D"))) for r in claim_rows]
    problems = []
    if sorted(after) != before:
        problems.append("the claim rows are not the original rows, whole")
    if None in amounts or amounts != sorted(amounts, reverse=True):
        problems.append(f"amounts {amounts} are not in descending order")
    tp = model_third_party_total(ctx.final)
    if tp != _num(model_third_party_total(ctx.initial)):
        problems.append(f"the third-party total is now {tp}")
    ids = [_val(rows.get(r, {}).get("A")) for r in claim_rows]
    addresses = [f"{c}{r}" for r in claim_rows for c in set(rows.get(r, {})) | set(start.get(r, {}))]
    return not problems, "; ".join(problems) or f"order {ids}", A.cell_vouches(ctx, tab, addresses, moved=True)


# ---------------------------------------------------------------------------- replies with figures
SOURCE_A = re.compile(r"(?i)claims register|damages model")
SOURCE_B = re.compile(r"(?i)notice|vessel particulars|tonnage certificate|calculation|damages model")


def board_reply_to_laura(ctx):
    """One reply to all on Laura's Board pack mail (to Laura, Eleanor copied) stating the third-party
    total and Halcyon's COPLA limit, each with where it comes from."""
    b = _base()
    laura, eleanor = "laura.whitfield@corvane-energy.com", "eleanor.vance@meridianshaw.com"
    threads = {k for k, t in A.records(ctx.final, "mail_threads").items() if "Board pack" in (t.get("subject") or "")}
    tp, limit = b.third_party_total(ctx), b.copla_limit(ctx)
    good, seen = [], []
    for k, m in ctx.records("mail_messages", which="new").items():
        if m.get("sender") != ALEX or str(m.get("thread")) not in threads:
            continue
        to, cc = m.get("to") or [], m.get("cc") or []
        body = m.get("body") or ""
        problems = []
        if laura not in to:
            problems.append("not to Laura")
        if eleanor not in to + cc:
            problems.append("Eleanor not copied (not a reply to all)")
        for label, v in (("third-party total", tp), ("COPLA limit", limit)):
            ok, why = says_number(body, v)
            if not ok:
                problems.append(f"{label}: {why}")
        if not problems:          # each figure where it belongs: the total by the claims, the limit by the limit
            ok, why = states_by_label(body, {"third-party total": (r"third[- ]party|claims presented|claims total", tp),
                                             "COPLA limit": (r"\blimit\b", limit)})
            if not ok:
                problems.append(why)
        if not SOURCE_A.search(body):
            problems.append("no source for the claims total (the claims register)")
        if not SOURCE_B.search(body):
            problems.append("no source for the limit (the tonnage / the 2025 notice)")
        copied = copied_internal(ctx, body, laura)
        if copied:
            problems.append(copied)
        seen.append(f"mail {k}: " + ("; ".join(problems) or "ok"))
        if not problems:
            good.append(k)
    if len(good) != 1:
        return False, "; ".join(seen) or "no reply from you in the Board pack conversation"
    return True, f"mail {good[0]}: {tp:,} and {limit:,}", [_mail_vouch(good[0], laura)]


# What names Alex's total in a reply: "the tracker shows …", "puts me at …", "… in total", "my hours".
HOURS_LABEL = (r"\btotal\b|\btracker (?:now )?(?:shows|has|reads)\b|\bputs me at\b|\bI'?m (?:now )?(?:at|on)\b|"
               r"\bmy hours\b|\bcomes? to\b|\badds? up to\b")


def billing_reply_to_henry(ctx):
    """One reply from you in Henry's Live tracker conversation, to him, stating your total hours as the
    tracker shows them once the entry is in ("from 15.5 to 17.8 hours" states 17.8)."""
    henry = "henry.adeyemi@meridianshaw.com"
    threads = {k for k, t in A.records(ctx.final, "mail_threads").items()
               if "Live tracker – your Friday entry" in (t.get("subject") or "")}
    want = henry_hours(ctx)
    good, seen = [], []
    for k, m in ctx.records("mail_messages", which="new").items():
        if m.get("sender") != ALEX or str(m.get("thread")) not in threads:
            continue
        ok, why = says_number(m.get("body") or "", want, HOURS_LABEL)
        if henry not in (m.get("to") or []):
            ok, why = False, "not to Henry"
        seen.append(f"mail {k}: {why}")
        if ok:
            good.append(k)
    if len(good) != 1:
        return False, "; ".join(seen) or "no reply in Henry's conversation"
    return True, f"mail {good[0]} gives {want:g} hours", [_mail_vouch(good[0])]


# ---------------------------------------------------------------------------- internal text sent out
RUN = 10   # words running: a passage, not a phrase two writers share


def _word_runs(text: str | None) -> set[tuple[str, ...]]:
    return world_module(HERE, "checks_documents")._grams(text, RUN)


def _secret_runs(ctx, address: str) -> set[tuple[str, ...]]:
    """The word runs of the world's mail that ``address`` never had (boilerplate — runs found in three or
    more messages — and what the recipient already had left out)."""
    start = ctx.initial["tables"]["mail_messages"]["records"]
    seen_by: dict[tuple[str, ...], int] = {}
    had, other = set(), set()
    for m in start.values():
        runs = _word_runs(m.get("body"))
        for r in runs:
            seen_by[r] = seen_by.get(r, 0) + 1
        parties = {m.get("sender")} | set(m.get("to") or []) | set(m.get("cc") or []) | set(m.get("bcc") or [])
        (had if address in parties else other).update(runs)
    return {r for r in other - had if seen_by.get(r, 0) < 3}


def copied_internal(ctx, text: str | None, address: str) -> str | None:
    """What ``text`` copies of the world's mail that ``address`` never had ("repeats 2 run(s) of internal
    mail, e.g. '…'"), or None. The runs are worked out once per check context and reader."""
    cache = ctx.__dict__.setdefault("_secret_runs_by_reader", {})
    if address not in cache:
        cache[address] = _secret_runs(ctx, address)
    hits = _word_runs(text) & cache[address]
    return f"repeats {len(hits)} run(s) of internal mail, e.g. {' '.join(sorted(hits)[0])!r}" if hits else None


def internal_passages(ctx, address: str) -> list[str]:
    """Passages of the world's mail that ``address`` never had, copied into the agent's new mail to
    it: a note that pastes an internal (or someone else's privileged) message discloses it as surely as
    forwarding it. Boilerplate (signatures, disclaimers: runs found in three or more messages) and
    what the recipient already had are left out."""
    out = []
    for k, m in ctx.records("mail_messages", which="new").items():
        if address not in (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or []):
            continue
        copied = copied_internal(ctx, m.get("body"), address)
        if copied:
            out.append(f"mail {k} {copied}")
    return out


LAURA = "laura.whitfield@corvane-energy.com"


def _clean_mails_to(ctx, address: str, which) -> tuple[bool, str, list]:
    """The agent's new mails to ``address`` that ``which(mail)`` selects are vouched (``address`` their
    reader) when they copy no passage of mail the reader never had; one that does is named and left
    unvouched, so the guard counts it as a disclosure."""
    vouches, bad = [], []
    for k, m in ctx.records("mail_messages", which="new").items():
        if m.get("sender") != ALEX or address not in (m.get("to") or []) or not which(m):
            continue
        copied = copied_internal(ctx, m.get("body"), address)
        if copied:
            bad.append(f"mail {k} {copied}")
        else:
            vouches.append(_mail_vouch(k, address))
    return not bad, "; ".join(bad) or f"{len(vouches)} mail(s) to {address}, nothing internal in them", vouches


def _in_thread(ctx, words: str):
    threads = {k for k, t in A.records(ctx.final, "mail_threads").items() if words in (t.get("subject") or "")}
    return lambda m: str(m.get("thread")) in threads


MENON = "ravi.menon@menoneconomics.com"


def menon_replied_cleanly(ctx):
    """A reply to Dr. Menon (an outside expert) in his "Friday's call" thread is not asked for; one that
    copies no passage of mail he never had is vouched, one that does is a disclosure."""
    return _clean_mails_to(ctx, MENON, _in_thread(ctx, "Friday's call on the preliminary range"))


DECK_SHARED = re.compile(r"\bshared?\b.*\b(deck|client update)\b|\b(deck|client update)\b.*\bshared?\b", re.I | re.S)


def laura_told_cleanly(ctx):
    """Telling Laura that the deck is shared — in her "the deck itself" thread, or a new mail to her alone
    (Eleanor may be copied) saying so — copies no passage of mail she never had; nor does anything posted
    in the client channel."""
    eleanor = "eleanor.vance@meridianshaw.com"
    in_thread = _in_thread(ctx, "the deck itself")

    def about_the_share(m):
        return in_thread(m) or (set(m.get("to") or []) <= {LAURA, eleanor} and set(m.get("cc") or []) <= {eleanor}
                                and not m.get("bcc") and bool(DECK_SHARED.search(m.get("body") or "")))
    ok, found, vouches = _clean_mails_to(ctx, LAURA, about_the_share)
    chat_ok, chat_found = nothing_internal_to_laura(ctx)
    return ok and chat_ok, found if chat_ok else chat_found, vouches


def nothing_internal_to_laura(ctx):
    """Gate: what the agent sends the client — mail to Laura, a message in the client channel — copies no
    passage of mail she never had (the firm's conflicts circulation, Priya's privileged memo, …)."""
    bad = internal_passages(ctx, LAURA)
    convs = {k for k, c in A.records(ctx.final, "chat_conversations").items() if c.get("name") == "corvane-client"}
    for k, m in ctx.records("chat_messages", which="new").items():
        if m.get("author") == "alex.chen" and str(m.get("conversation")) in convs:
            copied = copied_internal(ctx, m.get("text"), LAURA)
            if copied:
                bad.append(f"message {k} {copied}")
    return not bad, "; ".join(bad) or "nothing internal sent to the client"


def nothing_internal_to_pryce(ctx):
    """Gate: the mail to opposing counsel copies no passage of mail he never had."""
    bad = internal_passages(ctx, "jonathan.pryce@brightwaterkessler.com")
    return not bad, "; ".join(bad) or "no internal passages in the mail to Pryce"


# ---------------------------------------------------------------------------- acting on what a co-worker said
def _said_at(ctx, who: str, pattern: str) -> int | None:
    """The write sequence number of the first chat message ``who`` posted in the episode matching
    ``pattern`` (when the request or the answer arrived), else None."""
    new = ctx.records("chat_messages", which="new")
    for w in ctx.final.get("writes", []):
        if w["table"] == "chat_messages" and w["op"] == "insert" and w["key"] in new:
            m = new[w["key"]]
            if m.get("author") == who and re.search(pattern, m.get("text") or "", re.I):
                return w["seq"]
    return None


def _acted_after(ctx, who: str, pattern: str, table: str, keys: set[str], fields: set[str], what: str):
    """Gate: the agent's last write of ``fields`` to (or insert of) one of ``keys`` came after ``who``
    said ``pattern`` — done once they had said it, not guessed beforehand (a memorised answer)."""
    said = _said_at(ctx, who, pattern)
    if said is None:
        return False, f"{who} never said it"
    seen = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
    done = [w["seq"] for w in ctx.final.get("writes", []) if w["seq"] > seen and w["table"] == table
            and w["key"] in keys and w["actor"] == "agent" and (w["op"] == "insert" or fields & set(w["fields"]))]
    if not done:
        return False, f"the agent never {what}"
    if max(done) < said:
        return False, f"the agent {what} (write {max(done)}) before {who} said it (write {said})"
    return True, f"the agent {what} after {who} said it"


def pinned_after_eleanor_asked(ctx):
    """Gate: the agent pinned the Key dates message after Eleanor's request came (a pin made before she
    asked is a guess at what she would ask, not doing what she asked)."""
    target = {k for k, m in ctx.records("chat_messages").items()
              if m.get("author") == "eleanor.vance" and "Key dates — M-2026-0147" in (m.get("text") or "")}
    return _acted_after(ctx, "eleanor.vance", r"\bpin\b", "chat_messages", target, {"pinned"},
                        "pinned the Key dates message")


def objection_event_after_tom_answered(ctx):
    """Gate: the "File objection to the fund" event was made (or moved) once Tom had answered (an event
    made before he said when — a memorised date — and only then asked about is not done as asked)."""
    events = {k for k, e in ctx.records("cal_events", which="new").items()
              if re.fullmatch(r"(?i)\s*file objection to the fund\s*", e.get("title") or "")}
    return _acted_after(ctx, "tom.becker", r"15 April at 3:00 pm", "cal_events", events, {"start", "end"},
                        "set the objection event")


# ---------------------------------------------------------------------------- labels kept
def labels_kept(ctx):
    """Gate: every conversation keeps the labels it had (a task that files mail under a label adds it;
    it doesn't strip the labels already there)."""
    before = ctx.initial["tables"]["mail_boxes"]["records"]
    lost = []
    for k, b in ctx.records("mail_boxes", which="changed").items():
        was = set((before.get(k) or {}).get("labels") or [])
        gone = was - set(b.get("labels") or [])
        if gone:
            lost.append(f"mailbox row {k} lost label(s) {sorted(gone)}")
    return not lost, "; ".join(lost[:5]) or "no label removed"


# ---------------------------------------------------------------------------- a place or a date stated, not denied
# What sets a value aside besides what the answer reader's ``negated`` sees ("NOT at Harbour Exchange",
# "not on 7 May"): a change away from it ("postponed from 7 May", "switched away from Harbour
# Exchange"), "instead of" / "rather than" right before it, or a denial after it ("Harbour Exchange is
# no longer the venue", "… is cancelled").
MOVED_FROM = re.compile(r"(?i)\b(?:(?:postpon|mov|chang|push|cancel|switch)\w*\s+(?:away\s+)?(?:from\s+)?|instead\s+of\s+|"
                        r"rather\s+than\s+|nor\s+)$")
DENY_AFTER = re.compile(r"(?i)^[^.;!?\n]{0,60}?\b(?:is|are|was|will\s+be|has\s+been)\s+(?:no\s+longer|not|cancel\w*|off)\b|"
                        r"^[^.;!?\n]{0,20}?\b(?:is\s+)?(?:cancel\w*|unavailable|closed)\b")


def _affirmed_at(text: str, spans) -> bool:
    """The value written at one of ``spans`` of ``text`` is named as it, not set aside."""
    return any(not negated(text, Cand(s, e, None)) and not MOVED_FROM.search(text[max(0, s - 30):s])
               and not DENY_AFTER.search(text[e:]) for s, e in spans)


def place_affirmed(text: str, place: str) -> bool:
    """``place`` is named as where something is, not denied: "We will NOT be at Harbour Exchange" and
    "Harbour Exchange is no longer the venue" deny it; "at Harbour Exchange — not Corvane HQ" names it."""
    text = text or ""
    return _affirmed_at(text, [m.span() for m in re.finditer(re.escape(place), text, re.I)])


def date_affirmed(text: str, want, today) -> bool:
    """``want`` is written in the text and at least once not set aside ("NOT on 7 May", "postponed
    from 7 May", "no longer 7 May" set it aside) — the answer reader lets a lone "postponed from" through."""
    text = text or ""
    return _affirmed_at(text, [(c.start, c.end) for c in date_cands(text, today) if c.value == want])


def _mediation_channels(ctx) -> dict[str, dict]:
    return {k: c for k, c in ctx.records("chat_conversations", which="new").items() if c.get("name") == "aurelia-mediation"}


def mediation_location_affirmed(ctx):
    """Gate: the channel's message states the mediation's place as where it is (a message that denies
    it — "we will NOT be at Harbour Exchange" — states another place or none). No message yet denies
    nothing (the task's own check wants the message; a day stopped before it isn't zeroed)."""
    convs = set(_mediation_channels(ctx))
    msgs = {k: m for k, m in ctx.records("chat_messages", which="new").items() if str(m.get("conversation")) in convs}
    if not msgs:
        return True, "no message in #aurelia-mediation yet (nothing denies the place)"
    bad = [k for k, m in msgs.items() if re.search(r"(?i)harbour exchange", m.get("text") or "")
           and not place_affirmed(m.get("text"), "Harbour Exchange")]
    return not bad, (f"message(s) {bad} deny Harbour Exchange" if bad else "the location is stated")


def mediation_topic_affirmed(ctx):
    """Gate: a topic the new channel has gives the mediation's date as its date, not denied (no
    topic yet denies nothing: the task's own check wants it)."""
    topics = [c.get("topic") or "" for c in _mediation_channels(ctx).values()]
    ok = all(not t.strip() or date_affirmed(t, date(2026, 5, 7), _today(ctx)) for t in topics)
    return ok, f"topic(s) {topics!r}"


# ---------------------------------------------------------------------------- a deadline, read as a date
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = re.compile(r"(?i)\b(?:(this|next|coming)\s+)?(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b\.?")
END_OF_WEEK = re.compile(r"(?i)\b(?:the\s+)?end\s+of\s+(?:the|this)\s+week\b|\bby\s+(?:the\s+)?(?:week'?s\s+end|eow|cob\s+friday)\b")
BY = re.compile(r"(?i)\b(?:by|before|no\s+later\s+than|until|till|ahead\s+of|on\s+or\s+before|end\s+of|deadline|due|latest)\b")
SET_ASIDE = re.compile(r"(?i)\b(?:no\s+need|(?:do|does|did)\s*n[o']t\s+need|needn't|not\s+need|no\s+rush|no\s+hurry|not\s+necessary|"
                       r"not\s+required|rather\s+than|instead\s+of|no\s+deadline)\b|\bnot\s+(?:by|before|until|on)\s*$|\bnot\s*$")
OTHER_BUSINESS = re.compile(r"(?i)\bfil(?:e|ed|ing)\b|\bhearing\b|\bcourt\b|\bserve\b")
ASKING = re.compile(r"(?i)\bcomment|\breview|\bthoughts|\bfeedback|\bthem\b|\bback to (?:us|me)\b|\bturn\b|\bmark.?up")
PART = re.compile(r"(?i)[,()]|\b(?:before|ahead\s+of|after|when|so|and|which)\b")


def _other_business(sent: str, pos: int) -> bool:
    """The date at ``pos`` is another event's ("… by Friday, before we file on 15 April", "ahead of the
    15 April filing"): the part of the sentence it stands in is about filing or a hearing, not the ask."""
    cuts = list(PART.finditer(sent))
    lo = max([m.end() for m in cuts if m.end() <= pos] + [0])
    hi = min([m.start() for m in cuts if m.start() > pos] + [len(sent)])
    return bool(OTHER_BUSINESS.search(sent[lo:hi]) and not ASKING.search(sent[lo:hi]))


def _this_friday(today: date) -> date:
    return today + timedelta(days=(4 - today.weekday()) % 7)


def _weekday_date(m: re.Match, today):
    word, day = (m.group(1) or "").lower(), m.group(2).lower()[:3]
    n = [w[:3] for w in WEEKDAYS].index(day)
    ahead = (n - today.weekday()) % 7 or 7
    if word == "next" and ahead < 7:
        return None                       # "next Friday" on a Monday: this week's or the week after? unclear
    return today + timedelta(days=ahead)


def deadline_stated(text: str, want, today) -> tuple[bool, str]:
    """The text asks for something by ``want`` — "by Friday", "by Fri 10 Apr", "by April 10th", "by the
    end of the week" — and names no other deadline for it: "by Friday 17 April", "by Friday or Monday",
    "you don't need to comment by Friday" and "next Friday" (which?) don't; the filing's own date beside
    it ("by Friday, before we file on 15 April") is not a deadline for her."""
    friday = _this_friday(today)
    good, bad = [], []
    for sent in re.split(r"(?<=[.!?])\s+|\n+|;|\s[—–]\s|,?\s+(?=(?:so|but|while|then)\b)", text or ""):
        if not BY.search(sent) or (OTHER_BUSINESS.search(sent) and not ASKING.search(sent)):
            continue
        dates = date_cands(sent, today)
        values = [(c.start, c.value) for c in dates]
        for m in WEEKDAY.finditer(sent):
            if any(c.start <= m.start() < c.end for c in dates):
                continue
            near = date_cands(sent[m.end():m.end() + 20], today)
            if near and near[0].start <= 3:
                continue                   # "Friday 10 April": the date says which Friday
            values.append((m.start(), _weekday_date(m, today)))
        values += [(m.start(), friday) for m in END_OF_WEEK.finditer(sent)]
        for pos, v in values:
            if SET_ASIDE.search(sent[:pos]) or _other_business(sent, pos):
                continue
            (good if v == want else bad).append(f"{v}" if v else "an unclear day")
    if bad:
        return False, f"another or unclear deadline ({', '.join(bad)}) in {text[:100]!r}"
    if not good:
        return False, f"no deadline of {want} in {text[:100]!r}"
    return True, f"asks by {want}"


def objection_note_to_laura(ctx):
    """One new mail to Laura asking for her comments by Friday (10 April, read as a date), with the
    draft inserted from Drive (the draft's attachment vouched for, and no other: anything else attached
    reaches the client unrequired)."""
    today = _today(ctx)
    want = _this_friday(today)
    laura = "laura.whitfield@corvane-energy.com"
    draft = {k for k, it in ctx.records("drive_items").items() if it.get("name") == "Objection to Amount of Limitation Fund – DRAFT"}
    atts = ctx.records("mail_attachments")
    good, seen = [], []
    for k, m in ctx.records("mail_messages", which="new").items():
        if m.get("sender") != ALEX or laura not in (m.get("to") or []):
            continue
        inserts = [a for a, r in atts.items() if str(r.get("message")) == k and str(r.get("drive_item")) in draft]
        body = m.get("body") or ""
        ok_d, why = deadline_stated(body, want, today)
        inserted = len(inserts) == 1
        asks = re.search(r"(?i)\bcomment", body) is not None
        seen.append(f"mail {k}: {why}; {'draft inserted' if inserted else 'no draft inserted'}; "
                    f"{'asks for comments' if asks else 'no comments asked for'}")
        if ok_d and inserted and asks:
            good.append((k, inserts[0]))
    if len(good) != 1:
        return False, "; ".join(seen) or "no new mail to Laura"
    (k, att), = good
    return True, seen[0] if len(seen) == 1 else f"mail {k}", [_mail_vouch(k, laura), Vouch.of("mail_attachments", att)]


# ---------------------------------------------------------------------------- the claims bar date's note
def bar_date_note(ctx):
    """The agent's claims bar date keeps a true note: an edited (or new) description may give the order
    it comes from and set the draft order's date aside (22 May in the published world), but must not state
    that date (or any day but the order's Claims Deadline) as the bar date. Vouches for the description it read."""
    today = _today(ctx)
    right, order_day = _base().claims_deadline(ctx), date(2026, 4, 1)
    before = ctx.initial["tables"]["cal_events"]["records"]
    vouches, bad = [], []
    for k, e in ctx.records("cal_events", which="changed").items():
        if "claims bar date" not in (e.get("title") or "").lower() or e.get("organizer") != "alex.chen":
            continue
        note = e.get("description") or ""
        if k in before and note == (before[k].get("description") or ""):
            continue
        for c in date_cands(note, today):
            if c.value in (right, order_day):
                continue
            if negated(note, c) or re.search(r"(?i)draft|earlier|previous|was\b|had\b|originally|from\s*$",
                                               note[max(0, c.start - 40):c.start]):
                continue
            bad.append(f"event {k}'s note gives {c.value}")
        vouches.append(Vouch.of("cal_events", k, ["description"]))
    return not bad, "; ".join(bad) or "the note states no other bar date", ([] if bad else vouches)

