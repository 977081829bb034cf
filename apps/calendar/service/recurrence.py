"""Recurrence rules: cleaning them, expanding occurrences in a window, describing them in words."""
from __future__ import annotations

from datetime import date, datetime, timedelta

from apps.calendar.service.base import DAY_NAMES, DAYS, FREQS, MAX_COUNT, _wall, local_day
from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.core.store.db import Store

_MAX_STEPS = 20_000


def clean_recurrence(rec: object, start_day: date, field: str = "recurrence") -> dict | None:
    """A validated, normalised recurrence rule (or None). Raises Invalid naming the problem."""
    if rec in (None, {}, "", "none"):
        return None
    if not isinstance(rec, dict):
        raise Invalid("A repeat rule must be a mapping with freq, interval, until or count.", field)
    unknown = set(rec) - {"freq", "interval", "until", "count", "byday", "exdates"}
    if unknown:
        raise Invalid(f"Unknown repeat setting {sorted(unknown)[0]!r} (use freq, interval, until, count, byday).", field)
    freq = rec.get("freq")
    if freq not in FREQS:
        raise Invalid(f"Repeat must be daily, weekly or monthly (got {freq!r}).", field)
    out: dict = {"freq": freq}
    interval = rec.get("interval", 1)
    if isinstance(interval, str) and as_id(interval) is not None:
        interval = as_id(interval)
    if isinstance(interval, bool) or not isinstance(interval, int) or not 1 <= interval <= 99:
        raise Invalid("Repeat every 1 to 99 days, weeks or months.", field)
    out["interval"] = interval
    until, count = rec.get("until"), rec.get("count")
    if until not in (None, "") and count not in (None, ""):
        raise Invalid("A repeat rule ends on a date or after a number of occurrences, not both.", field)
    if until not in (None, ""):
        try:
            u = local_day(until, field)
        except Invalid:
            raise Invalid(f"The repeat end date “{until}” is not a date.", field) from None
        if u < start_day:
            raise Invalid("The repeat end date is before the event starts.", field)
        out["until"] = u.isoformat()
    if count not in (None, ""):
        if isinstance(count, str) and as_id(count) is not None:
            count = as_id(count)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise Invalid(f"End after 1 to {MAX_COUNT} occurrences.", field)
        out["count"] = count
    byday = rec.get("byday")
    if byday:
        if freq != "weekly":
            raise Invalid("Days of the week apply to weekly repeats only.", field)
        if isinstance(byday, str):
            byday = [byday]
        codes = [str(d).upper() for d in byday]
        bad = [c for c in codes if c not in DAYS]
        if bad:
            raise Invalid(f"Unknown day {bad[0]!r}: use MO, TU, WE, TH, FR, SA, SU.", field)
        out["byday"] = sorted(set(codes), key=DAYS.index)
    exdates = rec.get("exdates") or []
    try:
        out_ex = sorted({local_day(d, field).isoformat() for d in exdates})
    except (Invalid, TypeError):
        raise Invalid("Exceptions must be dates.", field) from None
    if out_ex:
        out["exdates"] = out_ex
    return out


def _rule_dates(rec: dict, d0: date):
    """Every date of the rule from ``d0`` on, in order (exdates included; until/count not applied)."""
    n = rec.get("interval", 1)
    if rec["freq"] == "daily":
        d = d0
        while True:
            yield d
            d += timedelta(days=n)
    elif rec["freq"] == "weekly":
        days = [DAYS.index(c) for c in rec.get("byday") or [DAYS[d0.weekday()]]]
        yield d0
        week0 = d0 - timedelta(days=d0.weekday())
        k = 0
        while True:
            ws = week0 + timedelta(weeks=k * n)
            for wd in days:
                d = ws + timedelta(days=wd)
                if d > d0:
                    yield d
            k += 1
    else:
        k = 0
        while True:
            m = d0.month - 1 + k * n
            try:
                yield date(d0.year + m // 12, m % 12 + 1, d0.day)
            except ValueError:
                pass                                # no such day that month: skipped, as in RFC 5545
            k += 1


def occurrence_dates(rec: dict, d0: date, last: date) -> list[date]:
    """The rule's dates from ``d0`` through ``last`` (until/count applied, exdates removed)."""
    until = date.fromisoformat(rec["until"]) if rec.get("until") else None
    count = rec.get("count")
    ex = set(rec.get("exdates") or ())
    out = []
    for i, d in enumerate(_rule_dates(rec, d0)):
        if i >= _MAX_STEPS or d > last or (until and d > until) or (count and i >= count):
            break
        if d.isoformat() not in ex:
            out.append(d)
    return out


def occurrences(store: Store, ev: dict, start: datetime, end: datetime) -> list[tuple[str | None, datetime, datetime]]:
    """``(occurrence date or None, start, end)`` of the event overlapping [start, end), world-local."""
    s0, e0 = store.local(ev["start"]), store.local(ev["end"])
    rec = ev.get("recurrence")
    if not rec:
        return [(None, s0, e0)] if s0 < end and e0 > start else []
    naive0 = s0.replace(tzinfo=None)
    dur = e0.replace(tzinfo=None) - naive0
    first = (start.astimezone(store.tz) - (e0 - s0) - timedelta(days=1)).date()
    out = []
    for d in occurrence_dates(rec, s0.date(), end.astimezone(store.tz).date()):
        if d < first:
            continue
        ns = datetime.combine(d, naive0.time())
        s, e = _wall(ns, store), _wall(ns + dur, store)
        if s < end and e > start:
            out.append((d.isoformat(), s, e))
    return out


def recurrence_text(rec: dict | None) -> str:
    """"Weekly on Monday, Wednesday, until Jun 30, 2026" — as Google Calendar words it."""
    if not rec:
        return "Does not repeat"
    n, freq = rec.get("interval", 1), rec["freq"]
    if freq == "daily":
        text = "Daily" if n == 1 else f"Every {n} days"
    elif freq == "weekly":
        days = rec.get("byday") or []
        if days == ["MO", "TU", "WE", "TH", "FR"] and n == 1:
            text = "Every weekday (Monday to Friday)"
        else:
            names = ", ".join(DAY_NAMES[DAYS.index(d)] for d in days)
            text = ("Weekly" if n == 1 else f"Every {n} weeks") + (f" on {names}" if names else "")
    else:
        text = "Monthly" if n == 1 else f"Every {n} months"
    if rec.get("until"):
        u = date.fromisoformat(rec["until"])
        text += f", until {u.strftime('%b')} {u.day}, {u.year}"
    elif rec.get("count"):
        text += ", once" if rec["count"] == 1 else f", {rec['count']} times"
    return text


def recurrence_text_for(ev: dict, store: Store) -> str:
    rec = ev.get("recurrence")
    if not rec:
        return ""
    text = recurrence_text(rec)
    d0 = store.local(ev["start"]).date()
    if rec["freq"] == "weekly" and not rec.get("byday"):
        text = text.replace("Weekly", f"Weekly on {DAY_NAMES[d0.weekday()]}", 1) if text.startswith("Weekly") \
            else text.replace(" weeks", f" weeks on {DAY_NAMES[d0.weekday()]}", 1)
    if rec["freq"] == "monthly":
        text = text.replace("Monthly", f"Monthly on day {d0.day}", 1) if text.startswith("Monthly") \
            else text.replace(" months", f" months on day {d0.day}", 1)
    return text
