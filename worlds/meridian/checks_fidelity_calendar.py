"""Checks for the Calendar tasks that need a series' exceptions: one occurrence of a series answered on
its own (decline-one-client-call) and a series changed from one occurrence on (focus-time-afternoons).

Both read a series as a person sees it: every occurrence of the recurring event and of the events
that replace single occurrences of it (``series`` / ``series_day``), or of any event with the same
title and organizer (a series split with "This and following events", or deleted and made again,
is the same calendar). Expected times and answers come from the start state.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from apps.calendar.service.recurrence import occurrence_dates
from harness.verify.guard import Vouch

ALEX = "alex.chen"
CLIENT_CALL = "Client call — Corvane"
FOCUS = "Focus time — drafting"
SAME = ("title", "location", "description", "visibility", "color", "all_day", "organizer")


def _utc(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def _iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _occurrences(state: dict, key: str, rec: dict) -> list[tuple[str, str, str]]:
    """(local date, start UTC, end UTC) of every occurrence of one event record."""
    tz = ZoneInfo(state["timezone"])
    s, e = _utc(rec["start"]).astimezone(tz), _utc(rec["end"]).astimezone(tz)
    if not rec.get("recurrence"):
        return [(s.date().isoformat(), _iso(s), _iso(e))]
    out = []
    wall0, dur = s.replace(tzinfo=None), e.replace(tzinfo=None) - s.replace(tzinfo=None)
    for d in occurrence_dates(rec["recurrence"], s.date(), date(2027, 12, 31)):
        ns = datetime.combine(d, wall0.time())
        out.append((d.isoformat(), _iso(ns.replace(tzinfo=tz)), _iso((ns + dur).replace(tzinfo=tz))))
    return out


def _family(state: dict, title: str, organizer: str) -> dict[str, dict]:
    """Every event with that title and organizer, and every exception of one of them."""
    recs = state["tables"]["cal_events"]["records"]
    keys = {k for k, r in recs.items() if r["title"] == title and r["organizer"] == organizer}
    keys |= {k for k, r in recs.items() if r.get("series") is not None and str(r["series"]) in keys}
    return {k: recs[k] for k in keys}


def _guests(state: dict, key: str) -> dict[str, tuple[str, dict]]:
    """person → (guest key, guest record) of one event."""
    return {g["person"]: (k, g) for k, g in state["tables"]["cal_guests"]["records"].items()
            if str(g["event"]) == str(key)}


def _calendar(state: dict, title: str, organizer: str) -> dict[str, list[tuple]]:
    """local date → [(start, end, event key)] over the whole family."""
    out: dict[str, list[tuple]] = {}
    for k, r in _family(state, title, organizer).items():
        for d, s, e in _occurrences(state, k, r):
            out.setdefault(d, []).append((s, e, k))
    return out


def _changed_keys(ctx, table: str) -> set[str]:
    d = ctx.diff["tables"].get(table, {})
    return {r["key"] for part in ("added", "changed") for r in d.get(part, [])}


# ---------------------------------------------------------------------------- decline-one-client-call
def declined_one_client_call(ctx):
    """Alex's answer to the weekly Corvane client call is No on Thursday 23 April and stays Yes on every
    other occurrence; every occurrence keeps its time, its details and the other guests' answers (a note
    with the No is fine)."""
    before = _calendar(ctx.initial, CLIENT_CALL, "eleanor.vance")
    after = _calendar(ctx.final, CLIENT_CALL, "eleanor.vance")
    [(series_key, series)] = [(k, r) for k, r in _family(ctx.initial, CLIENT_CALL, "eleanor.vance").items()]
    start_answers = {p: g["response"] for p, (_, g) in _guests(ctx.initial, series_key).items()}
    target = "2026-04-23"
    problems, vouches = [], []
    if target not in before:
        return False, f"the client call has no occurrence on {target} at the start"
    if sorted(after) != sorted(before):
        gone, extra = sorted(set(before) - set(after)), sorted(set(after) - set(before))
        problems.append(f"occurrences missing {gone} / added {extra}")
    for d, occs in sorted(after.items()):
        if len(occs) != 1:
            problems.append(f"{d}: {len(occs)} occurrences")
            continue
        s, e, k = occs[0]
        if d in before and (s, e) != before[d][0][:2]:
            problems.append(f"{d}: moved to {s}–{e}")
        rec = ctx.final["tables"]["cal_events"]["records"][k]
        diff = [f for f in SAME if rec.get(f) != series.get(f)]
        if diff:
            problems.append(f"{d}: {', '.join(diff)} changed")
        guests = _guests(ctx.final, k)
        answers = {p: g["response"] for p, (_, g) in guests.items()}
        want = {**start_answers, ALEX: "declined" if d == target else "accepted"}
        if answers != want:
            wrong = {p: a for p, a in answers.items() if want.get(p) != a}
            missing = sorted(set(want) - set(answers))
            problems.append(f"{d}: answers {wrong or ''}{' missing ' + str(missing) if missing else ''}".strip())
        if d == target or k in _changed_keys(ctx, "cal_events"):
            vouches.append(Vouch.of("cal_events", k))
            for p, (gk, _) in guests.items():
                if gk in _changed_keys(ctx, "cal_guests"):
                    vouches.append(Vouch.of("cal_guests", gk, to=[p]))
    if problems:
        return False, "; ".join(problems[:6])
    return True, f"No on {target} only; Yes on the {len(after) - 1} other client calls, times and guests kept", vouches


# ---------------------------------------------------------------------------- focus-time-afternoons
def focus_time_afternoons(ctx):
    """Alex's Tuesday drafting focus time: the occurrences before 21 April as they were (8:00–9:30 am),
    those from 21 April to the series' end at 1:00–2:30 pm on the same Tuesdays — one each, none added
    or dropped — with the same details and nobody invited."""
    tz = ZoneInfo(ctx.initial["timezone"])
    before = _calendar(ctx.initial, FOCUS, ALEX)
    after = _calendar(ctx.final, FOCUS, ALEX)
    [(series_key, series)] = [(k, r) for k, r in _family(ctx.initial, FOCUS, ALEX).items()]
    start_guests = set(_guests(ctx.initial, series_key))
    cut = "2026-04-21"
    problems, vouches = [], []
    want = {}
    for d, occs in before.items():
        s, e, _ = occs[0]
        if d >= cut:
            day = date.fromisoformat(d)
            s = _iso(datetime.combine(day, datetime.min.time()).replace(hour=13, tzinfo=tz))
            e = _iso(datetime.combine(day, datetime.min.time()).replace(hour=14, minute=30, tzinfo=tz))
        want[d] = (s, e)
    if cut not in want:
        return False, f"no focus time on {cut} at the start"
    if sorted(after) != sorted(want):
        gone, extra = sorted(set(want) - set(after)), sorted(set(after) - set(want))
        problems.append(f"occurrences missing {gone} / added {extra}")
    recs = ctx.final["tables"]["cal_events"]["records"]
    for d, occs in sorted(after.items()):
        if len(occs) != 1:
            problems.append(f"{d}: {len(occs)} occurrences")
            continue
        s, e, k = occs[0]
        if d in want and (s, e) != want[d]:
            local = _utc(s).astimezone(tz).strftime("%H:%M")
            problems.append(f"{d}: at {local} (want {'13:00' if d >= cut else 'as before'})")
    for k, rec in _family(ctx.final, FOCUS, ALEX).items():
        diff = [f for f in SAME if rec.get(f) != series.get(f)]
        if diff:
            problems.append(f"event {k}: {', '.join(diff)} changed")
        guests = _guests(ctx.final, k)
        if set(guests) != start_guests:
            problems.append(f"event {k}: guests {sorted(set(guests) - start_guests)} added")
        if k in _changed_keys(ctx, "cal_events"):
            vouches.append(Vouch.of("cal_events", k))
            vouches += [Vouch.of("cal_guests", gk) for gk, _ in guests.values()
                        if gk in _changed_keys(ctx, "cal_guests")]
    for k in set(_family(ctx.initial, FOCUS, ALEX)) - set(recs):      # deleted (and made again): vouched
        vouches.append(Vouch.of("cal_events", k))
        vouches += [Vouch.of("cal_guests", gk) for gk, _ in _guests(ctx.initial, k).values()]
    if problems:
        return False, "; ".join(problems[:6])
    moved = sum(1 for d in want if d >= cut)
    return True, f"{len(want) - moved} mornings kept, {moved} Tuesdays from {cut} at 1:00–2:30 pm", vouches
