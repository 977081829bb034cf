"""Slides as the templates draw them: layout boxes and objects positioned in percent of the slide
(from points, ``apps.slides.shapes``), their formatting as inline style, shapes and lines as SVG."""
from __future__ import annotations

import math

from markupsafe import Markup, escape

from apps.slides import service, shapes
from apps.slides.service import BULLET_ROLES, LAYOUTS, ROLE_NAMES
from apps.slides.shapes import PLACEHOLDER, SLIDE_H, SLIDE_W

PLACEHOLDERS = {"title": "Click to add title", "subtitle": "Click to add subtitle"}


# The font size a box shows when none is set, in points (the stylesheets' em sizes × 7.5 pt).
_ROLE_PT = {"title": 27, "subtitle": 16.5, "body": 15, "left": 15, "right": 15}
_LAYOUT_PT = {("title", "title"): 39, ("section", "title"): 33, ("section", "subtitle"): 15,
              ("one_column", "title"): 22.5, ("main_point", "title"): 48, ("section_description", "title"): 30,
              ("section_description", "subtitle"): 13.5, ("caption", "body"): 13.5, ("big_number", "title"): 120,
              ("big_number", "body"): 16.5}
KIND_PT = {"text": 18, "shape": 14}


def default_size(layout: str, role: str) -> str:
    v = _LAYOUT_PT.get((layout, role), _ROLE_PT.get(role, 13.5))
    return f"{v:g}"


def box_html(rich: bool, text: str) -> Markup:
    """A text box's content as HTML: rich boxes get paragraphs and bullet lists."""
    if not rich:
        return escape(text)
    out, in_list = [], False
    for bullet, line in service.bullet_lines(text):
        if bullet and not in_list:
            out.append("<ul>")
        elif not bullet and in_list:
            out.append("</ul>")
        in_list = bullet
        inner = escape(line) if line else Markup("<br>")
        out.append(f"<li>{inner}</li>" if bullet else f"<p>{inner}</p>")
    if in_list:
        out.append("</ul>")
    return Markup("".join(out))


def _pct(v: float, of: float) -> str:
    return f"{v / of * 100:.3f}".rstrip("0").rstrip(".") + "%"


def place(x: float, y: float, w: float, h: float) -> str:
    return f"left:{_pct(x, SLIDE_W)};top:{_pct(y, SLIDE_H)};width:{_pct(w, SLIDE_W)};height:{_pct(h, SLIDE_H)}"


def text_style(o: dict | None) -> str:
    if not o:
        return ""
    out = []
    if o.get("bold"):
        out.append("font-weight:700")
    if o.get("italic"):
        out.append("font-style:italic")
    if o.get("underline"):
        out.append("text-decoration:underline")
    if o.get("color"):
        out.append(f"color:{o['color']}")
    if o.get("align"):
        out.append(f"text-align:{o['align']}")
    if o.get("size"):
        out.append(f"--fs:calc(var(--pt) * {o['size']})")
    return ";".join(out)


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def shape_svg(o: dict) -> Markup:
    """A shape drawn in its own box (viewBox in points, so outlines scale with the slide)."""
    w, h = max(1, o["w"]), max(1, o["h"])
    fill = o.get("fill") or shapes.DEFAULT_FILL
    stroke = o.get("stroke") or ("none" if o.get("fill") == "none" else "#000000")
    sw = o.get("weight") if o.get("weight") is not None else 1
    k = o["shape"]
    if k == "ellipse":
        body = f'<ellipse cx="{_n(w / 2)}" cy="{_n(h / 2)}" rx="{_n(w / 2)}" ry="{_n(h / 2)}"/>'
    elif k in ("rectangle", "rounded_rectangle"):
        r = min(w, h) * 0.16 if k == "rounded_rectangle" else 0
        body = f'<rect x="0" y="0" width="{w}" height="{h}" rx="{_n(r)}"/>'
    else:
        pts = {"triangle": [(.5, 0), (1, 1), (0, 1)],
               "right_arrow": [(0, .25), (.6, .25), (.6, 0), (1, .5), (.6, 1), (.6, .75), (0, .75)],
               "left_arrow": [(1, .25), (.4, .25), (.4, 0), (0, .5), (.4, 1), (.4, .75), (1, .75)],
               "star": [(.5 + .5 * math.sin(i * math.pi / 5) * (1 if i % 2 == 0 else .4),
                         .5 - .5 * math.cos(i * math.pi / 5) * (1 if i % 2 == 0 else .4)) for i in range(10)]}[k]
        body = '<polygon points="' + " ".join(f"{_n(px * w)},{_n(py * h)}" for px, py in pts) + '"/>'
    return Markup(f'<svg class="shape-svg" viewBox="0 0 {w} {h}" preserveAspectRatio="none" aria-hidden="true" '
                  f'fill="{escape(fill)}" stroke="{escape(stroke)}" stroke-width="{sw}" overflow="visible">{body}</svg>')


