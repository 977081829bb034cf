"""Writing a slide's objects and formatting into a python-pptx slide (see ``service.pptx_bytes``):
text frames with bullets and box-level formatting, text boxes, shapes, lines (an arrow gets a
triangle at its end), images, and a slide background. Positions are points (``apps.slides.shapes``)."""
from __future__ import annotations

import io

from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE
from pptx.enum.text import MSO_AUTO_SIZE, PP_ALIGN
from pptx.oxml.ns import qn
from pptx.util import Emu, Pt

from apps.slides.shapes import DEFAULT_FILL, DEFAULT_STROKE, EMU_PER_PT, bounds

MSO = {"rectangle": MSO_SHAPE.RECTANGLE, "rounded_rectangle": MSO_SHAPE.ROUNDED_RECTANGLE, "ellipse": MSO_SHAPE.OVAL,
       "triangle": MSO_SHAPE.ISOSCELES_TRIANGLE, "right_arrow": MSO_SHAPE.RIGHT_ARROW,
       "left_arrow": MSO_SHAPE.LEFT_ARROW, "star": MSO_SHAPE.STAR_5_POINT}
ALIGN = {"left": PP_ALIGN.LEFT, "center": PP_ALIGN.CENTER, "right": PP_ALIGN.RIGHT}


def emu(points: float) -> Emu:
    return Emu(round(points * EMU_PER_PT))


def rgb(hex_: str) -> RGBColor:
    return RGBColor.from_string(hex_.lstrip("#").upper())


def place(shape, x: float, y: float, w: float, h: float) -> None:
    shape.left, shape.top, shape.width, shape.height = emu(x), emu(y), emu(w), emu(h)


def _no_bullet(p) -> None:
    ppr = p._p.get_or_add_pPr()
    ppr.set("marL", "0")
    ppr.set("indent", "0")
    ppr.insert(0, ppr.makeelement(qn("a:buNone"), {}))


def _bullet(p) -> None:
    ppr = p._p.get_or_add_pPr()
    ppr.set("marL", "285750")
    ppr.set("indent", "-285750")
    ppr.append(ppr.makeelement(qn("a:buChar"), {"char": "•"}))


def fill_text(tf, lines: list[tuple[bool, str]], fmt: dict | None, *, placeholder: bool) -> None:
    """Paragraphs from (is_bullet, text) lines; a placeholder's own bullets are turned off for plain
    lines, a text box gets bullets where asked. ``fmt``: the box's bold, italic, … (None: as laid out)."""
    fmt = fmt or {}
    for i, (bullet, line) in enumerate(lines or [(False, "")]):
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        p.text = line
        if placeholder and not bullet:
            _no_bullet(p)
        elif bullet and not placeholder:
            _bullet(p)
        if fmt.get("align"):
            p.alignment = ALIGN[fmt["align"]]
        for run in p.runs:
            f = run.font
            if fmt.get("bold"):
                f.bold = True
            if fmt.get("italic"):
                f.italic = True
            if fmt.get("underline"):
                f.underline = True
            if fmt.get("size"):
                f.size = Pt(fmt["size"])
            if fmt.get("color"):
                f.color.rgb = rgb(fmt["color"])


def add_object(sl, o: dict, lines: list[tuple[bool, str]], image: bytes | None) -> None:
    """One inserted object onto the slide, in front of what is there."""
    kind = o["kind"]
    if kind == "text":
        box = sl.shapes.add_textbox(emu(o["x"]), emu(o["y"]), emu(o["w"]), emu(o["h"]))
        box.name = f"Text box {o['id']}"
        box.text_frame.word_wrap = True
        box.text_frame.auto_size = MSO_AUTO_SIZE.SHAPE_TO_FIT_TEXT
        fill_text(box.text_frame, lines, o, placeholder=False)
        if o.get("fill") and o["fill"] != "none":
            box.fill.solid()
            box.fill.fore_color.rgb = rgb(o["fill"])
        if o.get("stroke") and o["stroke"] != "none":
            box.line.color.rgb = rgb(o["stroke"])
            box.line.width = Pt(o["weight"] if o.get("weight") is not None else 1)
    elif kind == "shape":
        sh = sl.shapes.add_shape(MSO[o["shape"]], emu(o["x"]), emu(o["y"]), emu(o["w"]), emu(o["h"]))
        sh.name = f"{o['shape']} {o['id']}"
        if o.get("fill") == "none":
            sh.fill.background()
        else:
            sh.fill.solid()
            sh.fill.fore_color.rgb = rgb(o.get("fill") or DEFAULT_FILL)
        if o.get("stroke") == "none":
            sh.line.fill.background()
        else:
            sh.line.color.rgb = rgb(o.get("stroke") or DEFAULT_STROKE)
            sh.line.width = Pt(o["weight"] if o.get("weight") is not None else 1)
        if o.get("text"):
            sh.text_frame.word_wrap = True
            fill_text(sh.text_frame, lines, o, placeholder=False)
    elif kind == "line":
        ln = sl.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, emu(o["x"]), emu(o["y"]),
                                     emu(o["x"] + o["w"]), emu(o["y"] + o["h"]))
        ln.name = f"{o['shape']} {o['id']}"
        ln.line.color.rgb = rgb(o.get("stroke") if o.get("stroke") not in (None, "", "none") else DEFAULT_STROKE)
        ln.line.width = Pt(o["weight"] if o.get("weight") is not None else 2)
        if o["shape"] == "arrow":
            el = ln.line._get_or_add_ln()
            el.append(el.makeelement(qn("a:tailEnd"), {"type": "triangle"}))
    elif kind == "image" and image:
        x, y, w, h = bounds(o)
        pic = sl.shapes.add_picture(io.BytesIO(image), emu(x), emu(y), emu(w), emu(h))
        pic.name = f"Image {o['id']}"


def background(sl, color: str) -> None:
    fill = sl.background.fill
    fill.solid()
    fill.fore_color.rgb = rgb(color)
