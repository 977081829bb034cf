"""The halden reading & calculation tasks of group A (the Round 1 IOIs, the fee, the proceeds).

Every expected value is computed from the world's own files under ``ctx.world_root`` — the eight IOI
letters, the IOI Comparison's ``FX`` and ``Rules`` tabs, the executed engagement letter, the
shareholders' agreement, the IOI mails — through the shared readers and the IOI arithmetic of
``checks.py`` (``like_for_like``, ``ranking``, ``shortlist``, ``fx``, ``rule``…).
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import yaml

from harness.verify.answer import answer_text, normalise, states
from harness.verify.checks import world_module

C = world_module(Path(__file__).parent, "checks")

ENGAGEMENT = C.TEAM / "06 Engagement" / "Engagement Letter – executed (2026-01-12).pdf.md"


# ---------------------------------------------------------------- like-for-like values ($)


def second_bidder(ctx) -> str:
    """The bidder ranked second like-for-like."""
    return C.ranking(ctx)[1]


def alder_ev_usd(ctx) -> int:
    return C.usd(C.like_for_like(ctx, "Alder Creek"))


def marlow_ev_usd(ctx) -> int:
    return C.usd(C.like_for_like(ctx, "Marlow Peak"))


def corliss_ev_usd(ctx) -> int:
    return C.usd(C.like_for_like(ctx, "Corliss"))


def top_multiple_qoe(ctx) -> float:
    """The top like-for-like bid over the QoE-adjusted FY2025 EBITDA (Rules!B4), unrounded: the task's
    ±0.005 then takes the figure to two decimals, centred on the true multiple — not on its rounding,
    which would let 11.655 pass for 11.6618."""
    return C.top_bid(ctx) / C.rule(ctx, "B4")


def qoe_gap_usd(ctx) -> int:
    """Management's FY2025 adjusted EBITDA (Rules!B5) less the QoE's (Rules!B4), in dollars."""
    return C.usd(round(C.rule(ctx, "B5") - C.rule(ctx, "B4"), 1))


# ---------------------------------------------------------------- the stock component
def _stock_bidder(ctx) -> tuple[str, float]:
    """The one bidder paying part of the price in its own shares, and that share (a fraction)."""
    found = []
    for b in C.LETTERS:
        m = re.search(r"(\d+(?:\.\d+)?)% in [A-Z][\w ]*?(?:common )?stock", C.letter(ctx, b))
        if m:
            found.append((b, float(m.group(1)) / 100))
    assert len(found) == 1, found
    return found[0]


def stock_component_usd(ctx) -> int:
    """The part of that bidder's price paid in stock, at the midpoint of its range, in dollars."""
    b, share = _stock_bidder(ctx)
    lo, hi = C.headline(ctx, b)
    return C.usd(round((lo + hi) / 2 * share, 4))


# ---------------------------------------------------------------- the fee (executed letter)
def _fee_terms(ctx) -> dict:
    text = C.read(ctx, ENGAGEMENT).replace("**", "")
    tier = re.search(r"Up to and including \$([\d,]+)\s*\|\s*([\d.]+)%", text)
    above = re.search(r"above \$[\d,]+\s*\|\s*([\d.]+)%", text)
    minimum = re.search(r"no event be less than \$([\d,]+)", text)
    cap = re.search(r"\(\$([\d,]+) in aggregate\)", text)
    return {"tier": int(tier.group(1).replace(",", "")), "low": float(tier.group(2)) / 100,
            "high": float(above.group(1)) / 100, "minimum": int(minimum.group(1).replace(",", "")),
            "retainer_cap": int(cap.group(1).replace(",", ""))}


def success_fee_at_top_usd(ctx) -> int:
    """The success fee under the executed letter with the top like-for-like bid as Transaction Value."""
    t = _fee_terms(ctx)
    tv = C.top_bid_usd(ctx)
    fee = t["low"] * min(tv, t["tier"]) + t["high"] * max(tv - t["tier"], 0)
    return round(max(t["minimum"], fee))


def success_fee_net_usd(ctx) -> int:
    """That fee less the retainer credited against it (every month of the retainer, at its cap)."""
    return success_fee_at_top_usd(ctx) - _fee_terms(ctx)["retainer_cap"]


# ---------------------------------------------------------------- the late IOI, the conditions
def late_ioi_received(ctx) -> date:
    """The day the late IOI's mail reached Halden (not the date on its letter)."""
    late = C.late_bidders(ctx)
    assert len(late) == 1, late
    name = C.LETTERS[next(iter(late))].removesuffix(".md")
    for f in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        for m in yaml.safe_load(f.read_text(encoding="utf-8")).get("messages", []):
            if any(Path(a).name == name for a in m.get("attachments") or []):
                return date.fromisoformat(str(m["date"])[:10])
    raise AssertionError("no mail carries the late letter")


