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


def final_spill(ctx) -> int:
    """Barrels discharged per the final survey report (the figure that supersedes the earlier two)."""
    text = _read(ctx, "02 Vessel & Casualty/Final Survey Report – Calder Marine Surveys (2026-03-06).pdf.md")
    m = re.search(r"final reconciled quantity of oil discharged from the vessel is \*\*([\d,]+) bbl\*\*", text)
    return _money(m.group(1))


def _param(ctx, name: str):
    """The task's param ``name`` (an instance of a family: ``ctx.task.param_values``)."""
    return (getattr(getattr(ctx, "task", None), "param_values", None) or {}).get(name)


def _survey_table(ctx, rel: str, section: str, end: str) -> dict[str, list[str]]:
    """A survey's tank table: tank (``3P``, ``Slop S``, ``Total``) → its cells, bold marks dropped."""
    text = _read(ctx, rel).split(section, 1)[1].split(end, 1)[0].replace("*", "")
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and re.fullmatch(r"\d[PS]|Slop [PS]|Total", cells[0]):
            out[cells[0]] = cells[1:]
    return out


FINAL_SURVEY = "02 Vessel & Casualty/Final Survey Report – Calder Marine Surveys (2026-03-06).pdf.md"
ULLAGE_SURVEY = "02 Vessel & Casualty/Ullage Survey Summary (2026-02-20).pdf.md"


def tank_outflow(ctx) -> int:
    """Barrels the task's ``tank`` (3P or 4P) lost, per the final survey's reconciliation (§ 5.2)."""
    rows = _survey_table(ctx, FINAL_SURVEY, "**5.2 Tank-by-tank", "**5.3")
    return _money(rows[_param(ctx, "tank") or "3P"][3])


def ullage_reduction(ctx) -> int:
    """How far the final survey brought the interim ullage figure down (the oil in the emulsion layers)."""
    interim = _survey_table(ctx, ULLAGE_SURVEY, "### 4. Tank-by-tank", "### 5.")["Total"][6]
    return _money(interim) - final_spill(ctx)


def claim_amount(ctx) -> int:
    """What the claimant of the task's ``claim`` param claims, from its own document in 04 Claims: the
    Cooperative's notice of claim, the State DEP's cost recovery letter (removal costs, or its preliminary
    natural resource damages), the City of Port Calder's invoices (their sum)."""
    which = (_param(ctx, "claim") or {}).get("id", "coop")
    if which == "port-calder":
        with open(Path(ctx.world_root) / MATTER / "04 Claims/Port Calder – Invoice Summary.csv", encoding="utf-8") as f:
            return sum(int(r["Amount (USD)"]) for r in csv.DictReader(f))
    if which == "coop":
        text = _read(ctx, "04 Claims/Notice of Claim – Calder Bay Fishermen's Cooperative.pdf.md")
        return _money(re.search(r"The Cooperative claims \*\*(\$[\d,]+)\*\*", text).group(1))
    text = _read(ctx, "04 Claims/State DEP – Cost Recovery Letter (2026-03-27).pdf.md")
    if which == "dep-removal":
        return _money(re.search(r"incurred removal costs of \*\*(\$[\d,]+)\*\*", text).group(1))
    if which == "dep-nrd":
        return _money(re.search(r"preliminary estimate of natural resource damages is (\$[\d,]+)\*\*", text).group(1))
    raise LookupError(f"no claim {which!r}")


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


def pleaded_gross_tonnage(ctx) -> int:
    """The gross tonnage Halcyon pleads (Complaint ¶ 2)."""
    text = _read(ctx, "01 Pleadings/Halcyon Complaint for Exoneration or Limitation (2026-03-30).pdf.md")
    return _money(re.search(r"measures \*\*([\d,]+) gross tons\*\*", text).group(1))


def gross_tonnage_is_58400(ctx) -> tuple[bool, str]:
    """A named check, as tasks use for what the vocabulary can't say: the gross tonnage in the vessel
    particulars is the one Halcyon pleads (58,400 GT in the published world; each variant has its own, so
    the check compares the documents with each other, never with a figure written here)."""
    gt, pleaded = gross_tonnage(ctx), pleaded_gross_tonnage(ctx)
    return gt == pleaded, f"GT {gt} (pleaded {pleaded})"


def claims_deadline(ctx):
    """The Claims Deadline the court fixed (Order of April 1, 2026, ¶ 4), as a date."""
    from datetime import datetime
    text = _read(ctx, "01 Pleadings/Order Directing Notice and Restraining Suits (2026-04-01).pdf.md")
    m = re.search(r"on or before (?:\w+, )?(\w+ \d{1,2}, \d{4})\*\* \(the \"Claims Deadline\"\)", text)
    return datetime.strptime(m.group(1), "%B %d, %Y").date()


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


OBJECTION = "Objection to Amount of Limitation Fund – DRAFT"


CLAIM_V2 = "Corvane Claim in Limitation – DRAFT v2"


PRYCE_LETTER = "Letter to J. Pryce re Limitation Fund – DRAFT"


SETTLEMENT = "Draft Settlement and Release – Calder Bay Fishermen's Cooperative (DRAFT)"


# ---------------------------------------------------------------- Sheets
DAMAGES = "Damages Model – Aurelia Dawn"
BILLING = "Billing Tracker – M-2026-0147 (live)"


def port_calder_invoices_total(ctx) -> int:
    text = (Path(ctx.world_root) / "mail/2026-03-18-port-calder-invoice-summary.yaml").read_text(encoding="utf-8")
    m = re.search(r"[Tt]otal[^$\n]*\$([\d,]+)", text)
    return _money(m.group(1))


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
