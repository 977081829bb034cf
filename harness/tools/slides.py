"""Slides tools: list and read presentations, edit text boxes and notes, add, delete and reorder slides;
insert, move, align, order, format and delete objects (text boxes, shapes, lines, images from Drive).

A presentation is named by its id or its title (see ``drive.app_ref``).
"""
from __future__ import annotations

from typing import Literal

from apps.core.store.db import Caller, Store
from apps.slides import comments, looks, objects
from apps.slides import service as slides
from apps.slides.shapes import PALETTE, THEMES
from harness.tools.drive import app_ref
from harness.tools.registry import read, write

Layout = Literal["title", "section", "title_body", "two_columns", "title_only", "one_column", "main_point",
                 "section_description", "caption", "big_number", "blank"]
Box = Literal["title", "subtitle", "body", "left", "right"]
Kind = Literal["text", "shape", "line", "image"]
Ref = int | Box


def read_deck(store: Store, caller: Caller, deck: str | int) -> dict:
    """Open a presentation: its title, the user's role and its slides in order, each with its id,
    layout, the text of every box of the layout (title, subtitle, body, left, right; `- ` lines are
    bullets), speaker notes, its own background colour and its objects (text boxes, shapes, lines,
    images, and layout boxes that were moved or formatted: kind, position and size in points of the
    720 × 405 pt slide, text and formatting) and comment threads; and the deck's theme. Opening puts
    it in Recent."""
    deck_id = app_ref(store, caller.user, "deck", deck)
    d = slides.get(store, caller.user, deck_id)
    slides.DECKS.record_open(store, caller, deck_id)
    threads = comments.threads(store, caller.user, deck_id)
    out = [s | {"comments": [t for t in threads if t["slide"] == s["id"]]} for s in d["slides"]]
    return {"id": deck_id, "title": d["title"], "role": d["role"], "item_id": d["item"]["id"], "theme": d["theme"],
            "slides": out}


def add_slide(store: Store, caller: Caller, deck: str | int, layout: Layout = "title_body",
              texts: dict[Box, str] | None = None, notes: str = "", after: int | None = None) -> int:
    """Add a slide with its text, at the end or after a given slide. Returns the new slide's id."""
    return slides.add_slide(store, caller, app_ref(store, caller.user, "deck", deck), after, layout, texts, notes)


def insert_object(store: Store, caller: Caller, slide_id: int, kind: Kind, shape: str = "", x: int | None = None,
                  y: int | None = None, w: int | None = None, h: int | None = None, text: str = "",
                  image: int | str | None = None) -> int:
    """Put a text box, shape, line or image (from Drive) on a slide, in front; returns the object's id.
    Positions and sizes are points of the 720 × 405 pt slide; left out, the object goes in the middle."""
    item = None
    if image is not None:
        found = objects.images(store, caller.user)
        pick = [i for i in found if i["id"] == image or i["name"] == image]
        if not pick:
            from apps.core.errors import NotFound
            raise NotFound(f"No image {image!r} in Drive that you can open (see slides.images).")
        item = pick[0]["id"]
    return objects.insert(store, caller, slide_id, kind, shape, x, y, w, h, text, item)


