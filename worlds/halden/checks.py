"""Readers shared by the halden world's check modules (checks_*.py), and the IOI arithmetic.

Expected values are computed from the world's own files under ``ctx.world_root`` (the IOI letters,
the IOI Comparison sheet's ``FX`` and ``Rules`` tabs, the engagement letter) and from the exports
(``ctx.initial`` / ``ctx.final``), never typed by hand, so an edit to the data room can't silently
leave a task's answer key wrong. Another module uses these with
``world_module(Path(__file__).parent, "checks")``.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

VDR = Path("drive/fiona.gallagher/Project Juniper – VDR")
TEAM = Path("drive/julian.pierce/Project Juniper – Deal Team (internal)")
IOIS = TEAM / "04 Round 1 IOIs"
IOI_COMPARISON = "IOI Comparison"

# The eight Round 1 letters: the bidder's short name (as the deal team says it) → its file.
LETTERS = {
    "Rheinwerk": "Rheinwerk Armaturen – IOI (2026-04-30).pdf.md",
    "Granite Harbor": "Granite Harbor Partners – IOI (2026-04-30).pdf.md",
    "Kestrel": "Kestrel Industrial Group – IOI (2026-04-30).pdf.md",
    "Marlow Peak": "Marlow Peak Partners – IOI (2026-04-30).pdf.md",
    "Alder Creek": "Alder Creek Capital – IOI (2026-04-30).pdf.md",
    "Sable Point": "Sable Point Capital – IOI (dated 2026-05-01).pdf.md",
    "Norwell": "Norwell Process Technologies – IOI (2026-04-30).pdf.md",
    "Corliss": "Corliss Equity Partners – IOI (2026-04-30).pdf.md",
}
# Full names, as the CRM's accounts and the Buyer Tracker have them.
FULL_NAMES = {
    "Rheinwerk": "Rheinwerk Armaturen GmbH", "Granite Harbor": "Granite Harbor Partners",
    "Kestrel": "Kestrel Industrial Group", "Marlow Peak": "Marlow Peak Partners",
    "Alder Creek": "Alder Creek Capital", "Sable Point": "Sable Point Capital",
    "Norwell": "Norwell Process Technologies", "Corliss": "Corliss Equity Partners",
}


# ---------------------------------------------------------------- files
def read(ctx, rel) -> str:
    return (Path(ctx.world_root) / rel).read_text(encoding="utf-8")


def sheet_yaml(ctx, rel) -> dict:
    """A Sheet's source file (``….gsheet.yaml``) as written: {tab name: rows}."""
    raw = yaml.safe_load(read(ctx, rel))
    return {t["name"]: t["rows"] for t in raw["tabs"]}


def sheet_source_cell(ctx, rel, tab: str, a1: str):
    """A cell of a Sheet's source file as written (a number, a text or an "=formula")."""
    rows = sheet_yaml(ctx, rel)[tab]
    col, row = _col(a1), _row(a1)
    ci = 0
    for ch in col:
        ci = ci * 26 + ord(ch) - 64
    r = rows[row - 1] if row - 1 < len(rows) else []
    return r[ci - 1] if ci - 1 < len(r) else None


def letter(ctx, bidder: str) -> str:
    """The text of a Round 1 letter, bold marks dropped."""
    return read(ctx, IOIS / LETTERS[bidder]).replace("**", "")


def money_m(text: str) -> float:
    """"$1,234.5m", "1,234.5" → 1234.5."""
    return float(text.replace("$", "").replace(",", "").strip())


# ---------------------------------------------------------------- exports
def recs(ctx, table: str, which: str = "all", export: str = "final") -> dict[str, dict]:
    if which != "all" or export == "final":
        return ctx.records(table, which=which)
    return getattr(ctx, export)["tables"][table]["records"]