def _only(ctx, pattern: str) -> str:
    found = [b for b in C.LETTERS if re.search(pattern, C.letter(ctx, b), re.I)]
    assert len(found) == 1, (pattern, found)
    return found[0]


def management_condition_bidder(ctx) -> str:
    """The bidder whose IOI is conditional on new employment agreements with management at signing."""
    return _only(ctx, r"conditional on .{0,120}new employment agreements")


def financing_condition_bidder(ctx) -> str:
    """The bidder whose IOI is subject to obtaining debt financing."""
    return _only(ctx, r"subject to obtaining debt financing")


# ---------------------------------------------------------------- the ranking (an ordered answer)
# Each bidder as an answer may name it: the deal team's short name or the full name (which contains it).
_HEDGE = re.compile(r"\b(or|either|possibly|perhaps|maybe|alternatively|not sure|unsure|depending)\b", re.I)


_FILLER = {"and", "the", "both", "only", "all", "then", "late"}


def _extras(text: str, names: list[str]) -> list[str]:
    """Words run into an answer's list of bidders: joined to a bidder's name by nothing but a space
    ("… Alder Creek Sable Point", "… Alder Creek something else"), or added in brackets ("(also X)").
    A list's separators, an aside set off by punctuation ("— all on time") or in brackets that sets
    something aside or explains ("(not Sable Point, late)", "($424.49m)") are not extras."""
    for m in re.finditer(r"\(([^()]*)\)", text):
        if re.match(r"(also|or|and|plus|possibly|maybe|perhaps)\b", m.group(1).strip(), re.I):
            return [m.group(1).strip()]
    rest = re.sub(r"\([^()]*\)", " ", text)
    for n in names:       # the short name, with any words of the full name after it ("Kestrel Industrial")
        tail = [re.escape(w) for w in C.FULL_NAMES[n].split() if w not in n.split()]
        rest = re.sub(re.escape(n) + (rf"(?:\s+(?:{'|'.join(tail)})\b)*" if tail else ""), " \u00a7 ", rest, flags=re.I)
    out = []
    for m in re.finditer(r"\u00a7((?:[ \t]+[^\W\d_][\w'’-]*)+)", rest):
        out += [w for w in m.group(1).split() if w.lower() not in _FILLER]
    for m in re.finditer(r"((?:[^\W\d_][\w'’-]*[ \t]+)+)\u00a7", rest):
        out += [w for w in m.group(1).split() if w.lower() not in _FILLER and w[0].isupper()]
    return out


def ranking_answer(ctx):
    """The final answer names all eight bidders, nothing else, best first in the like-for-like order
    (its first mention of each gives the order), with no alternative order offered."""
    if not ctx.answer:
        return False, "no answer"
    text = normalise(answer_text(ctx.answer))
    want = C.ranking(ctx)
    # Asides in brackets ("($398.0m, late)") are read by _extras below, not as items of the list.
    ok, found = states(re.sub(r"\([^()]*\)", " ", text), "set", want, values=want)
    if not ok:
        return False, f"not the eight bidders: {found}"
    extra = _extras(text, want)
    if extra:
        return False, f"something else in the list: {extra}"
    hedge = _HEDGE.search(text)
    if hedge:
        return False, f"a hedge ({hedge.group(0)!r}) in {text[:160]!r}"
    low = text.lower()
    firsts = sorted((low.find(b.lower()), b) for b in want)
    order = [b for _, b in firsts]
    if order != want:
        return False, f"order {order}, expected {want}"
    return True, " > ".join(order)


SHORTLIST = ["Rheinwerk", "Granite Harbor", "Kestrel", "Marlow Peak", "Alder Creek"]


def shortlist_rule_holds(ctx):
    """The set answer's five names (SHORTLIST, the task's ``values``) are the shortlist Victoria's rule
    gives on the world's files, and the answer runs nothing else into its list (the set reading takes
    "… Alder Creek Sable Point" for five names)."""
    got = C.shortlist(ctx)
    if sorted(got) != sorted(SHORTLIST):
        return False, f"the rule gives {got}"
    extra = _extras(normalise(answer_text(ctx.answer or "")), SHORTLIST)
    if extra:
        return False, f"something else in the list: {extra}"
    return True, ", ".join(got)
