"""Regional formats, one of the appearance variants (issue 22): how the apps write dates, times and
numbers for a person whose account is set to the United States, the United Kingdom or Germany. The
language stays the world's (English: month and weekday names are English in every locale); only
the order, the clock and the separators change, as a product set to "English, Germany" shows them.

    locale   date      short     medium        long                   time    number      money
    en-US    4/3/2026  Apr 3     Apr 3, 2026   Monday, April 6        4:12 PM 1,234.5     $1,234
    en-GB    03/04/2026 3 Apr    3 Apr 2026    Monday 6 April         16:12   1,234.5     $1,234
    de-DE    03.04.2026 3 Apr    3 Apr 2026    Monday, 6 April        16:12   1.234,5     1.234 $

What follows the locale and what does not is each product's own rule: Gmail, Drive, Chat, Calendar and
the CRM format for the viewer's account; a spreadsheet, a document or a slide keeps the formats of the
file (Sheets' locale is a setting of the spreadsheet, not of whoever opens it), and the service desk
shows its system's date format (ServiceNow's glide.sys.date_format), so those never change. Stored
content (a message's text, a quoted reply's header written by the store) never changes either:
the locale is how things look, never what they are.

The request's locale is a context variable: ``apps.web.regional`` sets it from the
``deskworld_locale`` cookie for the request; outside a request (CLI, tools, seeding, verifiers)
it is ``en-US``. Typed input follows it too: ``parse_date`` reads 03/04/2026 as 3 April in en-GB and
de-DE, ``parse_number`` reads 1.234,5 in de-DE.

``localize_text`` rewrites what a task script names in en-US (a time "1:00pm", a date "April 6",
"12/8/2026", in de-DE an amount "$370,000,000" or a figure "1,234") into the locale's, for the oracle
that aims at the page by its words."""
from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from datetime import date, datetime, time

LOCALES = ("en-US", "en-GB", "de-DE")
DEFAULT = "en-US"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

_current: ContextVar[str] = ContextVar("deskworld_locale", default=DEFAULT)


def current() -> str:
    return _current.get()


def valid(code: str | None) -> str | None:
    """``code`` when it names a locale (any case, ``_`` or ``-``), else None."""
    if not code:
        return None
    want = str(code).replace("_", "-").lower()
    return next((c for c in LOCALES if c.lower() == want), None)


def set_current(code: str | None):
    """Make ``code`` (default when None or unknown) the current locale; returns the token to reset."""
    return _current.set(valid(code) or DEFAULT)


@contextlib.contextmanager
def use(code: str | None):
    token = set_current(code)
    try:
        yield
    finally:
        _current.reset(token)


def is_default() -> bool:
    return current() == DEFAULT


def h24() -> bool:
    """The 24-hour clock (en-GB, de-DE)."""
    return current() != "en-US"


# ---------------------------------------------------------------------------- dates
def _mon(d: date) -> str:
    return MONTHS[d.month - 1][:3]


def numeric(d: date, short_year: bool = False) -> str:
    """4/3/2026 · 03/04/2026 · 03.04.2026 (``short_year``: 4/3/26 · 03/04/2026 · 03.04.26)."""
    loc = current()
    if loc == "en-US":
        return f"{d.month}/{d.day}/{d.year % 100:02d}" if short_year else f"{d.month}/{d.day}/{d.year}"
    if loc == "en-GB":
        return f"{d.day:02d}/{d.month:02d}/{d.year}"
    return f"{d.day:02d}.{d.month:02d}.{d.year % 100:02d}" if short_year else f"{d.day:02d}.{d.month:02d}.{d.year}"


def day_month(d: date, full: bool = False) -> str:
    """Apr 3 · 3 Apr (``full``: April 3 · 3 April)."""
    m = MONTHS[d.month - 1] if full else _mon(d)
    return f"{m} {d.day}" if current() == "en-US" else f"{d.day} {m}"


