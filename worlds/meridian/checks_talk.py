"""Checks of a conversation with Eleanor Vance (meridian/shortfall-day): once she has the shortfall
she asks, on chat, which rate per gross ton the limit used; the answer must be the 2025 notice's
rate, read from the notice itself (``checks.rate_2025``)."""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify.answer import normalise, stated_alone
from harness.verify.reading import Cand
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

ELEANOR = "eleanor.vance"
# A rate as written: an amount per gross ton ("$2,750 per GT", "$2,750/GT", "2,750 per gross ton").
PER_GT = re.compile(r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*(?:per\s+(?:gt|gross\s+tons?)\b|/\s*gt\b)", re.I)


def rate_cands(text: str) -> list[Cand]:
    """Every amount per gross ton in ``text`` (not the tonnage: "over 3,000 GT" has no "per")."""
    return [Cand(m.start(), m.end(), float(m.group(1).replace(",", ""))) for m in PER_GT.finditer(text)]


def _checks():
    return world_module(Path(__file__).parent, "checks")


def _seqs(ctx, table: str) -> dict[str, int]:
    start = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
    out: dict[str, int] = {}
    for w in ctx.final.get("writes", []):
        if w["seq"] > start and w["table"] == table and w["actor"] == "agent":
            out.setdefault(w["key"], w["seq"])
    return out


def to_eleanor_on_chat(ctx) -> list[tuple[int, str, str]]:
    """The agent's new messages in its direct conversation with Eleanor, in order: (seq, key, text)."""
    t = ctx.final["tables"]
    members: dict[str, set] = {}
    for r in t["chat_members"]["records"].values():
        members.setdefault(str(r["conversation"]), set()).add(r["person"])
    out = []
    for k, seq in _seqs(ctx, "chat_messages").items():
        m = t["chat_messages"]["records"].get(k)
        c = t["chat_conversations"]["records"].get(str(m["conversation"])) if m else None
        if c and c["kind"] == "dm" and ELEANOR in members.get(str(m["conversation"]), set()):
            out.append((seq, k, normalise(m.get("text") or "")))
    return sorted(out)


def _rate_messages(ctx):
    return [m for m in to_eleanor_on_chat(ctx) if rate_cands(m[2])]


def rate_answered(ctx):
    """Eleanor's question is answered: the last message of yours to her on chat that gives an amount
    per gross ton gives the 2025 notice's rate, unhedged (corrected after a pushback is fine; three
    such messages at most)."""
    msgs = _rate_messages(ctx)
    if not msgs:
        return False, "no message of yours to Eleanor on chat gives the rate"
    if len(msgs) > 3:
        return False, f"{len(msgs)} messages to Eleanor about the rate (an answer and a correction at most)"
    want = _checks().rate_2025(ctx)
    ok, why = stated_alone(msgs[-1][2], rate_cands(msgs[-1][2]), lambda v: v == want)
    if not ok:
        return False, f"your last answer: {why}"
    return True, f"${want:,} per GT", [Vouch.of("chat_messages", k) for _, k, _ in msgs]


def rate_not_wrong(ctx):
    """Gate: no wrong rate stands with Eleanor (the last one you gave her, if any, is the 2025 rate)."""
    if not _rate_messages(ctx):
        return True, "no rate given"
    out = rate_answered(ctx)
    return out[0], out[1]
