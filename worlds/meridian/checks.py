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
