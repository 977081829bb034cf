"""Answers computed from the meridian world's own files, so an edit to the data
room can't silently make a task's expected answer wrong.

Each function takes the verifier's context (``ctx.world_root`` is this folder)
and returns the expected value. Pure: they only read files.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

MATTER = Path("drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)")


def _read(ctx, rel: str) -> str:
    return (Path(ctx.world_root) / MATTER / rel).read_text(encoding="utf-8")


def _money(text: str) -> int:
    return int(text.replace("$", "").replace(",", ""))


def gross_tonnage(ctx) -> int:
    text = _read(ctx, "02 Vessel & Casualty/Vessel Particulars – MT Aurelia Dawn.pdf.md")
    m = re.search(r"\*\*Gross tonnage \(GT\)\*\*\s*\|\s*\*\*([\d,]+)\*\*", text)
    return _money(m.group(1))


def rate_2025(ctx) -> int:
    """Per-gross-ton amount for a double-hull tank vessel over 3,000 GT from July 1, 2025."""
    text = _read(ctx, "03 Statutes & Regulations/COPLA Inflation Adjustment Notice (2025).pdf.md")
    m = re.search(r"§ 7\(a\)\(1\).*?Greater of \$[\d,]+ per gross ton.*?Greater of (\$[\d,]+) per gross ton", text)
    return _money(m.group(1))


def minimum_2025(ctx) -> int:
    text = _read(ctx, "03 Statutes & Regulations/COPLA Inflation Adjustment Notice (2025).pdf.md")
    m = re.search(r"§ 7\(a\)\(1\).*?Greater of \$[\d,]+ per gross ton or \$[\d,]+.*?"
                  r"Greater of \$[\d,]+ per gross ton or (\$[\d,]+)", text)
    return _money(m.group(1))


def copla_limit(ctx) -> int:
    return max(gross_tonnage(ctx) * rate_2025(ctx), minimum_2025(ctx))


def fund_constituted(ctx) -> int:
    text = _read(ctx, "01 Pleadings/Halcyon Complaint for Exoneration or Limitation (2026-03-30).pdf.md")
    m = re.search(r"in the amount of \*\*(\$[\d,]+)\*\*, constituting a limitation fund", text)
    return _money(m.group(1))


def fund_shortfall(ctx) -> int:
    return copla_limit(ctx) - fund_constituted(ctx)


def _claims(ctx) -> list[dict]:
    with open(Path(ctx.world_root) / MATTER / "04 Claims/Claims Register.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if not r["Status"].lower().startswith("withdrawn")]


def third_party_total(ctx) -> int:
    return sum(int(r["Amount (USD)"]) for r in _claims(ctx) if "not third-party" not in r["Category"] + r["Notes"])


def all_claims_total(ctx) -> int:
    return sum(int(r["Amount (USD)"]) for r in _claims(ctx))


def deductible(ctx) -> int:
    text = _read(ctx, "07 Insurance/Harbor Crest Marine Liability Policy – Declarations.pdf.md")
    section = text.split("### Item 2. Deductible", 1)[1]
    return _money(re.search(r"\$[\d,]+", section).group(0))


def gross_tonnage_is_58400(ctx) -> tuple[bool, str]:
    """A named check, as tasks use for what the vocabulary can't say."""
    gt = gross_tonnage(ctx)
    return gt == 58400, f"GT {gt}"


# ---------------------------------------------------------------- reading the apps' state at the end
# Checks that look at Docs and Sheets read the final export (ctx.final), as any check does.

def _recs(ctx, table: str) -> dict[str, dict]:
    return ctx.final["tables"][table]["records"]


def _item_key(ctx, name: str, kind: str) -> str | None:
    for key, rec in _recs(ctx, "drive_items").items():
        if rec["name"] == name and rec["kind"] == kind and not rec.get("trashed"):
            return key
    return None


def _app_ref(ctx, name: str, kind: str, table: str) -> str | None:
    item = _item_key(ctx, name, kind)
    if item is None:
        return None
    return next((k for k, r in _recs(ctx, table).items() if str(r["item"]) == item), None)


def doc_blocks(ctx, title: str) -> list[dict]:
    doc = _app_ref(ctx, title, "doc", "docs_documents")
    if doc is None:
        return []
    return sorted((b for b in _recs(ctx, "docs_blocks").values() if str(b["doc"]) == doc), key=lambda b: b["seq"])


