"""What sits on a slide: the kinds of object, their units and limits, checks on what a caller
asks for, and reading them from ``slides_objects`` (see ``apps.slides.schema``).

Units: points of a 720 × 405 pt slide (Google Slides' 10 × 5.625 in, 16:9); 1 pt = 12,700 EMU
and, on the editor's 960-wide reference canvas, 4/3 CSS px. Positions are whole points.

This module imports nothing of the app's own: the service layer, the object commands and the
.pptx writer all build on it.
"""
from __future__ import annotations

import re

from apps.core.errors import Invalid
from apps.core.store.db import Store

SLIDE_W, SLIDE_H = 720, 405
EMU_PER_PT = 12_700
KINDS = ("text", "shape", "line", "image")          # what the Insert menu makes
PLACEHOLDER = "placeholder"                         # a layout box's position and formatting
SHAPES = {"rectangle": "Rectangle", "rounded_rectangle": "Rounded rectangle", "ellipse": "Oval",
          "triangle": "Triangle", "right_arrow": "Right arrow", "left_arrow": "Left arrow", "star": "Star"}
LINES = {"line": "Line", "arrow": "Arrow"}
KIND_NAMES = {"text": "Text box", "shape": "Shape", "line": "Line", "image": "Image", PLACEHOLDER: "Layout box"}
ALIGNS = ("left", "center", "right")
SIDES = ("left", "center", "right", "top", "middle", "bottom")
MIN_SIZE, MAX_SIZE = 6, 400                         # font sizes, points
MAX_WEIGHT = 24
MAX_OBJECTS = 200                                   # per slide
LIMIT = 4 * SLIDE_W                                 # |x|, |y|, |w|, |h| at most this
NUDGE, BIG_NUDGE = 1, 10                            # points: arrow, Shift+arrow
DEFAULT_BOX = {"text": (180, 150, 360, 60), "shape": (260, 128, 200, 150), "line": (210, 203, 300, 0),
               "image": (210, 103, 300, 200)}
DEFAULT_FILL, DEFAULT_STROKE = "#4285f4", "#000000"
# The toolbar's colour palette (Google Slides' first row and its darker tints).
PALETTE = {"#000000": "black", "#434343": "dark grey 4", "#666666": "dark grey 3", "#999999": "dark grey 2",
           "#cccccc": "grey", "#ffffff": "white", "#ea4335": "red", "#ff9900": "orange", "#fbbc04": "yellow",
           "#34a853": "green", "#4285f4": "blue", "#9900ff": "purple", "#ff00ff": "magenta",
           "#0b5394": "dark blue", "#38761d": "dark green", "#990000": "dark red"}