def edit_object(store: Store, caller: Caller, slide_id: int, ref: Ref, x: int | None = None, y: int | None = None,
                w: int | None = None, h: int | None = None,
                align_to: Literal["left", "center", "right", "top", "middle", "bottom"] | None = None,
                order: Literal["front", "forward", "backward", "back"] | None = None, text: str | None = None,
                bullets: bool | None = None, bold: bool | None = None, italic: bool | None = None,
                underline: bool | None = None, size: int | None = None, color: str | None = None,
                align: Literal["left", "center", "right", ""] | None = None, fill: str | None = None,
                stroke: str | None = None, weight: int | None = None) -> dict:
    """Change an object on a slide (or a layout box, by its role); only what you pass changes, in this order:
    text, bullets, formatting of the whole box, position and size (points of the 720 × 405 pt slide),
    alignment to the slide, stacking order. Returns the object as it now is."""
    if text is not None:
        objects.set_text(store, caller, slide_id, ref, text)
    if bullets is not None:
        objects.set_bullets(store, caller, slide_id, ref, bullets)
    props = {k: v for k, v in {"bold": bold, "italic": italic, "underline": underline, "size": size, "color": color,
                               "align": align, "fill": fill, "stroke": stroke, "weight": weight}.items() if v is not None}
    if props:
        objects.set_format(store, caller, slide_id, ref, None, **props)
    if (x is None) != (y is None):
        from apps.core.errors import Invalid
        raise Invalid("Give both x and y to move it.", "x" if x is None else "y")
    if x is not None or w is not None or h is not None:
        cur = objects.get(store, caller.user, slide_id, ref)
        objects.move(store, caller, slide_id, ref, cur["x"] if x is None else x, cur["y"] if y is None else y, w, h)
    if align_to is not None:
        objects.align(store, caller, slide_id, ref, align_to)
    if order is not None:
        objects.order(store, caller, slide_id, ref, order)
    return objects.get(store, caller.user, slide_id, ref)


def set_look(store: Store, caller: Caller, deck: str | int, theme: str | None = None, slide_id: int | None = None,
             background: str | None = None) -> dict:
    """Apply a theme to the whole presentation, and/or give one slide its own background colour. Returns
    what changed: {theme, background}."""
    from apps.core.errors import Invalid
    deck_id = app_ref(store, caller.user, "deck", deck)
    if theme is None and background is None:
        raise Invalid("Give a theme, or a slide and its background colour.", "theme")
    if (slide_id is None) != (background is None):
        raise Invalid("A background needs its slide (slide_id) and its colour (background).", "background")
    out = {"theme": looks.set_theme(store, caller, deck_id, theme) if theme is not None else False}
    out["background"] = looks.set_background(store, caller, slide_id, background, deck_id) if slide_id else False
    return out


def comment(store: Store, caller: Caller, text: str | None = None, slide_id: int | None = None,
            reply_to: int | None = None, resolve: bool | None = None) -> int | bool:
    """Comment on a slide (a new thread), reply to a comment, or resolve / reopen a thread (you need comment
    access). Returns the new comment's id, or whether the thread's state changed."""
    from apps.core.errors import Invalid
    if reply_to is not None and resolve is not None and text is None:
        return comments.resolve(store, caller, reply_to, resolve)
    if text is None:
        raise Invalid("Write the comment (text).", "text")
    if reply_to is not None:
        return comments.reply(store, caller, reply_to, text)
    if slide_id is None:
        raise Invalid("Name the slide to comment on (slide_id), or the comment to reply to (reply_to).", "slide_id")
    return comments.add(store, caller, slide_id, text)


DECK = "The presentation's id or title (see slides.list)."
REF = "The object's id (see slides.read: each slide's `objects`), or a layout box's role (title, body, …)."
SLIDE = "The slide's id (see slides.read)."