def _of(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def item_key(export: dict, name: str, kind: str) -> str | None:
    for key, rec in _of(export, "drive_items").items():
        if rec["name"] == name and rec["kind"] == kind and not rec.get("trashed"):
            return key
    return None


def _app_ref(export: dict, name: str, kind: str, table: str) -> str | None:
    item = item_key(export, name, kind)
    if item is None:
        return None
    return next((k for k, r in _of(export, table).items() if str(r["item"]) == item), None)


def _col(a1: str) -> str:
    return re.match(r"[A-Z]+", a1).group(0)


def _row(a1: str) -> int:
    return int(re.search(r"\d+", a1).group(0))


def sheet_cells(export: dict, title: str, tab: str) -> dict[str, dict]:
    """The cells of one tab of a spreadsheet in an export (``ctx.initial`` or ``ctx.final``), by A1."""
    book = _app_ref(export, title, "sheet", "sheets_books")
    if book is None:
        return {}
    tab_key = next((k for k, t in _of(export, "sheets_tabs").items() if str(t["book"]) == book and t["name"] == tab),
                   None)
    return {c["a1"]: c for c in _of(export, "sheets_cells").values() if str(c["tab"]) == tab_key}


def sheet_rows(export: dict, title: str, tab: str) -> dict[int, dict[str, dict]]:
    out: dict[int, dict[str, dict]] = {}
    for a1, c in sheet_cells(export, title, tab).items():
        out.setdefault(_row(a1), {})[_col(a1)] = c
    return out


def doc_blocks(export: dict, title: str) -> list[dict]:
    doc = _app_ref(export, title, "doc", "docs_documents")
    if doc is None:
        return []
    return sorted((b for b in _of(export, "docs_blocks").values() if str(b["doc"]) == doc), key=lambda b: b["seq"])


def slides(export: dict, title: str) -> list[dict]:
    """A deck's slides in order, each with its boxes' texts by role and its notes."""
    deck = _app_ref(export, title, "deck", "slides_decks")
    if deck is None:
        return []
    t = export["tables"]
    out = []
    for sk, s in sorted(((k, s) for k, s in t["slides_slides"]["records"].items() if str(s["deck"]) == deck),
                        key=lambda kv: kv[1]["seq"]):
        boxes = [b for k, b in sorted(t["slides_boxes"]["records"].items(), key=lambda kv: int(kv[0]))
                 if str(b["slide"]) == sk]
        out.append({"key": sk, **s, "boxes": boxes})
    return out


# ---------------------------------------------------------------- the IOI arithmetic
def fx(ctx) -> float:
    """EUR/USD in the IOI Comparison's FX!B2 (Halden's rate at the deadline-date close)."""
    return float(sheet_source_cell(ctx, IOIS / f"{IOI_COMPARISON}.gsheet.yaml", "FX", "B2"))


def rule(ctx, a1: str) -> float:
    """A like-for-like input in the IOI Comparison's Rules tab (B2 net debt, B3 debt-like, B4 QoE
    EBITDA, B5 management EBITDA, B6 FY2026E EBITDA; $m)."""
    return float(sheet_source_cell(ctx, IOIS / f"{IOI_COMPARISON}.gsheet.yaml", "Rules", a1))


def headline(ctx, bidder: str) -> tuple[float, float]:
    """The letter's headline as written, in millions of its own currency: (low, high)."""
    text = letter(ctx, bidder)
    if bidder == "Rheinwerk":
        m = re.search(r"EUR\s*([\d.,]+)\s*m", text)
        v = money_m(m.group(1))
        return v, v
    if bidder == "Corliss":
        m = re.search(r"\$([\d,]+)\s*[–-]\s*\$([\d,]+)\s*\(in thousands\)", text)
        return money_m(m.group(1)) / 1000, money_m(m.group(2)) / 1000
    if bidder == "Kestrel":
        m = re.search(r"\$([\d.,]+)m\s*[–-]\s*\$([\d.,]+)m", text)
        return money_m(m.group(1)), money_m(m.group(2))
    if bidder == "Alder Creek":
        m = re.search(r"equity value of \$([\d.,]+)m", text)
    else:
        m = re.search(r"enterprise value of \$([\d.,]+)m", text)
    v = money_m(m.group(1))
    return v, v


def like_for_like(ctx, bidder: str) -> float:
    """The bid on the Phase I letter's basis, by Victoria's rules (the Rules tab): a range at its
    midpoint; an equity value plus the reference net debt; EUR at FX!B2; a bid that counts the CIM's
    debt-like items as debt less them. $m, two decimals."""
    lo, hi = headline(ctx, bidder)
    v = (lo + hi) / 2
    if bidder == "Rheinwerk":
        v *= fx(ctx)
    elif bidder == "Alder Creek":
        v += rule(ctx, "B2")
    elif bidder == "Marlow Peak":
        v -= rule(ctx, "B3")
    return round(v, 2)


def ranking(ctx) -> list[str]:
    return sorted(LETTERS, key=lambda b: -like_for_like(ctx, b))


def late_bidders(ctx) -> set[str]:
    """Bidders whose IOI mail arrived after the Phase I deadline (Thu 2026-04-30 17:00)."""
    out = set()
    for f in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        for m in raw.get("messages", []):
            for a in m.get("attachments") or []:
                for b, name in LETTERS.items():
                    if Path(a).name == name.removesuffix(".md") and str(m["date"]) > "2026-04-30T17:00:00":
                        out.add(b)
    return out


def shortlist(ctx) -> list[str]:
    """On time and like-for-like at or above the bar in Victoria's rule ($410.0m): best first."""
    return [b for b in ranking(ctx) if b not in late_bidders(ctx) and like_for_like(ctx, b) >= 410.0]


def top_bid(ctx) -> float:
    return like_for_like(ctx, ranking(ctx)[0])


def top_bid_usd(ctx) -> int:
    return round(top_bid(ctx) * 1_000_000)