_HEX = re.compile(r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")
FIELDS = ("id", "kind", "role", "shape", "x", "y", "w", "h", "z", "text", "bold", "italic", "underline",
          "size", "color", "align", "fill", "stroke", "weight", "item")


def color(value: object, field: str = "color", allow_none: bool = False) -> str:
    """A colour as stored: "#rrggbb" (lower case), "" for the default, "none" where allowed."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise Invalid("A colour is a string like #1a73e8.", field)
    v = value.strip().lower()
    if allow_none and v in ("none", "transparent"):
        return "none"
    by_name = {name: hx for hx, name in PALETTE.items()}
    if v in by_name:
        return by_name[v]
    m = _HEX.match(v)
    if not m:
        raise Invalid(f"{value!r} isn't a colour: use #rrggbb, e.g. #1a73e8.", field)
    h = m.group(1)
    return "#" + ("".join(c * 2 for c in h) if len(h) == 3 else h)


def whole(value: object, field: str, lo: int = -LIMIT, hi: int = LIMIT) -> int:
    """A whole number of points within [lo, hi] (numbers given as text or float are rounded)."""
    if isinstance(value, bool) or value is None:
        raise Invalid(f"{field} must be a number of points.", field)
    try:
        n = round(float(value))
    except (TypeError, ValueError):
        raise Invalid(f"{field} must be a number of points, not {value!r}.", field) from None
    if not lo <= n <= hi:
        raise Invalid(f"{field} must be between {lo} and {hi} points.", field)
    return n


def geometry(kind: str, x: object, y: object, w: object, h: object) -> dict[str, int]:
    """Checked position and size: boxes at least 1 pt each way; a line's w or h may be 0 or negative."""
    lo = -LIMIT if kind == "line" else 1
    g = {"x": whole(x, "x"), "y": whole(y, "y"), "w": whole(w, "w", lo), "h": whole(h, "h", lo)}
    if kind == "line" and g["w"] == 0 and g["h"] == 0:
        raise Invalid("A line needs a length.", "w")
    return g


def font_size(value: object) -> int | None:
    if value is None or value == "":
        return None
    return whole(value, "size", MIN_SIZE, MAX_SIZE)


def public(row: dict) -> dict:
    """An object as checks and templates read it."""
    return {k: row.get(k) for k in FIELDS} | {"text": row.get("text") or ""}


def read_objects(store: Store, deck_id: int) -> dict[int, list[dict]]:
    """slide id → its objects, back to front (``z``, then insertion order)."""
    out: dict[int, list[dict]] = {}
    for r in store.all("SELECT o.* FROM slides_objects o JOIN slides_slides s ON s.id=o.slide "
                       "WHERE s.deck=? ORDER BY o.z, o.id", (deck_id,)):
        out.setdefault(r["slide"], []).append(public(store.decode("slides_objects", r)))
    return out


def bounds(o: dict) -> tuple[int, int, int, int]:
    """An object's box as (left, top, width, height), a line's included (w, h ≥ 0)."""
    x, y, w, h = o["x"], o["y"], o["w"], o["h"]
    return min(x, x + w), min(y, y + h), abs(w), abs(h)


def aligned(o: dict, side: str) -> dict[str, int]:
    """The x or y that puts the object against a side (or the middle) of the slide."""
    if side not in SIDES:
        raise Invalid(f"Align to one of {', '.join(SIDES)}.", "side")
    left, top, w, h = bounds(o)
    dx = {"left": -left, "center": (SLIDE_W - w) // 2 - left, "right": SLIDE_W - w - left}.get(side)
    if dx is not None:
        return {"x": o["x"] + dx, "y": o["y"]}
    dy = {"top": -top, "middle": (SLIDE_H - h) // 2 - top, "bottom": SLIDE_H - h - top}[side]
    return {"x": o["x"], "y": o["y"] + dy}


# ---------------------------------------------------------------- with the slides they sit on
def copy_all(store: Store, actor: str, from_slide: int, to_slide: int) -> None:
    """Copy a slide's objects (and its layout boxes' positions and formatting, its background) onto another."""
    for table in ("slides_objects", "slides_looks"):
        for r in store.select(table, "slide=?", (from_slide,)):
            store.insert(table, actor, **{k: v for k, v in r.items() if k not in ("id", "slide")}, slide=to_slide)


def delete_all(store: Store, actor: str, slide_id: int) -> None:
    for r in store.select("slides_objects", "slide=?", (slide_id,)):
        store.delete("slides_objects", r["id"], actor)
    for table in ("slides_looks", "slides_comments"):
        for r in store.select(table, "slide=?", (slide_id,), order="id DESC"):
            store.delete(table, r["id"], actor)


def relayout(store: Store, actor: str, slide_id: int, roles: dict[str, str]) -> None:
    """After a layout change: a layout box that keeps a place (old role → new role in ``roles``)
    keeps its formatting and goes where the new layout puts it; the others' rows go."""
    for r in store.select("slides_objects", "slide=? AND kind=?", (slide_id, PLACEHOLDER)):
        if r["role"] in roles:
            store.update("slides_objects", r["id"], actor, role=roles[r["role"]], x=None, y=None, w=None, h=None)
        else:
            store.delete("slides_objects", r["id"], actor)


def add_text_box(store: Store, actor: str, slide_id: int, box: tuple[int, int, int, int], text: str,
                 fmt: dict | None = None) -> int:
    """A text box in front of the slide's objects (a layout box's text with no place in a new layout)."""
    fmt = {k: v for k, v in (fmt or {}).items() if k in ("bold", "italic", "underline", "size", "color", "align")}
    top = store.scalar("SELECT MAX(z) FROM slides_objects WHERE slide=?", (slide_id,)) or 0
    x, y, w, h = box
    return store.insert("slides_objects", actor, slide=slide_id, kind="text", x=x, y=y, w=w, h=h, z=top + 1,
                        text=text, **fmt)


# ---------------------------------------------------------------- themes
# A deck's theme: the slide background and the colours of its text (title, body, subtitle), as in
# Google Slides' theme picker. "simple_light" is the default: a deck without a theme row has it.
THEMES = {
    "simple_light": {"name": "Simple Light", "background": "#ffffff", "title": "#000000", "text": "#000000",
                     "subtle": "#595959"},
    "simple_dark": {"name": "Simple Dark", "background": "#212121", "title": "#ffffff", "text": "#ffffff",
                    "subtle": "#bdbdbd"},
    "streamline": {"name": "Streamline", "background": "#ffffff", "title": "#1565c0", "text": "#424242",
                   "subtle": "#607d8b"},
    "coral": {"name": "Coral", "background": "#fff3ef", "title": "#cc4125", "text": "#3c2a25", "subtle": "#8a5a4a"},
    "spearmint": {"name": "Spearmint", "background": "#e0f2f1", "title": "#00796b", "text": "#263238",
                  "subtle": "#4f6f6b"},
    "plum": {"name": "Plum", "background": "#3e2347", "title": "#ffffff", "text": "#f3e5f5", "subtle": "#d1b3d9"},
}
DEFAULT_THEME = "simple_light"
