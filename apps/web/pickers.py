"""What the in-page date and time pickers (the date_input macro, deskworld-pickers.js) show in their
boxes, in each product's own format. The value a form posts stays the native inputs' canonical one
(YYYY-MM-DD, HH:MM, YYYY-MM-DDTHH:MM), so routes take the same values they always did; a value that
isn't canonical is shown as it is, so the server's error can name it.

    google      Dec 8, 2026     2:30pm
    salesforce  12/8/2026       2:30 PM
    servicenow  2026-12-08      2026-12-08 14:30:00  (one box for date and time)

in the request's regional formats (``apps.core.locale``): en-GB "8 Dec 2026", "08/12/2026", "14:30";
de-DE "8 Dec 2026", "08.12.2026", "14:30"; ServiceNow's system format in every locale. The page's
``<html data-locale>`` tells the script the same.
"""
from __future__ import annotations

import re
from datetime import date, time

from apps.core import locale

SKINS = ("google", "salesforce", "servicenow")
KINDS = ("date", "time", "datetime")
_DT = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
_T = re.compile(r"^(\d{2}:\d{2})(?::\d{2})?$")


def _date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _time(text: str) -> time | None:
    try:
        return time.fromisoformat(text)
    except ValueError:
        return None


def date_text(d: date, skin: str) -> str:
    if skin == "servicenow":
        return d.isoformat()
    if skin == "salesforce":
        return locale.numeric(d)
    return locale.medium(d)


def time_text(t: time, skin: str) -> str:
    if skin == "servicenow":
        return t.strftime("%H:%M:%S")
    return locale.clock(t, lower=skin == "google")


def split(value: str | None, kind: str) -> tuple[str, str]:
    """The canonical (date, time) parts of a value, or the raw text in the first part when it isn't
    one (so a bad value stays in the box)."""
    value = (value or "").strip()
    if not value:
        return "", ""
    if kind == "time":
        m = _T.match(value)
        return ("", m.group(1)) if m and _time(m.group(1)) else (value, "")
    m = _DT.match(value)
    if not m or not _date(m.group(1)) or (m.group(2) and not _time(m.group(2))):
        return value, ""
    return m.group(1), (m.group(2) or "") if kind == "datetime" else ""


def boxes(value: str | None, kind: str = "date", skin: str = "google") -> dict:
    """What the macro needs: the value to post and the text of each box (one box for ServiceNow's
    date and time). An empty or unreadable value is posted and shown as it is."""
    if kind not in KINDS:
        raise ValueError(f"date_input: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if skin not in SKINS:
        raise ValueError(f"date_input: skin must be one of {', '.join(SKINS)}, not {skin!r}")
    raw = (value or "").strip()
    one = kind == "datetime" and skin == "servicenow"
    d, t = split(raw, kind)
    at = _time(t) if t else None
    if kind == "time":
        return {"value": t if at else raw, "date": "", "time": time_text(at, skin) if at else raw, "one_box": False}
    day = _date(d) if d else None
    if day is None:
        return {"value": raw, "date": raw, "time": "", "one_box": one}
    dtext, ttext = date_text(day, skin), time_text(at, skin) if at else ""
    return {"value": f"{d}T{t}" if t else d, "date": f"{dtext} {ttext}".strip() if one else dtext,
            "time": ttext, "one_box": one}