def medium(d: date, full: bool = False) -> str:
    """Apr 3, 2026 · 3 Apr 2026 (``full``: April 3, 2026 · 3 April 2026)."""
    return f"{day_month(d, full)}, {d.year}" if current() == "en-US" else f"{day_month(d, full)} {d.year}"


def weekday_day(d: date, full: bool = True, abbr: bool = False, year: bool = False) -> str:
    """Monday, April 6 · Monday 6 April · Monday, 6 April (``abbr``: Mon, Apr 6 …; ``year``: with it)."""
    wd = WEEKDAYS[d.weekday()]
    wd = wd[:3] if abbr else wd
    body = medium(d, full) if year else day_month(d, full)
    sep = " " if current() == "en-GB" else ", "
    return f"{wd}{sep}{body}"


# ---------------------------------------------------------------------------- times
def clock(t: time | datetime, *, lower: bool = False, drop_zero: bool = False, suffix: bool = True) -> str:
    """A time of day: en-US "4:12 PM" (``lower``: "4:12pm", Google's; ``drop_zero``: "4pm" on the hour;
    ``suffix`` False: without am/pm); en-GB and de-DE "16:12" always."""
    if h24():
        return f"{t.hour:02d}:{t.minute:02d}"
    h = t.hour % 12 or 12
    s = f"{h}" if drop_zero and t.minute == 0 else f"{h}:{t.minute:02d}"
    if not suffix:
        return s
    half = "am" if t.hour < 12 else "pm"
    return s + (half if lower else " " + half.upper())


# ---------------------------------------------------------------------------- numbers
def number(v: float | int, decimals: int | None = None) -> str:
    """1,234.5 · 1,234.5 · 1.234,5 (``decimals``: fixed places)."""
    s = f"{v:,.{decimals}f}" if decimals is not None else f"{v:,}"
    if current() == "de-DE":
        s = s.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return s


def with_symbol(body: str, symbol: str = "$") -> str:
    """A written amount with its currency symbol where the locale puts it: $1.2M · 1,2M $."""
    neg, body = body.startswith("-"), body.lstrip("-")
    return f"{'-' if neg else ''}" + (f"{body} {symbol}" if current() == "de-DE" else f"{symbol}{body}")


def money(v: float | int, decimals: int = 0, symbol: str = "$") -> str:
    """$1,234 · $1,234 · 1.234 $ (a negative amount: -$1,234 · -1.234 $)."""
    return with_symbol(number(v, decimals), symbol)


def decimal_sep() -> str:
    return "," if current() == "de-DE" else "."


def parse_number(text: str) -> float | None:
    """A number as a person in the current locale types it (group separators optional), or None. In
    de-DE a dot only groups thousands (1.250.000,5): "1250000.00" is refused, not read as 125000000."""
    s = str(text).strip().replace("\u00a0", "").replace(" ", "")
    if current() == "de-DE":
        if not re.fullmatch(r"[-+]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?", s):
            return None
        s = s.replace(".", "").replace(",", ".")
    else:                                       # en: commas are dropped wherever they are ("1,250,000")
        s = s.replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def parse_date(text: str) -> date | None:
    """A numeric date as a person in the current locale types it — en-US M/D/YYYY, en-GB DD/MM/YYYY,
    de-DE DD.MM.YYYY (and D.M.YYYY) — or ISO YYYY-MM-DD in any locale; None when it isn't one."""
    s = str(text).strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
            return date.fromisoformat(s)
        m = re.fullmatch(r"(\d{1,2})([/.])(\d{1,2})\2(\d{4})", s)
        if not m:
            return None
        a, sep, b, y = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
        loc = current()
        if loc == "en-US" and sep == "/":
            return date(y, a, b)
        if (loc == "en-GB" and sep == "/") or (loc == "de-DE" and sep == "."):
            return date(y, b, a)
    except ValueError:
        return None
    return None


def date_example() -> str:
    """How the locale writes a numeric date, for an error message: 6/30/2026 · 30/06/2026 · 30.06.2026."""
    return numeric(date(2026, 6, 30))


