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


def _masked(fmt: str) -> str:
    """``fmt`` with its literal text (``"…"`` and ``\\x``) blanked to NULs of the same length, so the
    pattern's placeholders are found only outside it."""
    out, i = [], 0
    while i < len(fmt):
        ch = fmt[i]
        if ch == '"':
            j = fmt.find('"', i + 1)
            j = len(fmt) - 1 if j < 0 else j
            out.append("\0" * (j - i + 1))
            i = j + 1
        elif ch == "\\" and i + 1 < len(fmt):
            out.append("\0\0")
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _literal(seg: str) -> str:
    """A pattern's literal part as displayed: quotes dropped, ``\\x`` is ``x``."""
    out, i = [], 0
    while i < len(seg):
        ch = seg[i]
        if ch == '"':
            j = seg.find('"', i + 1)
            j = len(seg) if j < 0 else j
            out.append(seg[i + 1:j])
            i = j + 1
        elif ch == "\\" and i + 1 < len(seg):
            out.append(seg[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _format_date_pattern(x: int | float, fmt: str) -> str:
    try:
        dt = _EPOCH_DT + timedelta(seconds=round(x * 86400))
    except OverflowError:
        _fail("#NUM!", f"{x} is not a valid date serial number.")
    tokens = [(m.start(), m.end(), m.group().lower()) for m in _DATE_TOKENS.finditer(_masked(fmt))]
    twelve = any(tok == "am/pm" for _, _, tok in tokens)
    out, pos = [], 0
    for i, (start, end, tok) in enumerate(tokens):
        out.append(_literal(fmt[pos:start]))
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
    out.append(_literal(fmt[pos:]))
    return "".join(out)


_SCIENTIFIC = re.compile(r"([#0][#0,]*)?(?:\.([#0]*))?[Ee]([+-])(0+)")


def _digits(x: int | float, dec_part: str) -> str:
    """|x| with as many decimals as ``dec_part`` has placeholders, optional ``#`` places trimmed of
    trailing zeros ("0.0#": one to two decimals)."""
    s = _fixed(abs(x), len(dec_part), False)
    least = dec_part.rstrip("#").count("0") if dec_part else 0
    if "." in s and len(dec_part) > least:
        whole, frac = s.split(".")
        frac = frac[:least] + frac[least:].rstrip("0")
        s = whole + "." + frac
    return s


def _format_scientific(x: int | float, m: re.Match, fmt: str) -> str:
    dec_part, sign, zeros = m.group(2) or "", m.group(3), m.group(4)
    exp = 0 if x == 0 else math.floor(math.log10(abs(x)))
    mant = _digits(abs(x) / 10 ** exp if x else 0, dec_part)
    if float(mant) >= 10:                                # 9.999 → "10.00": one more power of ten
        exp += 1
        mant = _digits(abs(x) / 10 ** exp, dec_part)
    if dec_part and "." not in mant:
        mant += "."
    e = ("-" if exp < 0 else "+" if sign == "+" else "") + str(abs(exp)).rjust(len(zeros), "0")
    body = mant + ("E" if "E" in m.group(0) else "e") + e
    return ("-" if x < 0 else "") + _literal(fmt[:m.start()]) + body + _literal(fmt[m.end():])


def _format_pattern(x: int | float, fmt: str) -> str:
    """TEXT() patterns: numbers ("0.00", "0.0#", "#,##0", "#,##0,", "$#,##0.00", "0%", "000",
    "0.00E+00", literal text in quotes), dates ("yyyy-mm-dd", "mm/dd/yyyy", "mmm d, yyyy", "hh:mm") and
    "positive;negative;zero" sections."""
    sections = _split_sections(fmt)
    if len(sections) > 1 and x < 0:
        return _format_pattern(-x, sections[1])
    if len(sections) > 2 and x == 0:
        return _format_pattern(x, sections[2])
    fmt = sections[0]
    masked = _masked(fmt)
    sci = _SCIENTIFIC.search(masked)
    if sci is not None:
        return _format_scientific(x, sci, fmt)
    core = _NUMBER_CORE.search(masked)
    if core is None:
        return _format_date_pattern(x, fmt) if _DATE_TOKENS.search(masked) else _literal(fmt)
    int_part, _, dec_part = core.group().partition(".")
    after = len(masked[core.end():]) - len(masked[core.end():].lstrip(","))
    scale = after + (len(int_part) - len(int_part.rstrip(",")) if "." not in core.group() else 0)
    prefix, suffix = _literal(fmt[:core.start()]), _literal(fmt[core.end() + after:])
    if scale:                                            # "#,##0," shows thousands, "0.0,," millions
        int_part = int_part.rstrip(",")
        x = float(Decimal(repr(x)) / Decimal(1000) ** scale) if type(x) is float else x / 1000 ** scale
    if "%" in masked[:core.start()] + masked[core.end():]:
        x = float(Decimal(repr(x)) * 100) if type(x) is float else x * 100
    s = _digits(x, dec_part)
    if "," in int_part:
        whole, dot, frac = s.partition(".")
        s = f"{int(whole):,}" + dot + frac
    whole, dot, frac = s.partition(".")
    min_digits = int_part.count("0")
    if whole == "0" and min_digits == 0:
        whole = ""
    elif len(whole.replace(",", "")) < min_digits:
        whole = whole.rjust(min_digits, "0")
    s = whole + dot + frac
    negative = x < 0 and any(ch not in "0.," for ch in s)
    return ("-" if negative else "") + prefix + s + suffix


def _split_sections(fmt: str) -> list[str]:
    """The pattern's ";"-separated sections (a ";" inside quotes is text)."""
    masked, out, pos = _masked(fmt), [], 0
    for i, ch in enumerate(masked):
        if ch == ";":
            out.append(fmt[pos:i])
            pos = i + 1
    out.append(fmt[pos:])
    return out


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