PAD = 6                                                   # points of grab room around a line


def line_svg(o: dict) -> tuple[str, Markup]:
    """A line's box (its bounds plus grab room) and its SVG, arrowhead included."""
    left, top, w, h = shapes.bounds(o)
    x1, y1, x2, y2 = o["x"], o["y"], o["x"] + o["w"], o["y"] + o["h"]
    sw = o.get("weight") if o.get("weight") is not None else 2
    color = o.get("stroke") or "currentColor"               # the theme's text colour (black on Simple Light)
    vb = f"{left - PAD} {top - PAD} {w + 2 * PAD} {h + 2 * PAD}"
    parts = [f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{escape(color)}" stroke-width="{sw}"/>']
    if o["shape"] == "arrow":
        ang = math.atan2(y2 - y1, x2 - x1)
        size = max(8, 3 * sw)
        a1, a2 = ang + math.pi - 0.45, ang + math.pi + 0.45
        pts = [(x2, y2), (x2 + size * math.cos(a1), y2 + size * math.sin(a1)),
               (x2 + size * math.cos(a2), y2 + size * math.sin(a2))]
        parts.append('<polygon fill="' + str(escape(color)) + '" points="'
                     + " ".join(f"{_n(px)},{_n(py)}" for px, py in pts) + '"/>')
    svg = Markup(f'<svg class="line-svg" viewBox="{vb}" preserveAspectRatio="none" aria-hidden="true" '
                 f'overflow="visible">{"".join(parts)}</svg>')
    return place(left - PAD, top - PAD, w + 2 * PAD, h + 2 * PAD), svg


def _object(o: dict, n: int) -> dict:
    kind = o["kind"]
    name = (shapes.SHAPES.get(o["shape"]) if kind == "shape" else shapes.LINES.get(o["shape"]) if kind == "line"
            else shapes.KIND_NAMES[kind])
    v = {**o, "label": name, "rich": True, "default_size": KIND_PT.get(kind, ""), "style": place(*shapes.bounds(o)), "tstyle": text_style(o),
         "html": box_html(True, o["text"]) if kind in ("text", "shape") else ""}
    if kind == "text":                                   # grows with its text, as in Slides; clear unless given a fill or a border
        v["style"] = v["style"].replace("height:", "min-height:")
        if o.get("fill") and o["fill"] != "none":
            v["style"] += f";background:{o['fill']}"
        if o.get("stroke") and o["stroke"] != "none":
            v["style"] += f";border:calc(var(--pt) * {o['weight'] if o.get('weight') is not None else 1}) solid {o['stroke']}"
    if kind == "shape":
        v["svg"] = shape_svg(o)
    elif kind == "line":
        v["style"], v["svg"] = line_svg(o)
    return v


def look(theme: str, background: str) -> str:
    """The slide's inline style: its theme's colours (as custom properties) and its own background."""
    out = []
    if theme and theme != shapes.DEFAULT_THEME and theme in shapes.THEMES:
        t = shapes.THEMES[theme]
        out += [f"--bg:{t['background']}", f"--fg:{t['text']}", f"--title:{t['title']}", f"--subtle:{t['subtle']}"]
    if background:
        out.append(f"--bg:{background}")
    return ";".join(out)


def view(s: dict, deck_id: int | None = None, theme: str = "") -> dict:
    """A slide as the templates need it: layout boxes (``view``) and objects (``objs``), positioned."""
    over = {o["role"]: o for o in s.get("objects", []) if o["kind"] == PLACEHOLDER}
    boxes = []
    for role in LAYOUTS[s["layout"]]:
        o = over.get(role)
        x, y, w, h = ((o["x"], o["y"], o["w"], o["h"]) if o and o["x"] is not None
                      else service.geometry_pt(s["layout"], role))
        text = s["boxes"].get(role, "")
        style = place(x, y, w, h) + (";" + text_style(o) if text_style(o) else "")
        boxes.append({"role": role, "ref": role, "label": ROLE_NAMES[role], "text": text,
                      "html": box_html(role in BULLET_ROLES, text), "rich": role in BULLET_ROLES,
                      "placeholder": PLACEHOLDERS.get(role, "Click to add text"), "style": style,
                      "geom": f"{x},{y},{w},{h}", "default_size": default_size(s["layout"], role),
                      **{k: (o or {}).get(k) for k in ("bold", "italic", "underline",
                                                                                    "size", "color", "align")}})
    objs = [_object(o, i) for i, o in enumerate(s.get("objects", [])) if o["kind"] != PLACEHOLDER]
    title = " ".join((s["boxes"].get("title") or "").split())
    return {**s, "view": boxes, "objs": objs, "name": title, "deck_id": deck_id or s.get("deck"), "theme": theme,
            "look": look(theme, s.get("background", ""))}
