"""Dates and numbers as the CRM reads and shows them: today, quarters and months, relative date
ranges, parsing dates, date-times and amounts, money, slugs.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from apps.core import locale
from apps.core.errors import Invalid
from apps.core.store.db import Store, utc_iso
from apps.crm.service.fields import REQUIRED


def today(store: Store) -> date:
    return store.local(store.now()).date()


def quarter_range(d: date, offset: int = 0) -> tuple[date, date]:
    """First and last day of the (calendar = fiscal) quarter of ``d``, shifted by ``offset`` quarters."""
    q = (d.month - 1) // 3 + offset
    y = d.year + q // 4
    q = q % 4
    first = date(y, q * 3 + 1, 1)
    nxt = date(y + (1 if q == 3 else 0), 1 if q == 3 else q * 3 + 4, 1)
    return first, nxt - timedelta(days=1)


def month_range(d: date, offset: int = 0) -> tuple[date, date]:
    m = d.month - 1 + offset
    y, m = d.year + m // 12, m % 12 + 1
    first = date(y, m, 1)
    nxt = date(y + (m == 12), 1 if m == 12 else m + 1, 1)
    return first, nxt - timedelta(days=1)


def date_range(store: Store, keyword: str) -> tuple[date, date] | None:
    t = today(store)
    k = (keyword or "").strip().upper().replace(" ", "_")
    if k == "TODAY":
        return t, t
    if k == "THIS_WEEK":
        s = t - timedelta(days=(t.weekday() + 1) % 7)
        return s, s + timedelta(days=6)
    if k == "THIS_MONTH":
        return month_range(t)
    if k == "NEXT_MONTH":
        return month_range(t, 1)
    if k == "THIS_QUARTER":
        return quarter_range(t)
    if k == "NEXT_QUARTER":
        return quarter_range(t, 1)
    if k == "LAST_QUARTER":
        return quarter_range(t, -1)
    if k == "THIS_YEAR":
        return date(t.year, 1, 1), date(t.year, 12, 31)
    return None


def parse_date(value, field: str = "close_date", required: bool = True) -> str | None:
    """``YYYY-MM-DD`` (or the locale's numeric date: ``M/D/YYYY`` en-US, ``DD/MM/YYYY`` en-GB,
    ``DD.MM.YYYY`` de-DE; ``apps.core.locale``) → ``YYYY-MM-DD``."""
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return value.isoformat()
    v = str(value or "").strip()
    if not v:
        if required:
            raise Invalid(REQUIRED, field)
        return None
    d = locale.parse_date(v)
    if d is not None:
        return d.isoformat()
    raise Invalid(f"Your entry does not match the allowed format: enter a date like {locale.date_example()} or "
                  f"2026-06-30 (you entered “{v}”).", field)


def parse_local_dt(store: Store, value, field: str = "at") -> str:
    """A world-local ``YYYY-MM-DDTHH:MM`` (or a date) → UTC ISO."""
    v = str(value or "").strip().replace(" ", "T")
    if not v:
        raise Invalid(REQUIRED, field)
    try:
        dt = datetime.fromisoformat(v) if "T" in v else datetime.combine(date.fromisoformat(v), time(9))
    except ValueError:
        raise Invalid(f"Enter a date and time like 2026-06-12T14:00 (you entered “{v}”).", field) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=store.tz)
    return utc_iso(dt)


def parse_amount(value, field: str = "amount", required: bool = False) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise Invalid(REQUIRED, field)
        return None
    if isinstance(value, bool):
        raise Invalid("Enter a number.", field)
    if isinstance(value, (int, float)):
        num = float(value)
    else:
        num = locale.parse_number(str(value).replace("$", "").replace("USD", ""))
        if num is None:
            raise Invalid(f"Enter a number (you entered “{value}”).", field)
    if num != num or num in (float("inf"), float("-inf")):
        raise Invalid("Enter a number.", field)
    if num < 0:
        raise Invalid("Amount can't be negative.", field)
    if num != int(num):
        raise Invalid("Enter a whole-dollar amount.", field)
    if num > 10**13:
        raise Invalid("That number is too large.", field)
    return int(num)


def money(v) -> str:
    if v is None or v == "":
        return ""
    return locale.money(int(v))


def money_short(v) -> str:
    """$1.2M, $450K, $900 (de-DE: 1,2M $, 450K $, 900 $)."""
    v = int(v or 0)
    if v >= 1_000_000:
        s = f"{v / 1_000_000:.1f}".rstrip("0").rstrip(".")
        body = s.replace(".", locale.decimal_sep()) + "M"
    elif v >= 1_000:
        body = locale.number(round(v / 1000)) + "K"
    else:
        body = f"{v}"
    return locale.with_symbol(body)


def slugify(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")
    return s[:60] or "record"
