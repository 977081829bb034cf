"""Dates as serial day numbers: TODAY, NOW, DATE, YEAR/MONTH/DAY, DAYS, EDATE, EOMONTH."""
from __future__ import annotations

import calendar
import math
from datetime import date, timedelta

from apps.sheets.formula.base import _EPOCH, _EPOCH_DT, Value
from apps.sheets.formula.coercion import Arg, _clean, _fail, _int, _num
from apps.sheets.formula.functions.base import Host, _fn


@_fn("TODAY", lo=0, hi=0, lazy=True)
def _today(wb: Host, args: tuple, tab: str) -> Value:
    return (wb._now().date() - _EPOCH).days


@_fn("NOW", lo=0, hi=0, lazy=True)
def _now_fn(wb: Host, args: tuple, tab: str) -> Value:
    return _clean((wb._now() - _EPOCH_DT).total_seconds() / 86400)


def _to_date(v: Arg) -> date:
    n = _num(v)
    try:
        return _EPOCH + timedelta(days=math.floor(n))
    except OverflowError:
        _fail("#NUM!", f"{n} is not a valid date serial number.")


def _serial(d: date) -> int:
    return (d - _EPOCH).days


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 + months, 12)
    if not 1 <= y <= 9999:
        _fail("#NUM!", "Date is out of range.")
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


@_fn("DATE", lo=3, hi=3)
def _date(y: Arg, m: Arg, d: Arg) -> Value:
    year, month, day = _int(y), _int(m), _int(d)
    if 0 <= year < 1900:
        year += 1900
    try:
        first = _add_months(date(year, 1, 1), month - 1)
        return _serial(first + timedelta(days=day - 1))
    except (ValueError, OverflowError):
        _fail("#NUM!", "DATE evaluates to an out of range date.")


@_fn("YEAR")
def _year(v: Arg) -> Value:
    return _to_date(v).year


@_fn("MONTH")
def _month(v: Arg) -> Value:
    return _to_date(v).month


@_fn("DAY")
def _day(v: Arg) -> Value:
    return _to_date(v).day


@_fn("DAYS", lo=2, hi=2)
def _days(end: Arg, start: Arg) -> Value:
    return _serial(_to_date(end)) - _serial(_to_date(start))


@_fn("EDATE", lo=2, hi=2)
def _edate(start: Arg, months: Arg) -> Value:
    return _serial(_add_months(_to_date(start), _int(months)))


@_fn("EOMONTH", lo=2, hi=2)
def _eomonth(start: Arg, months: Arg) -> Value:
    d = _add_months(_to_date(start).replace(day=1), _int(months))
    return _serial(d.replace(day=calendar.monthrange(d.year, d.month)[1]))
