"""Readers shared by the halden world's check modules (checks_*.py), and the IOI arithmetic.

Expected values are computed from the world's own files under ``ctx.world_root`` (the IOI letters,
the IOI Comparison sheet's ``FX`` and ``Rules`` tabs, the engagement letter) and from the exports
(``ctx.initial`` / ``ctx.final``), never typed by hand, so an edit to the data room can't silently
leave a task's answer key wrong. Another module uses these with
``world_module(Path(__file__).parent, "checks")``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from apps.sheets.formula.a1 import parse_ref
from harness.verify import artifacts as A

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
    row, col = parse_ref(a1)
    r = rows[row] if row < len(rows) else []
    return r[col] if col < len(r) else None


def letter(ctx, bidder: str) -> str:
    """The text of a Round 1 letter, bold marks dropped."""
    return read(ctx, IOIS / LETTERS[bidder]).replace("**", "")


def money_m(text: str) -> float:
    """"$1,234.5m", "1,234.5" → 1234.5."""
    return float(text.replace("$", "").replace(",", "").strip())


# ---------------------------------------------------------------- exports (harness.verify.artifacts, unwrapped)
def sheet_cells(export: dict, title: str, tab: str) -> dict[str, dict]:
    """The cells of one tab of a spreadsheet in an export (``ctx.initial`` or ``ctx.final``), by A1."""
    return {a1: c for a1, (_, c) in A.cells(export, A.tab_key(export, A.app_key(export, title, "sheet"), tab)).items()}


def sheet_rows(export: dict, title: str, tab: str) -> dict[int, dict[str, dict]]:
    """The cells of a tab by row and column letter: {3: {"D": cell}}."""
    rows = A.rows(export, A.tab_key(export, A.app_key(export, title, "sheet"), tab))
    return {r: {col: c for col, (_, c) in cols.items()} for r, cols in rows.items()}


def doc_blocks(export: dict, title: str) -> list[dict]:
    return [b for _, b in A.blocks(export, A.app_key(export, title, "doc"))]


# ---------------------------------------------------------------- the IOI arithmetic
def fx(ctx) -> float:
    """EUR/USD in the IOI Comparison's FX!B2 (Halden's rate at the deadline-date close)."""
    return float(sheet_source_cell(ctx, IOIS / f"{IOI_COMPARISON}.gsheet.yaml", "FX", "B2"))


# Evelyn's rule for Kestrel (no plant tour), however an invitation or a letter puts it.
NO_TOUR = (r"no (?:plant )?tours?|no plant|no site visit|not? (?:be )?(?:a )?plant tour|"
           r"without (?:a |any )?(?:plant (?:tour|visit)|tour|site visit)|"
           r"(?:plant tour|site visit)s? (?:is|are|will be) (?:not|excluded)|excluding (?:a |the |any )?(?:plant tour|site visit)")

# Victoria's bar for Phase II (her 05-08 mail, Claire's answer): on time and $410m or more like-for-like.
BAR = 410.0


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


def own_rate_figures(ctx) -> list[float]:
    """Rheinwerk at its treasury's own rate, the trap Victoria's rule 4 rules out: the letter's own
    "≈ USD …m at EUR/USD 1.1100" and the headline times that rate to the cent ($m)."""
    m = re.search(r"≈\s*USD\s*([\d.,]+)\s*m at EUR/USD\s*([\d.]+)", letter(ctx, "Rheinwerk"))
    return [money_m(m.group(1)), round(headline(ctx, "Rheinwerk")[0] * float(m.group(2)), 2)]


def alder_trap_figures(ctx) -> list[float]:
    """Alder Creek's equity value on the two wrong net debts ($m): Model v6's, whose Net debt tab adds the
    cash (its =SUM(B3:B6) over the four items), and the CIM's at 31 December 2025."""
    equity = headline(ctx, "Alder Creek")[0]
    v6 = TEAM / "03 Valuation" / "Juniper Model v6.gsheet.yaml"
    v6_net_debt = sum(float(sheet_source_cell(ctx, v6, "Net debt", f"B{r}")) for r in range(3, 7)) / 1000
    cim = re.search(r"\*\*Net debt: \$([\d.,]+)m", read(ctx, TEAM / "02 Marketing" / "CIM v4 (2026-03-16).gdoc.md"))
    return [round(equity + v6_net_debt, 2), round(equity + money_m(cim.group(1)), 2)]


def ranking(ctx) -> list[str]:
    return sorted(LETTERS, key=lambda b: -like_for_like(ctx, b))


def late_bidders(ctx) -> set[str]:
    """Bidders whose IOI mail arrived after the Phase I deadline (Thu 2026-04-30 17:00)."""
    return set(_late_bidders(str(ctx.world_root)))


@lru_cache(maxsize=8)
def _late_bidders(world_root: str) -> frozenset[str]:
    """(The world's files don't change under a run: read its mail once.)"""
    out = set()
    for f in sorted((Path(world_root) / "mail").glob("*.yaml")):
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        for m in raw.get("messages", []):
            for a in m.get("attachments") or []:
                for b, name in LETTERS.items():
                    if Path(a).name == name.removesuffix(".md") and str(m["date"]) > "2026-04-30T17:00:00":
                        out.add(b)
    return frozenset(out)


def shortlist(ctx) -> list[str]:
    """On time and like-for-like at or above the bar in Victoria's rule ($410.0m): best first."""
    return [b for b in ranking(ctx) if b not in late_bidders(ctx) and like_for_like(ctx, b) >= BAR]


def top_bid(ctx) -> float:
    return like_for_like(ctx, ranking(ctx)[0])


def usd(m: float) -> int:
    """$m → whole dollars."""
    return round(m * 1_000_000)


def top_bid_usd(ctx) -> int:
    """The highest Round 1 bid on Victoria's like-for-like basis, in dollars."""
    return usd(top_bid(ctx))


def calloway_stake(ctx) -> tuple[float, float]:
    """Calloway Ridge's share of Varden and what it paid ($m), from the 2021 shareholders' agreement (1.4)."""
    text = read(ctx, VDR / "1 Corporate/1.4 Shareholders' Agreement (2021-06-30).pdf.md").replace("**", "")
    share = int(re.search(r"representing (\d+)% of the Company", text).group(1)) / 100
    cost = float(re.search(r"purchase price of \$([\d,]+)", text).group(1).replace(",", "")) / 1e6
    return share, cost


def equity_at_top(ctx) -> float:
    """The top bid less the reference net debt and the debt-like items (Rules B2, B3), $m."""
    return top_bid(ctx) - rule(ctx, "B2") - rule(ctx, "B3")


def calloway_proceeds_usd(ctx) -> int:
    """Calloway's share of the equity at the top bid, in dollars."""
    return usd(round(equity_at_top(ctx) * calloway_stake(ctx)[0], 4))
