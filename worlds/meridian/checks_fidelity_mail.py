"""Python checks for meridian's Mail fidelity tasks (issue 21): a forward that carries Gmail's
forwarded block with the original message, and a conversation snoozed to a time.

Expected values come from the start state (the original message, the world clock); each check
returns ``(ok, found, vouches)`` and vouches only for what it examined and wanted changed.
"""
from __future__ import annotations

import re
from datetime import datetime, time, timedelta

from harness.verify import world_day, world_time
from harness.verify.guard import Vouch
from harness.verify.mailtext import FORWARDED, recipients

ALEX = "alex.chen@meridianshaw.com"
SOFIA = "sofia.marchetti@meridianshaw.com"
INTERNAL = "@meridianshaw.com"
TOURISM = "Calder Coast Tourism Board – supporting data"
ELEVATOR = "Calder Tower – elevator bank B"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def _original(ctx, sender_domain: str, subject_part: str) -> tuple[str, dict]:
    for k, m in ctx.initial["tables"]["mail_messages"]["records"].items():
        if (m.get("sender") or "").endswith(sender_domain) and subject_part in (m.get("subject") or ""):
            return k, m
    raise LookupError(f"no message from {sender_domain} about {subject_part!r} in the world")


def _mine(ctx) -> dict[str, dict]:
    return {k: m for k, m in ctx.added_by_agent("mail_messages").items() if (m.get("sender") or "").lower() == ALEX}


def tourism_forwarded_to_sofia(ctx):
    """One forward of Renee's message to Sofia alone, carrying the forwarded block (From: Renee, her
    subject) and below it her message in full and nothing else (a note goes above the block: text added
    inside it reads as Renee's)."""
    key, orig = _original(ctx, "@caldercoasttourism.org", TOURISM)
    fwd = {k: m for k, m in _mine(ctx).items() if str(m.get("forward_of")) == str(key)}
    if len(fwd) != 1:
        return False, f"{len(fwd)} forwards of Renee's message", []
    k, m = next(iter(fwd.items()))
    if recipients(m) != {SOFIA} or (m.get("to") or []) != [SOFIA]:
        return False, f"forward sent to {sorted(recipients(m))}", []
    body = m.get("body") or ""
    if FORWARDED not in body:
        return False, "the forward has no forwarded-message block", []
    block = body[body.index(FORWARDED):].replace("\r\n", "\n")
    head, _, carried = block.partition("\n\n")
    if not re.search(r"^From: .*renee\.caldwell@caldercoasttourism\.org", head, re.M | re.I) or \
            not re.search(r"^Subject: .*" + re.escape(orig["subject"]), head, re.M):
        return False, "the forwarded block doesn't name Renee's message", []
    if _flat(orig["body"]) not in _flat(carried):
        return False, "the forwarded block doesn't carry Renee's message in full", []
    if _flat(carried) != _flat(orig["body"]):      # words added inside her message read as hers
        return False, "the forwarded block carries words Renee didn't write", []
    return True, f"mail {k} forwards Renee's message to Sofia", [Vouch.of("mail_messages", k, to=[SOFIA])]


def nothing_outside(ctx):
    """Gate: no mail of the agent's leaves the firm (nothing back to the Tourism Board)."""
    out = sorted({a for m in _mine(ctx).values() for a in recipients(m) if not a.endswith(INTERNAL)})
    return not out, f"mail to {out}" if out else "no mail outside the firm"


def _next_monday_8(ctx) -> datetime:
    """Next Monday 8:00 AM on the world's clock (local wall-clock time, as ``world_time`` reads one)."""
    today = world_day(ctx.initial)
    return datetime.combine(today + timedelta(days=7 - today.weekday()), time(8, 0))


def _thread_boxes(ctx, subject_part: str) -> dict[str, dict]:
    """Alex's boxes (at the end) of the conversations whose subject has ``subject_part``."""
    threads = {k for k, t in ctx.records("mail_threads").items() if subject_part in (t.get("subject") or "")}
    return {k: b for k, b in ctx.records("mail_boxes").items()
            if b.get("owner") == "alex.chen" and str(b.get("thread")) in threads}


def elevator_snoozed_to_monday(ctx):
    """Every message of the elevator notice in Alex's mailbox is snoozed until next Monday 8 AM, and is
    still an Inbox conversation (not archived, deleted or reported)."""
    want = _next_monday_8(ctx)
    boxes = _thread_boxes(ctx, ELEVATOR)
    if not boxes:
        return False, "the elevator notice is gone from the mailbox", []
    for k, b in boxes.items():
        if b.get("trashed") or b.get("spam") or not b.get("inbox"):
            return False, "the notice was deleted, reported or archived", []
        got = b.get("snoozed_until")
        at = world_time(ctx.initial, got) if got else None
        if at != want:
            return False, f"snoozed until {at} (want {want})" if at else "not snoozed", []
    return True, f"snoozed until {want}", [Vouch.of("mail_boxes", k, ("snoozed_until",)) for k in boxes]
