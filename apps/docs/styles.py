"""Text styles beyond bold, italic and underline: font, size, text colour, highlight colour (marks over
runs of text) and alignment (a mark over the whole block), read from the editor's HTML and drawn back.

Marks, as a check reads them (``[start, end, kind, value]``):

- ``font``: the font family, e.g. ``"Georgia"``;
- ``size``: the size in points, an int, e.g. ``14``;
- ``color`` / ``highlight``: ``"#rrggbb"`` (lower case);
- ``align``: ``"center"``, ``"right"`` or ``"justify"`` over the whole block (left, the default, has none).
"""
from __future__ import annotations

import html as html_lib
import re

FONTS = ("Arial", "Calibri", "Cambria", "Comic Sans MS", "Courier New", "Georgia", "Roboto", "Times New Roman",
         "Trebuchet MS", "Verdana")
ALIGNS = ("center", "right", "justify")
INLINE = ("font", "size", "color", "highlight")
STYLE_PROPERTIES = {"color", "background-color", "font-family", "font-size", "text-align"}
FONT_TAG_SIZES = {"1": 8, "2": 10, "3": 12, "4": 14, "5": 18, "6": 24, "7": 36}
KEYWORD_SIZES = {"x-small": 8, "small": 10, "medium": 12, "large": 14, "x-large": 18, "xx-large": 24, "xxx-large": 36}
MIN_SIZE, MAX_SIZE = 1, 400
_NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
          "yellow": "#ffff00", "gray": "#808080", "grey": "#808080", "orange": "#ffa500", "purple": "#800080"}


def color(value: str | None) -> str | None:
    """``#rrggbb`` from CSS (``#rgb``, ``#rrggbb``, ``rgb(r, g, b)``, a few names); None if not a colour."""
    v = (value or "").strip().lower()
    if v in _NAMED:
        return _NAMED[v]
    m = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", v)
    if m:
        h = m.group(1)
        return "#" + (h if len(h) == 6 else "".join(c * 2 for c in h))
    m = re.fullmatch(r"rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]+)\s*)?\)", v)
    if m and (m.group(4) is None or float(m.group(4)) > 0):
        return "#" + "".join(f"{min(255, int(x)):02x}" for x in m.groups()[:3])
    return None


def font(value: str | None) -> str | None:
    name = (value or "").split(",")[0].strip().strip("'\"").strip()
    known = {f.lower(): f for f in FONTS}
    if name.lower() in known:
        return known[name.lower()]
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9 -]{0,39}", name) else None


def size(value: str | None) -> int | None:
    v = (value or "").strip().lower()
    if v in KEYWORD_SIZES:
        return KEYWORD_SIZES[v]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(pt|px)", v)
    if not m:
        return None
    n = round(float(m.group(1)) * (0.75 if m.group(2) == "px" else 1))
    return n if MIN_SIZE <= n <= MAX_SIZE else None


def _declarations(style: str | None) -> dict[str, str]:
    out = {}
    for part in (style or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            out[k.strip().lower()] = v.strip()
    return out


def inline_marks(tag: str, attrs: dict) -> list[tuple[str, object]]:
    """The (kind, value) marks a ``span`` (its ``style``) or a ``font`` element (``color``, ``face``,
    ``size``) puts on its text."""
    d = _declarations(attrs.get("style"))
    raw = {"color": d.get("color"), "highlight": d.get("background-color"), "font": d.get("font-family"),
           "size": d.get("font-size")}
    if tag == "font":
        raw["color"] = raw["color"] or attrs.get("color")
        raw["font"] = raw["font"] or attrs.get("face")
        if attrs.get("size") in FONT_TAG_SIZES and not raw["size"]:
            raw["size"] = f"{FONT_TAG_SIZES[attrs['size']]}pt"
    parse = {"color": color, "highlight": color, "font": font, "size": size}
    return [(k, v) for k in INLINE for v in [parse[k](raw[k])] if v is not None]


def block_align(attrs: dict) -> str | None:
    a = (_declarations(attrs.get("style")).get("text-align") or attrs.get("align") or "").strip().lower()
    return a if a in ALIGNS else None


def align_of(b: dict) -> str | None:
    return next((m[3] for m in b["marks"] if m[2] == "align"), None)


def block_style_attr(b: dict) -> str:
    """`` style="text-align:…"`` for a block's element, or nothing."""
    a = align_of(b)
    return f' style="text-align:{a}"' if a else ""


def span(kind: str, value: object, inner: str) -> str:
    prop = {"font": "font-family", "size": "font-size", "color": "color", "highlight": "background-color"}[kind]
    v = f"{value}pt" if kind == "size" else str(value)
    return f'<span style="{prop}:{html_lib.escape(v)}">{inner}</span>'