def _doc_blocks_of(export: dict, title: str) -> list[dict]:
    t = export["tables"]
    item = next((k for k, r in t["drive_items"]["records"].items() if r["name"] == title and r["kind"] == "doc"), None)
    doc = next((k for k, r in t["docs_documents"]["records"].items() if str(r["item"]) == item), None)
    return sorted((b for b in t["docs_blocks"]["records"].values() if str(b["doc"]) == doc), key=lambda b: b["seq"])


def rewritten_blocks(ctx, title: str) -> list[str]:
    """Texts of the document's blocks at the start that are no longer in it (edited or deleted)."""
    from collections import Counter
    before = Counter(b["text"] for b in _doc_blocks_of(ctx.initial, title))
    after = Counter(b["text"] for b in _doc_blocks_of(ctx.final, title))
    return list((before - after).elements())


def only_rewrote(ctx, title: str, *starts: str) -> str | None:
    """None if every block edited or deleted began with one of ``starts``; else what else changed."""
    other = [t for t in rewritten_blocks(ctx, title) if not t.startswith(starts)]
    return None if not other else f"other text was changed too: {other[0][:80]!r}"


def doc_section(ctx, title: str, heading: str) -> list[dict] | None:
    """The blocks under a heading, up to the next heading of the same or a higher level."""
    blocks = doc_blocks(ctx, title)
    for i, b in enumerate(blocks):
        if b["type"] == "heading" and b["text"].strip().lower() == heading.lower():
            out = []
            for nb in blocks[i + 1:]:
                if nb["type"] in ("heading", "title") and nb["level"] <= b["level"]:
                    break
                out.append(nb)
            return out
    return None


def headings(ctx, title: str) -> list[str]:
    return [b["text"].strip() for b in doc_blocks(ctx, title) if b["type"] == "heading"]


def sheet_cells(ctx, title: str, tab: str) -> dict[str, dict]:
    """The cells of one tab of a spreadsheet, by address ("D3")."""
    book = _app_ref(ctx, title, "sheet", "sheets_books")
    if book is None:
        return {}
    tab_key = next((k for k, t in _recs(ctx, "sheets_tabs").items() if str(t["book"]) == book and t["name"] == tab), None)
    return {c["a1"]: c for c in _recs(ctx, "sheets_cells").values() if str(c["tab"]) == tab_key}


def _col(a1: str) -> str:
    return re.match(r"[A-Z]+", a1).group(0)


def _row(a1: str) -> int:
    return int(re.search(r"\d+", a1).group(0))


def sheet_rows(ctx, title: str, tab: str) -> dict[int, dict[str, dict]]:
    """Rows of a tab: row number -> {column letter: cell}."""
    out: dict[int, dict[str, dict]] = {}
    for a1, c in sheet_cells(ctx, title, tab).items():
        out.setdefault(_row(a1), {})[_col(a1)] = c
    return out


def row_where(ctx, title: str, tab: str, col: str, text: str) -> dict[str, dict] | None:
    """The first row whose cell in ``col`` shows ``text`` (case-insensitive)."""
    for r, cells in sorted(sheet_rows(ctx, title, tab).items()):
        c = cells.get(col)
        if c and str(c.get("display", "")).strip().lower() == text.lower():
            return cells
    return None


def _v(cell: dict | None):
    return None if cell is None else cell.get("value")


def new_mail_to(ctx, address: str) -> list[dict]:
    return [m for m in ctx.records("mail_messages", which="new").values()
            if address in (m.get("to") or []) + (m.get("cc") or [])]