# ---------------------------------------------------------------------------- a script's words
_MONTH_RE = "|".join(MONTHS + [m[:3] for m in MONTHS if m != "May"])
_RANGE = re.compile(r"\b(\d{1,2})(?::(\d{2}))? – (\d{1,2})(?::(\d{2}))?\s?(am|pm|AM|PM)\b")   # "8 – 9:30am"
_MONEY = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d,.]*\d)")                 # "$370,000,000"
_GROUPED = re.compile(r"(?<![\d.,$])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,.]*\d)")           # "1,234.5"
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s?(am|pm|AM|PM)\b")
_MDY = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_WD_MD = re.compile(rf"\b({'|'.join(WEEKDAYS)}|{'|'.join(w[:3] for w in WEEKDAYS)}), ({_MONTH_RE}) (\d{{1,2}})\b(?:, (\d{{4}}))?")
_MD = re.compile(rf"\b({_MONTH_RE}) (\d{{1,2}})\b(?:, (\d{{4}}))?")


_MONEY_ESCAPED = re.compile(r"\\\$(\d{1,3}(?:,\d{3})+|\d+)(?:\\?\.(\d+))?(?![\d,.]*\d)")    # r"\$16,200" in a pattern


def _amount(whole: str, frac: str | None) -> str:
    """An en-US amount's digits ("370,000,000", "50") as the locale writes the amount."""
    return money(float(whole.replace(",", "") + (f".{frac}" if frac else "")), len(frac) if frac else 0)


def localize_pattern(pattern: str, code: str | None = None) -> str:
    """``localize_text`` for a regular expression: an amount written ``\\$16,200`` in it becomes the
    locale's amount, escaped; times, dates and figures as in text."""
    with use(code or current()):
        if is_default():
            return pattern
        if current() == "de-DE":
            pattern = _MONEY_ESCAPED.sub(lambda m: re.escape(_amount(m.group(1), m.group(2))), pattern)
        return localize_text(pattern)


def localize_text(text: str, code: str | None = None) -> str:
    """What ``text`` (written for en-US) reads as in the locale: its times of day ("1:00pm",
    "5:10 PM"), numeric dates ("12/8/2026") and month-day dates ("April 6", "Mon, Apr 6, 2026")
    rewritten; everything else as it is. In en-US (or ``code`` None and the default current) unchanged."""
    with use(code or current()):
        if is_default():
            return text

        def t(m):
            h = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
            return clock(time(h, int(m.group(2) or 0)))

        def mdy(m):
            try:
                return numeric(date(int(m.group(3)), int(m.group(1)), int(m.group(2))))
            except ValueError:
                return m.group(0)

        def wd_md(m):
            body = f"{int(m.group(3))} {m.group(2)}" + (f" {m.group(4)}" if m.group(4) else "")
            return f"{m.group(1)}{' ' if current() == 'en-GB' else ', '}{body}"

        def md(m):
            return f"{int(m.group(2))} {m.group(1)}" + (f" {m.group(3)}" if m.group(3) else "")

        def rng(m):                               # Google writes the half once when both ends share it
            pm = m.group(5).lower() == "pm"
            a = time(int(m.group(1)) % 12 + (12 if pm else 0), int(m.group(2) or 0))
            b = time(int(m.group(3)) % 12 + (12 if pm else 0), int(m.group(4) or 0))
            return f"{clock(a)} – {clock(b)}"

        def grouped(m):
            digits, _, frac = m.group(0).replace(",", "").partition(".")
            return number(float(f"{digits}.{frac}"), len(frac)) if frac else number(int(digits))

        if current() == "de-DE":                   # amounts and grouped figures the way the CRM writes them
            text = _MONEY.sub(lambda m: _amount(m.group(1), m.group(2)), text)
            text = _GROUPED.sub(grouped, text)
        text = _RANGE.sub(rng, text)
        text = _TIME.sub(t, text)
        text = _MDY.sub(mdy, text)
        text = _WD_MD.sub(wd_md, text)
        return _MD.sub(md, text)
