"""Dates written the ways people write them (US locale first, as the worlds are).

``parse_date`` reads one date; ``find_date_spans`` finds every date written in a
text. Numeric dates are month first ("4/5/2026" is April 5) unless the first
number can't be a month ("22/04/2026") or the episode was seen in en-GB or de-DE
(``reading_locale``: "04/05/2026" is 4 May there); "29.05.2026" is day first. A date
written without a year ("April 22", "Tue 28 Apr") takes the year that puts it
nearest ``today`` (the world clock), when one is given.
"""
from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from datetime import date, datetime

# The locale the episode was seen in (an appearance variant, ``apps.core.locale``): in en-GB and de-DE an
# ambiguous numeric date ("03/04/2026") is read day first, as the page wrote it, and in de-DE a number
# with German separators ("1.250.000", "12,5") is read as German (``reading.number_cands``).
READING_LOCALE: ContextVar[str] = ContextVar("reading_locale", default="en-US")


@contextlib.contextmanager
def reading_locale(code: str | None):
    token = READING_LOCALE.set(code or "en-US")
    try:
        yield
    finally:
        READING_LOCALE.reset(token)

MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                          "nov", "dec"))}
_MON = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_WD = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+)?"
DATE_SPANS = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?\b"
    r"|\b\d{4}/\d{1,2}/\d{1,2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b\d{1,2}\.\d{1,2}\.\d{4}\b"
    rf"|\b\d{{1,2}}-{_MON}-\d{{4}}\b"
    rf"|\b{_WD}{_MON}\s+{_DAY}(?:,?\s+\d{{4}}\b)?(?!\s*(?:,\d|\d))"
    rf"|\b{_WD}{_DAY}\s+(?:of\s+)?{_MON}(?:,?\s+\d{{4}}\b)?",
    re.I)


def nearest_day(month: int, day: int, today: date | None) -> date | None:
    """The date with this month and day in the year nearest ``today`` (a date written without a year)."""
    if today is None:
        return None
    best = None
    for y in (today.year - 1, today.year, today.year + 1):
        try:
            d = date(y, month, day)
        except ValueError:
            continue
        if best is None or abs((d - today).days) < abs((best - today).days):
            best = d
    return best


def _month(word: str) -> int | None:
    return MONTHS.get(word.lower().rstrip(".")[:3])


def parse_date(text: str, today: date | None = None) -> date | None:
    t = re.sub(r"\s+", " ", text.strip()).strip(" ,.")
    t = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", t, flags=re.I)
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:T[\d:]+Z?)?", t)
    if m:
        return _safe(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{4})/(\d{1,2})/(\d{1,2})", t)
    if m:
        return _safe(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", t)
    if m:
        a, b, y = int(m[1]), int(m[2]), int(m[3])
        y += 2000 if y < 100 else 0
        day_first = READING_LOCALE.get() != "en-US"
        if a > 12 or (day_first and b <= 12):
            return _safe(y, b, a)
        return _safe(y, a, b)
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", t)
    if m:
        return _safe(int(m[3]), int(m[2]), int(m[1]))
    m = re.fullmatch(r"(\d{1,2})-([A-Za-z]+\.?)-(\d{4})", t)
    if m and _month(m[2]):
        return _safe(int(m[3]), _month(m[2]), int(m[1]))
    t = re.sub(rf"^{_WD}", "", t, flags=re.I).strip()
    m = re.fullmatch(r"([A-Za-z]+\.?) (\d{1,2})(?:,? (\d{4}))?", t)
    if m and _month(m[1]):
        return _safe(int(m[3]), _month(m[1]), int(m[2])) if m[3] else nearest_day(_month(m[1]), int(m[2]), today)
    m = re.fullmatch(r"(\d{1,2}) (?:of )?([A-Za-z]+\.?)(?:,? (\d{4}))?", t)
    if m and _month(m[2]):
        return _safe(int(m[3]), _month(m[2]), int(m[1])) if m[3] else nearest_day(_month(m[2]), int(m[1]), today)
    try:
        return datetime.fromisoformat(t.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def _safe(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def find_date_spans(text: str) -> list[tuple[int, int]]:
    """Where dates are written in ``text`` (with or without a year)."""
    return [(m.start(), m.end()) for m in DATE_SPANS.finditer(text)]


def find_dates(text: str, today: date | None = None) -> list[date]:
    out = []
    for s, e in find_date_spans(text):
        d = parse_date(text[s:e], today)
        if d is not None and d not in out:
            out.append(d)
    return out
