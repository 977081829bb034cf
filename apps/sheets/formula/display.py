"""Display text of values: cell number formats (``format_value``) and TEXT() patterns."""
from __future__ import annotations

import math
import re
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

from apps.sheets.formula.base import _DECIMALS, _EPOCH, _EPOCH_DT, ErrorValue, Value
from apps.sheets.formula.coercion import _fail


def _fixed(x: int | float, decimals: int, commas: bool) -> str:
    """``x`` with ``decimals`` places, rounded half away from zero, optionally with thousands separators."""
    decimals = max(0, decimals)
    q = Decimal(repr(x)) if type(x) is float else Decimal(x)
    q = q.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP, context=_DECIMALS)
    if q == 0:
        q = abs(q)
    return f"{q:,.{decimals}f}" if commas else f"{q:.{decimals}f}"


def _general(x: int | float) -> str:
    """Automatic number display: up to 10 significant digits, trailing zeros trimmed."""
    if type(x) is int:
        return str(x)
    if not math.isfinite(x):
        return "#NUM!"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    s = f"{x:.10g}"
    if "e" in s and 1 <= abs(x) < 1e15:              # plain digits, rounded
        return f"{x:.0f}"
    if "e" in s:
        mantissa, exp = s.split("e")
        return f"{mantissa}E{int(exp):+03d}"
    return s


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DATE_TOKENS = re.compile(r"yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm", re.IGNORECASE)
_NUMBER_CORE = re.compile(r"[#0][#0,]*(?:\.[#0]*)?|\.[#0]+")


def _format_date_pattern(x: int | float, fmt: str) -> str:
    try:
        dt = _EPOCH_DT + timedelta(seconds=round(x * 86400))
    except OverflowError:
        _fail("#NUM!", f"{x} is not a valid date serial number.")
    tokens = [(m.start(), m.end(), m.group().lower()) for m in _DATE_TOKENS.finditer(fmt)]
    twelve = any(tok == "am/pm" for _, _, tok in tokens)
    out, pos = [], 0
    for i, (start, end, tok) in enumerate(tokens):
        out.append(fmt[pos:start])
        pos = end
        prev = tokens[i - 1][2] if i else ""
        nxt = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if tok in ("m", "mm") and (prev in ("h", "hh") or nxt in ("s", "ss")):
            out.append(f"{dt.minute:02d}" if tok == "mm" else str(dt.minute))
            continue
        hour = (dt.hour % 12 or 12) if twelve else dt.hour
        out.append({
            "yyyy": f"{dt.year:04d}", "yy": f"{dt.year % 100:02d}", "mmmm": _MONTHS[dt.month - 1],
            "mmm": _MONTHS[dt.month - 1][:3], "mm": f"{dt.month:02d}", "m": str(dt.month),
            "dddd": _WEEKDAYS[dt.weekday()], "ddd": _WEEKDAYS[dt.weekday()][:3], "dd": f"{dt.day:02d}",
            "d": str(dt.day), "hh": f"{hour:02d}", "h": str(hour), "ss": f"{dt.second:02d}",
            "s": str(dt.second), "am/pm": "AM" if dt.hour < 12 else "PM",
        }[tok])
    out.append(fmt[pos:])
    return "".join(out)


def _format_pattern(x: int | float, fmt: str) -> str:
    """TEXT() patterns: numbers ("0.00", "#,##0", "$#,##0.00", "0%", "000"), dates
    ("yyyy-mm-dd", "mm/dd/yyyy", "mmm d, yyyy", "hh:mm") and "positive;negative;zero" sections."""
    sections = fmt.split(";")
    if len(sections) > 1 and x < 0:
        return _format_pattern(-x, sections[1])
    if len(sections) > 2 and x == 0:
        return _format_pattern(x, sections[2])
    fmt = sections[0]
    core = _NUMBER_CORE.search(fmt)
    if core is None:
        return _format_date_pattern(x, fmt) if _DATE_TOKENS.search(fmt) else fmt
    prefix, suffix = fmt[:core.start()], fmt[core.end():]
    int_part, _, dec_part = core.group().partition(".")
    if "%" in prefix + suffix:
        x = float(Decimal(repr(x)) * 100) if type(x) is float else x * 100
    s = _fixed(abs(x), len(dec_part), "," in int_part)
    whole, dot, frac = s.partition(".")
    min_digits = int_part.count("0")
    if whole == "0" and min_digits == 0:
        whole = ""
    elif len(whole.replace(",", "")) < min_digits:
        whole = whole.rjust(min_digits, "0")
    s = whole + dot + frac
    negative = x < 0 and any(ch not in "0.," for ch in s)
    return ("-" if negative else "") + prefix + s + suffix


def format_value(value: Value, fmt: dict | None = None) -> str:
    """Display text of a cell value under a number format.

    ``fmt``: ``{"type": "auto"|"number"|"currency"|"percent"|"date"|"text", "decimals": int,
    "symbol": str}``. Text, booleans, errors and empties display the same under every format.
    """
    if value is None:
        return ""
    if isinstance(value, ErrorValue):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return value
    fmt = fmt or {}
    kind = fmt.get("type") or "auto"
    decimals = fmt.get("decimals")
    places = 2 if decimals is None else int(decimals)
    if kind == "number":
        return _fixed(value, places, True)
    if kind == "currency":
        s = _fixed(abs(value), places, True)
        negative = value < 0 and any(ch not in "0.," for ch in s)
        return ("-" if negative else "") + fmt.get("symbol", "$") + s
    if kind == "percent":
        scaled = float(Decimal(repr(value)) * 100) if type(value) is float else value * 100
        return _fixed(scaled, places, True) + "%"
    if kind == "date":
        try:
            return (_EPOCH + timedelta(days=math.floor(value))).isoformat()
        except (OverflowError, ValueError):
            return _general(value)
    return _general(value)