def numbers_in(text: str) -> set[float]:
    """Every number written in a text: "$1,104", "4.3 million" -> 4300000, "12.5"."""
    out = set()
    for m in re.finditer(r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(million|m\b)?", text, re.I):
        n = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        if m.group(3):
            n *= 1_000_000
        out.add(round(n, 4))
    return out


def _doc_key(ctx, title: str) -> str | None:
    return _app_ref(ctx, title, "doc", "docs_documents")


def _book_tabs(ctx, title: str) -> set[str]:
    book = _app_ref(ctx, title, "sheet", "sheets_books")
    return {k for k, t in _recs(ctx, "sheets_tabs").items() if str(t["book"]) == book}


def _has_money(text: str, amount: int) -> bool:
    return float(amount) in numbers_in(text)


OBJECTION = "Objection to Amount of Limitation Fund – DRAFT"
OBJECTION_HEADINGS = ["Introduction", "Background", "The Applicable Limit", "The Shortfall", "Relief Requested"]


def objection_shortfall_written(ctx):
    """The Shortfall section states the fund, the limit and the difference, and the draft keeps its shape."""
    section = doc_section(ctx, OBJECTION, "The Shortfall")
    hs = headings(ctx, OBJECTION)
    if section is None or hs != OBJECTION_HEADINGS:
        return False, f"headings {hs}"
    text = "\n".join(b["text"] for b in section)
    need = {"fund": fund_constituted(ctx), "limit": copla_limit(ctx), "shortfall": fund_shortfall(ctx)}
    missing = [k for k, v in need.items() if not _has_money(text, v)]
    if "[Alex to draft" in text or missing or not text.strip():
        return False, f"section text {text[:160]!r}; missing {missing}"
    other = only_rewrote(ctx, OBJECTION, "[Alex to draft")
    if other:
        return False, other
    return True, f"section states {sorted(need.values())}", {"docs_documents": {_doc_key(ctx, OBJECTION)}}


CLAIM_V2 = "Corvane Claim in Limitation – DRAFT v2"


def claim_v2_figures_filled(ctx):
    """¶ 12 and the prayer for relief of claim v2 carry the rate, tonnage, limit and shortfall; no blanks left there."""
    blocks = doc_blocks(ctx, CLAIM_V2)
    p12 = next((b["text"] for b in blocks if "The fund is inadequate" in b["text"]), "")
    prayer = next((b["text"] for b in blocks if b["text"].startswith("WHEREFORE")), "")
    problems = []
    for amount in (rate_2025(ctx), gross_tonnage(ctx), copla_limit(ctx), fund_shortfall(ctx)):
        if not _has_money(p12, amount):
            problems.append(f"¶ 12 lacks {amount:,}")
    if "[AC:" in p12 or "[____" in p12:
        problems.append("¶ 12 still has blanks")
    if not _has_money(prayer, fund_shortfall(ctx)) or "[____" in prayer:
        problems.append("the prayer (c) lacks the shortfall")
    if not any("[date]" in b["text"] for b in blocks):
        problems.append("the [date] blanks were filled too (leave them for signing)")
    other = only_rewrote(ctx, CLAIM_V2, "The fund is inadequate", "WHEREFORE")
    if other:
        problems.append(other)
    if problems:
        return False, "; ".join(problems)
    return True, "¶ 12 and the prayer are complete", {"docs_documents": {_doc_key(ctx, CLAIM_V2)}}


PRYCE_LETTER = "Letter to J. Pryce re Limitation Fund – DRAFT"


def pryce_letter_filled(ctx):
    blocks = doc_blocks(ctx, PRYCE_LETTER)
    text = "\n".join(b["text"] for b in blocks)
    left = [t for t in ("[limit]", "[fund]", "[shortfall]", "[date]") if t in text]
    p2 = next((b["text"] for b in blocks if b["text"].startswith("The limit.")), "")
    p3 = next((b["text"] for b in blocks if b["text"].startswith("The fund.")), "")
    ask = next((b["text"] for b in blocks if b["text"].startswith("We ask that Owners")), "")
    problems = [f"{t} still in the letter" for t in left]
    if not _has_money(p2, copla_limit(ctx)):
        problems.append("¶ 2 lacks the limit")
    if not (_has_money(p3, fund_constituted(ctx)) and _has_money(p3, fund_shortfall(ctx))):
        problems.append("¶ 3 lacks the fund or the shortfall")
    if not (_has_money(ask, fund_shortfall(ctx)) and _has_money(ask, copla_limit(ctx))):
        problems.append("the request lacks the shortfall or the limit")
    if not any(re.fullmatch(r"(April 6, 2026|6 April 2026|2026-04-06)", b["text"].strip()) for b in blocks):
        problems.append("the letter is not dated today")
    other = only_rewrote(ctx, PRYCE_LETTER, "[date]", "The limit.", "The fund.", "We ask that Owners")
    if other:
        problems.append(other)
    if problems:
        return False, "; ".join(problems)
    return True, "letter complete", {"docs_documents": {_doc_key(ctx, PRYCE_LETTER)}}


def objection_cites_northgate(ctx):
    section = doc_section(ctx, OBJECTION, "The Applicable Limit") or []
    text = "\n".join(b["text"] for b in section)
    ok = "Northgate" in text and re.search(r"2019\s+PCAC\s+27", text) is not None
    if headings(ctx, OBJECTION) != OBJECTION_HEADINGS:
        return False, f"headings changed: {headings(ctx, OBJECTION)}"
    if not ok:
        return False, "no Northgate Shipping citation (2019 PCAC 27) under The Applicable Limit"
    other = only_rewrote(ctx, OBJECTION, "Halcyon's only answer")
    if other:
        return False, other
    for phrase in ("does not affect the limit applicable to an incident", "Nor is there any retroactivity",
                   "limit of liability (the greater of the two)"):
        if phrase not in text:
            return False, f"the section lost its text: {phrase!r} is gone"
    return True, "cited", {"docs_documents": {_doc_key(ctx, OBJECTION)}}


SETTLEMENT = "Draft Settlement and Release – Calder Bay Fishermen's Cooperative (DRAFT)"


def settlement_subordination_removed(ctx):
    blocks = doc_blocks(ctx, SETTLEMENT)
    clause5 = next((b["text"] for b in blocks if "Ranking in the Limitation Proceeding" in b["text"]), None)
    if clause5 is None:
        return False, "clause 5 is gone"
    if "rank after" in clause5:
        return False, f"clause 5 still offers subordination: {clause5[-120:]!r}"
    if "17,300,000" not in clause5 or "Each Party shall prove its own claim" not in clause5:
        return False, f"clause 5 lost its agreed text: {clause5!r}"
    other = only_rewrote(ctx, SETTLEMENT, "Ranking in the Limitation Proceeding")
    if other:
        return False, other
    return True, "option deleted, clause kept", {"docs_documents": {_doc_key(ctx, SETTLEMENT)}}


def exhibit_list_doc(ctx):
    """A new Doc in 06 Internal Memos listing the hearing exhibits A–G."""
    memos = next((k for k, r in _recs(ctx, "drive_items").items() if r["name"] == "06 Internal Memos"), None)
    for key, it in ctx.records("drive_items", which="new").items():
        if it["kind"] != "doc" or it.get("trashed") or str(it.get("parent")) != memos:
            continue
        if "exhibit" not in it["name"].lower():
            continue
        blocks = doc_blocks(ctx, it["name"])
        items = [b["text"] for b in blocks if b["type"] in ("numbered", "bullet")]
        joined = " ".join(items).lower()
        want = ["vessel particulars", "7, 9", "2025-02", "2022-01", "complaint", "brightwater kessler", "letter"]
        missing = [w for w in want if w not in joined]
        if len(items) >= 7 and not missing:
            doc = _app_ref(ctx, it["name"], "doc", "docs_documents")
            return True, f"“{it['name']}” lists {len(items)} exhibits", {"drive_items": {key}, "docs_documents": {doc}}
        return False, f"“{it['name']}”: {len(items)} list items, missing {missing}"
    return False, "no new document with 'Exhibit' in its name in 06 Internal Memos"


# ---------------------------------------------------------------- Sheets
DAMAGES = "Damages Model – Aurelia Dawn"
BILLING = "Billing Tracker – M-2026-0147 (live)"


def port_calder_invoices_total(ctx) -> int:
    text = (Path(ctx.world_root) / "mail/2026-03-18-port-calder-invoice-summary.yaml").read_text(encoding="utf-8")
    m = re.search(r"[Tt]otal[^$\n]*\$([\d,]+)", text)
    return _money(m.group(1))


def damages_port_calder_fixed(ctx):
    row = row_where(ctx, DAMAGES, "Claims", "A", "CL-002")
    total = row_where(ctx, DAMAGES, "Claims", "A", "Third-party total")
    want = port_calder_invoices_total(ctx)
    if row is None or total is None:
        return False, "the CL-002 or third-party total row is missing"
    amount, tp = _v(row.get("D")), _v(total.get("D"))
    expected_tp = third_party_total(ctx)
    ok = amount == want and tp == expected_tp and str(total["D"]["input"]).startswith("=")
    return ok, f"CL-002 {amount}, third-party total {tp} (want {want} and {expected_tp}, still a formula)", \
        {"sheets_tabs": _book_tabs(ctx, DAMAGES)}


def _entries(ctx) -> dict[int, dict[str, dict]]:
    return sheet_rows(ctx, BILLING, "Entries")


def billing_friday_entry(ctx):
    """The 3 April entry is in the tracker, laid out like the others, and Henry has the new hour total."""
    rows = _entries(ctx)
    hit = None
    for r, cells in rows.items():
        if str(_v(cells.get("A"))) == "2026-04-03" and _v(cells.get("B")) == "Alex Chen" and _v(cells.get("F")) == 2.3:
            hit = (r, cells)
    if hit is None:
        return False, "no row dated 2026-04-03 for Alex Chen with 2.3 hours"
    r, cells = hit
    problems = []
    if _v(cells.get("C")) != "Associate" or _v(cells.get("D")) != "L210" or _v(cells.get("G")) != 480:
        problems.append("role, task code or rate differ from the request")
    amount = cells.get("H") or {}
    if not str(amount.get("input", "")).replace(" ", "").upper().startswith("=") or _v(amount) != 1104:
        problems.append(f"Amount is {amount.get('input')!r} = {_v(amount)}, not a formula giving 1,104")
    by = row_where(ctx, BILLING, "By timekeeper", "A", "Alex Chen")
    hours = _v(by.get("D")) if by else None
    if hours is None or abs(hours - sum(_v(c.get("F")) or 0 for c in rows.values()
                                        if _v(c.get("B")) == "Alex Chen")) > 1e-9:
        problems.append(f"the By timekeeper total ({hours}) doesn't count the new row")
    replies = [m for m in new_mail_to(ctx, "henry.adeyemi@meridianshaw.com")]
    if not any(hours is not None and round(hours, 4) in numbers_in(m.get("body", "")) for m in replies):
        problems.append(f"no reply to Henry stating {hours} hours")
    if problems:
        return False, "; ".join(problems)
    return True, f"row {r}, {hours} hours reported", {"sheets_tabs": _book_tabs(ctx, BILLING)}


def tourism_claim_updated(ctx):
    row = row_where(ctx, DAMAGES, "Claims", "A", "CL-004")
    total = row_where(ctx, DAMAGES, "Claims", "A", "Third-party total")
    if row is None or total is None:
        return False, "CL-004 or the third-party total row is missing"
    problems = []
    if _v(row.get("D")) != 4310000:
        problems.append(f"CL-004 amount is {_v(row.get('D'))}")
    status = str(_v(row.get("E")) or "")
    if "requested" in status.lower():
        problems.append(f"status still says {status!r}")
    tp = _v(total.get("D"))
    mails = new_mail_to(ctx, "daniel.ortiz@meridianshaw.com")
    if not any(4310000.0 in numbers_in(m.get("body", "")) and tp is not None and float(tp) in numbers_in(m.get("body", ""))
               for m in mails):
        problems.append(f"no mail to Daniel with 4,310,000 and the model's third-party total {tp:,}" if tp else "no total")
    if problems:
        return False, "; ".join(problems)
    sent = {k for k, m in ctx.records("mail_messages", which="new").items()
            if "daniel.ortiz@meridianshaw.com" in (m.get("to") or []) + (m.get("cc") or [])}
    return True, f"CL-004 4,310,000; Daniel told {tp:,}", {"sheets_tabs": _book_tabs(ctx, DAMAGES), "mail_messages": sent}


def billing_total_row(ctx):
    rows = _entries(ctx)
    entries = [c for r, c in rows.items() if r > 1 and isinstance(_v(c.get("F")), (int, float))
               and not str(_v(c.get("A")) or "").lower().startswith("total") and _v(c.get("B"))]
    hours = round(sum(_v(c["F"]) for c in entries), 6)
    amount = round(sum(_v(c["F"]) * _v(c["G"]) for c in entries), 6)
    for r, c in rows.items():
        label = " ".join(str(_v(x) or "") for x in c.values() if isinstance(_v(x), str)).lower()
        if "total" not in label:
            continue
        f, h = c.get("F") or {}, c.get("H") or {}
        if "SUM(" in str(f.get("input", "")).upper() and "SUM(" in str(h.get("input", "")).upper() \
                and abs((_v(f) or 0) - hours) < 1e-6 and abs((_v(h) or 0) - amount) < 1e-6:
            return True, f"row {r}: {hours} h, ${amount:,.2f}", {"sheets_tabs": _book_tabs(ctx, BILLING)}
        return False, f"row {r} says total but F={f.get('input')!r}→{_v(f)}, H={h.get('input')!r}→{_v(h)} " \
                      f"(want SUMs giving {hours} and {amount})"
    return False, "no Total row in Entries"


def damages_sorted_by_amount(ctx):
    rows = sheet_rows(ctx, DAMAGES, "Claims")
    ids = [_v(rows.get(r, {}).get("A")) for r in range(2, 9)]
    amounts = [_v(rows.get(r, {}).get("D")) for r in range(2, 9)]
    expected = sorted([f"CL-00{i}" for i in range(1, 8)])
    tp = row_where(ctx, DAMAGES, "Claims", "A", "Third-party total")
    third = sum(a for r, a in zip(range(2, 9), amounts) if _v(rows.get(r, {}).get("F")) == "Third party")
    ok = sorted(str(i) for i in ids) == expected and amounts == sorted(amounts, reverse=True) \
        and tp is not None and _v(tp.get("D")) == third          # the totals still add up after the sort
    return ok, f"ids {ids}, amounts {amounts}", {"sheets_tabs": _book_tabs(ctx, DAMAGES)}


def damages_share_column(ctx):
    """A 'Share of limit' column: each claim's amount over the COPLA limit, as a percent formula."""
    rows = sheet_rows(ctx, DAMAGES, "Claims")
    header = rows.get(1, {})
    col = next((k for k, c in header.items() if "share of limit" in str(_v(c)).lower()), None)
    if col is None:
        return False, "no 'Share of limit' column header in row 1"
    limit = copla_limit(ctx)
    bad = []
    for r in range(2, 9):
        cells = rows.get(r, {})
        amount, share = _v(cells.get("D")), cells.get(col) or {}
        want = amount / limit if isinstance(amount, (int, float)) else None
        if want is None or not str(share.get("input", "")).startswith("=") or not isinstance(_v(share), (int, float)) \
                or abs(_v(share) - want) > 1e-9 or (share.get("format") or {}).get("type") != "percent":
            bad.append(f"{col}{r}={share.get('input')!r}→{_v(share)} {share.get('format')}")
    status_col = next((k for k, c in header.items() if str(_v(c)) == "Status"), None)
    if bad:
        return False, "; ".join(bad[:3])
    return True, f"column {col}, Status in {status_col}", {"sheets_tabs": _book_tabs(ctx, DAMAGES)}


def claims_register_sheet_total(ctx):
    """Claims Register.csv opened as a Google Sheet, with a SUM of the amounts."""
    with open(Path(ctx.world_root) / MATTER / "04 Claims/Claims Register.csv", encoding="utf-8") as f:
        everything = sum(int(r["Amount (USD)"]) for r in csv.DictReader(f))
    for key, it in ctx.records("drive_items", which="new").items():
        if it["kind"] != "sheet" or "claims register" not in it["name"].lower() or it.get("trashed"):
            continue
        book = _app_ref(ctx, it["name"], "sheet", "sheets_books")
        tabs = {k for k, t in _recs(ctx, "sheets_tabs").items() if str(t["book"]) == book}
        for c in _recs(ctx, "sheets_cells").values():
            if str(c["tab"]) in tabs and "SUM(" in str(c.get("input", "")).upper() and c.get("value") == everything:
                return True, f"{it['name']} {c['a1']} = {everything:,}", {"drive_items": {key}, "sheets_books": {book},
                                                                            "sheets_tabs": tabs}
        return False, f"{it['name']} has no SUM giving {everything:,}"
    return False, "no new spreadsheet named like Claims Register"


def _billing_yaml(ctx) -> list[list]:
    import yaml
    path = Path(ctx.world_root) / MATTER / "08 Billing/Billing Tracker – M-2026-0147 (live).gsheet.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))["tabs"][0]["rows"]


def priya_billed_amount(ctx) -> float:
    rows = _billing_yaml(ctx)[1:]
    return round(sum(r[5] * r[6] for r in rows if r and r[1] == "Priya Raman"), 2)


# ---------------------------------------------------------------- Slides
CLIENT_UPDATE = "Client Update – Aurelia Dawn (April 2026)"
STRATEGY = "Case Strategy – Limitation and §9"


def _deck_slides(export: dict, title: str) -> list[dict]:
    """The deck's slides in order, each with its boxes' text by role: {"seq", "layout", "notes", "boxes", "key"}."""
    t = export["tables"]
    item = next((k for k, r in t["drive_items"]["records"].items()
                 if r["name"] == title and r["kind"] == "deck" and not r.get("trashed")), None)
    deck = next((k for k, r in t["slides_decks"]["records"].items() if str(r["item"]) == item), None)
    slides = [{"key": k, **r, "boxes": {}} for k, r in t["slides_slides"]["records"].items() if str(r["deck"]) == deck]
    by_key = {s["key"]: s for s in slides}
    for b in t["slides_boxes"]["records"].values():
        s = by_key.get(str(b["slide"]))
        if s is not None:
            s["boxes"][b["role"]] = b["text"] or ""
    return sorted(slides, key=lambda s: s["seq"])


def _deck_key(ctx, title: str) -> str | None:
    return _app_ref(ctx, title, "deck", "slides_decks")


def _deck_records(ctx, title: str) -> dict[str, set]:
    """What a slides check vouches for: the deck and its slides (their boxes hang off them)."""
    return {"slides_decks": {_deck_key(ctx, title)}, "slides_slides": {s["key"] for s in _deck_slides(ctx.final, title)}}


def _titles(slides: list[dict]) -> list[str]:
    return [s["boxes"].get("title", "").strip() for s in slides]


def _unchanged_slides(ctx, title: str, *except_titles: str) -> str | None:
    """None if every slide other than ``except_titles`` kept its text, layout and notes."""
    before = {s["boxes"].get("title", ""): s for s in _deck_slides(ctx.initial, title)}
    after = {s["boxes"].get("title", ""): s for s in _deck_slides(ctx.final, title)}
    for name, s in before.items():
        if name in except_titles:
            continue
        a = after.get(name)
        if a is None:
            return f"slide “{name}” is gone"
        if a["boxes"] != s["boxes"] or a["layout"] != s["layout"] or a["notes"] != s["notes"]:
            return f"slide “{name}” was changed"
    return None


def client_update_total_confirmed(ctx):
    slides = _deck_slides(ctx.final, CLIENT_UPDATE)
    s = next((s for s in slides if s["boxes"].get("title") == "The claims picture"), None)
    if s is None:
        return False, "the claims picture slide is gone"
    left = s["boxes"].get("left", "")
    want = third_party_total(ctx)
    if "[to confirm]" in left:
        return False, "still [to confirm]"
    line = next((ln for ln in left.splitlines() if "third-party total" in ln.lower()), "")
    if float(want) not in numbers_in(line):
        return False, f"the total line reads {line!r}; want {want:,}"
    other = _unchanged_slides(ctx, CLIENT_UPDATE, "The claims picture")
    kept = [ln for ln in s["boxes"].get("left", "").splitlines() if "Port Calder" in ln]
    if other or not kept:
        return False, other or "the claim lines were removed"
    return True, line, _deck_records(ctx, CLIENT_UPDATE)


def shortfall_slide_added(ctx):
    slides = _deck_slides(ctx.final, CLIENT_UPDATE)
    titles = _titles(slides)
    anchor = "Halcyon's limit vs. the fund it put up"
    if anchor not in titles or titles.index(anchor) + 1 >= len(titles):
        return False, f"titles {titles}"
    new = slides[titles.index(anchor) + 1]
    body = "\n".join(v for k, v in new["boxes"].items() if k != "title")
    problems = []
    if new["boxes"].get("title", "").strip().lower() != "the shortfall":
        problems.append(f"the slide after “{anchor}” is titled {new['boxes'].get('title')!r}")
    for label, amount in (("limit", copla_limit(ctx)), ("fund", fund_constituted(ctx)), ("shortfall", fund_shortfall(ctx))):
        if float(amount) not in numbers_in(body):
            problems.append(f"no {label} ({amount:,}) on it")
    if len(slides) != len(_deck_slides(ctx.initial, CLIENT_UPDATE)) + 1:
        problems.append(f"{len(slides)} slides")
    other = _unchanged_slides(ctx, CLIENT_UPDATE)
    if other:
        problems.append(other)
    if problems:
        return False, "; ".join(problems)
    return True, f"slide {new['seq']}", _deck_records(ctx, CLIENT_UPDATE)


def strategy_owners_second(ctx):
    before = _titles(_deck_slides(ctx.initial, STRATEGY))
    after = _titles(_deck_slides(ctx.final, STRATEGY))
    want = [before[0], "Sequencing and owners"] + [t for t in before[1:] if t != "Sequencing and owners"]
    other = _unchanged_slides(ctx, STRATEGY)
    ok = after == want and other is None
    return ok, f"order {after}" + (f"; {other}" if other else ""), _deck_records(ctx, STRATEGY)


def board_deck_without_s9(ctx):
    slides = _deck_slides(ctx.final, CLIENT_UPDATE)
    titles = _titles(slides)
    problems = []
    if any("§9" in t for t in titles):
        problems.append("the §9 slide is still there")
    if len(slides) != len(_deck_slides(ctx.initial, CLIENT_UPDATE)) - 1:
        problems.append(f"{len(slides)} slides")
    pos = next((s for s in slides if s["boxes"].get("title") == "Corvane's position"), None)
    before = next((s for s in _deck_slides(ctx.initial, CLIENT_UPDATE) if s["boxes"].get("title") == "Corvane's position"), None)
    if pos is None:
        problems.append("“Corvane's position” is gone")
    else:
        notes = pos["notes"] or ""
        if not (before["notes"].strip() in notes and "§9" in notes.replace("§ 9", "§9") and "oral" in notes.lower()):
            problems.append(f"its notes don't keep the old note and add that §9 is covered orally: {notes[-140:]!r}")
        if pos["boxes"] != before["boxes"]:
            problems.append("its text changed")
    other = _unchanged_slides(ctx, CLIENT_UPDATE, "Can Halcyon limit at all? COPLA §9", "Corvane's position")
    if other:
        problems.append(other)
    if problems:
        return False, "; ".join(problems)
    return True, f"{len(slides)} slides", _deck_records(ctx, CLIENT_UPDATE)


# ---------------------------------------------------------------- Calendar
def _events_titled(ctx, pattern: str, which: str = "new") -> dict[str, dict]:
    return {k: e for k, e in ctx.records("cal_events", which=which).items()
            if re.fullmatch(pattern, (e.get("title") or "").strip(), re.I)}


def _guests(ctx, event_key: str) -> set[str]:
    return {g["person"] for g in _recs(ctx, "cal_guests").values() if str(g["event"]) == event_key}


def hearing_prep_series(ctx):
    """One weekly series, Tue and Thu 16:00–16:45 world time, whose occurrences are
    exactly 14, 16 and 21 April (an end date or a count both do), Priya and Daniel invited (no one else)."""
    from datetime import date

    from apps.calendar.service import occurrence_dates
    found = []
    for key, e in _events_titled(ctx, r"hearing prep\s*[—–-]\s*fund adequacy").items():
        rec = e.get("recurrence") or {}
        days = occurrence_dates(rec, date(2026, 4, 14), date(2026, 12, 31)) if rec else []
        ok = (e["start"] == "2026-04-14T20:00:00Z" and e["end"] == "2026-04-14T20:45:00Z"
              and not e.get("all_day") and rec.get("freq") == "weekly"
              and days == [date(2026, 4, 14), date(2026, 4, 16), date(2026, 4, 21)]
              and _guests(ctx, key) - {e.get("organizer")} == {"priya.raman", "daniel.ortiz"})
        found.append(f"{e['start']}–{e['end']} {rec} on {[d.isoformat() for d in days]} with "
                     f"{sorted(_guests(ctx, key))}")
        if ok:
            return True, found[-1], {"cal_events": {key}}
    return False, "; ".join(found) or "no new event titled “Hearing prep — fund adequacy”"