TOOLS = [
    read(slides.decks, "slides.list", "Presentations the user can open, most recently changed first: id (`ref`), "
         "title (`name`), owner, who it is shared with.", args={"q": "Only titles containing this."}),
    read(read_deck, "slides.read", args={"deck": DECK}),
    write(slides.set_text, "slides.set_text",
          "Replace the text of one box of a slide (you need edit access). Returns whether it changed.",
          args={"slide_id": SLIDE, "role": "The box: title, subtitle, body, left or right (what the layout has).",
                "text": "The box's new text; lines starting with `- ` are bullets in body and columns.",
                "deck_id": "Optional: the presentation id, to check the slide belongs to it."},
          types={"role": Box}),
    write(slides.set_notes, "slides.set_notes", "Replace a slide's speaker notes. Returns whether they changed.",
          args={"slide_id": SLIDE, "text": "The notes.", "deck_id": "Optional: the presentation id."}),
    write(add_slide, "slides.add_slide",
          args={"deck": DECK, "layout": "title (title + subtitle), section (title + subtitle), title_body, "
                "two_columns (title, left, right), title_only, one_column (title, body), main_point (title), "
                "section_description (title, subtitle, body), caption (body), big_number (title, body) or blank.", "texts": "Box → text, e.g. {\"title\": \"Q2\", \"body\": \"- one\\n- two\"}.",
                "notes": "Speaker notes.", "after": "Put it after this slide id (default: at the end)."}),
    write(slides.create, "slides.create", "Create a presentation in My Drive (or a folder). Returns its id.",
          args={"parent": "A Drive folder id; null for My Drive.", "title": "The title.",
                "slides": "Slides: [{layout, title, subtitle | body | left, right, notes}] (default: one title "
                          "slide)."}),
    write(slides.delete_slide, "slides.delete_slide",
          "Delete a slide (a presentation keeps at least one). Returns the id of the slide now in its place.",
          args={"slide_id": SLIDE, "deck_id": "Optional: the presentation id, to check the slide belongs to it."}),
    read(objects.images, "slides.images", "Image files in Drive the user can open, to insert on a slide: id, name.",
         args={"q": "Only names containing this."}),
    write(insert_object, "slides.insert",
          args={"slide_id": SLIDE, "kind": "text (a text box), shape, line or image.",
                "shape": "For a shape: rectangle, rounded_rectangle, ellipse, triangle, right_arrow, left_arrow or star "
                         "(default rectangle); for a line: line or arrow.",
                "x": "Left edge in points (0–720).", "y": "Top edge in points (0–405).",
                "w": "Width in points (a line: its horizontal extent, may be negative).",
                "h": "Height in points (a line: its vertical extent, may be negative).",
                "text": "A text box's or shape's text; `- ` lines are bullets.",
                "image": "For an image: the Drive file's id or exact name (see slides.images)."}),
    write(edit_object, "slides.edit_object",
          args={"slide_id": SLIDE, "ref": REF, "x": "New left edge, points (with y).", "y": "New top edge, points.",
                "w": "New width, points.", "h": "New height, points.",
                "align_to": "Align to the slide: left, center, right, top, middle or bottom.",
                "order": "Stacking: front, forward, backward or back (inserted objects).",
                "text": "New text for a text box, shape or layout box; `- ` lines are bullets.",
                "bullets": "true: every line a bullet; false: none.", "bold": "true/false.", "italic": "true/false.",
                "underline": "true/false.", "size": "Font size in points (6–400).",
                "color": "Text colour, #rrggbb (e.g. " + ", ".join(list(PALETTE)[6:10]) + "); \"\" resets.",
                "align": "Text alignment: left, center or right (\"\" resets).",
                "fill": "A shape's or text box's fill, #rrggbb or none.", "stroke": "Outline or line colour, #rrggbb.",
                "weight": "Outline or line width, points."}),
    write(objects.delete, "slides.delete_object", "Delete an inserted object (layout boxes stay: clear their text).",
          args={"slide_id": SLIDE, "ref": "The object's id.", "deck_id": "Optional: the presentation id."},
          types={"ref": int}),
    write(set_look, "slides.set_look",
          args={"deck": DECK, "theme": "The whole deck's theme: " + ", ".join(f"{k} ({v['name']})" for k, v in THEMES.items())
                + ".", "slide_id": "A slide to give its own background (with `background`).",
                "background": "That slide's background colour, #rrggbb (\"\" goes back to the theme's)."},
          types={"theme": Literal[tuple(THEMES)] | None}),
    write(comment, "slides.comment",
          args={"slide_id": "The slide to comment on (a new thread).", "text": "The comment or reply.",
                "reply_to": "A comment's id (see slides.read: each slide's `comments`) to reply to instead.",
                "resolve": "With reply_to alone: true resolves the thread, false reopens it."}),
    write(slides.move_slide, "slides.move_slide",
          "Move a slide to a position in its presentation (1 = first); the others keep their order. "
          "Returns whether it moved.",
          args={"slide_id": SLIDE, "position": "The slide's new position, 1-based.",
                "deck_id": "Optional: the presentation id."}),
]
