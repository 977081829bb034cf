"""Dates written the ways people write them (US locale first, as the worlds are)."""
from __future__ import annotations

import re
from datetime import date, datetime

FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%m/%d/%Y", "%m/%d/%y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y",
           "%d %B %Y", "%d %b %Y", "%A, %B %d, %Y", "%a, %b %d, %Y", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%SZ",
           "%Y-%m-%d %H:%M", "%B %d, %Y %H:%M")

# Spans that look like a date, for pulling candidates out of free text.
DATE_SPANS = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?\b"
    r"|\b\d{4}/\d{1,2}/\d{1,2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?"
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?,?\s+\d{4}\b",
    re.I)


def parse_date(text: str) -> date | None:
    t = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.strip(), flags=re.I).replace("Sept", "Sep").replace(".", "")
    t = re.sub(r"\s+", " ", t)
    for fmt in FORMATS:
        try:
            return datetime.strptime(t, fmt).date()
        except ValueError:
            continue
    try:
        return datetime.fromisoformat(t.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def find_dates(text: str) -> list[date]:
    out = []
    for m in DATE_SPANS.finditer(text):
        d = parse_date(m.group(0))
        if d is not None and d not in out:
            out.append(d)
    return out
