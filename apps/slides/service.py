"""Slides service layer: presentations, their slides, text boxes and speaker notes.

A presentation is a Drive item of kind ``deck`` (name, owner, folder and
sharing are Drive's; ``DECKS`` opens, lists, creates, renames it, see
``apps.drive.editors``) plus its slides (``slides_slides``, ordered by ``seq``)
and one text-box row per box of each slide's layout (``slides_boxes``). The
GUI routes, oracles and checks all go through here.

Writes are minimal: saving a box unchanged writes nothing, moving a slide
rewrites only the ``seq`` of the slides whose position changed, and changing
a layout keeps the box rows (and their keys) that still have a place.

Changing a layout never loses text. A box whose role the new layout has keeps
its place (the title stays the title); the main text box of the old layout
(``MAIN``: subtitle, body or left column) becomes the main text box of the new
one; any other text with no place (a right column going to a one-column
layout) is appended, after a line break, to the main box. A layout with no
main box (Title only, Main point, Blank) leaves such text where it was, as a
text box (``slides_objects``), as Google Slides does.
"""
from __future__ import annotations

import io
import re

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.files import stamped_zip
from apps.core.store.db import Caller, Store
from apps.drive.editors import Editor
from apps.drive.service import RANK, Role
from apps.slides import shapes

DECK_MIME = "application/vnd.deskworld.deck"
KIND = "deck"
UNTITLED = "Untitled presentation"

# Layouts: their text boxes, in reading order, and the name Google Slides gives them.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "title": ("title", "subtitle"),
    "section": ("title", "subtitle"),
    "title_body": ("title", "body"),
    "two_columns": ("title", "left", "right"),
    "title_only": ("title",),
    "one_column": ("title", "body"),
    "main_point": ("title",),
    "section_description": ("title", "subtitle", "body"),
    "caption": ("body",),
    "big_number": ("title", "body"),
    "blank": (),
}
LAYOUT_NAMES = {"title": "Title slide", "section": "Section header", "title_body": "Title and body",
                "two_columns": "Title and two columns", "title_only": "Title only", "one_column": "One column text",
                "main_point": "Main point", "section_description": "Section title and description",
                "caption": "Caption", "big_number": "Big number", "blank": "Blank"}
ROLES = ("title", "subtitle", "body", "left", "right")
ROLE_NAMES = {"title": "Title", "subtitle": "Subtitle", "body": "Body", "left": "Left column",
              "right": "Right column"}
BULLET_ROLES = ("body", "left", "right")           # where "- " lines are bullets
# The box that takes the main text when the layout changes (none: it becomes a text box where it was).
MAIN = {"title": "subtitle", "title_body": "body", "two_columns": "left", "section": "subtitle", "one_column": "body",
        "section_description": "body", "caption": "body", "big_number": "body"}
DEFAULT_LAYOUT = "title_body"
MAX_TEXT = 5_000                # characters in one text box
MAX_NOTES = 20_000              # characters of speaker notes
MAX_SLIDES = 500
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b\u200e\u200f\ufeff]")
DECKS = Editor("slides_decks", kind=KIND, mime=DECK_MIME, untitled=UNTITLED, noun="presentation")


# ---------------------------------------------------------------- reading
def get(store: Store, user: str, deck_id: int) -> dict:
    """A presentation the user can open, with its slides in order (see ``read_slides``) and its ``theme``."""
    return {**DECKS.open(store, user, deck_id), "slides": read_slides(store, deck_id), "theme": theme(store, deck_id)}


def theme(store: Store, deck_id: int) -> str:
    """The deck's theme (``shapes.THEMES``)."""
    t = store.scalar("SELECT theme FROM slides_looks WHERE deck=? AND slide IS NULL ORDER BY id", (deck_id,))
    return t or shapes.DEFAULT_THEME


def read_slides(store: Store, deck_id: int) -> list[dict]:
    """``[{id, seq, layout, notes, boxes: {role: text}, objects: [...], background}]`` in order; every box of
    the layout is present. ``objects``: what else sits on the slide, back to front (``shapes.read_objects``);
    ``background``: the slide's own background colour ("": the theme's)."""
    slides = store.select("slides_slides", "deck=?", (deck_id,), order="seq, id")
    boxes: dict[int, dict[str, str]] = {s["id"]: {} for s in slides}
    for b in store.all("SELECT b.slide, b.role, b.text FROM slides_boxes b JOIN slides_slides s ON s.id=b.slide "
                       "WHERE s.deck=? ORDER BY b.id", (deck_id,)):
        boxes[b["slide"]][b["role"]] = b["text"] or ""
    objects = shapes.read_objects(store, deck_id)
    backgrounds = {r["slide"]: r["background"] or "" for r in store.all(
        "SELECT slide, background FROM slides_looks WHERE deck=? AND slide IS NOT NULL", (deck_id,))}
    return [{"id": s["id"], "seq": s["seq"], "layout": s["layout"], "notes": s["notes"] or "",
             "boxes": {r: boxes[s["id"]].get(r, "") for r in LAYOUTS.get(s["layout"], ("title",))},
             "objects": objects.get(s["id"], []), "background": backgrounds.get(s["id"], "")}
            for s in slides]


def slide(store: Store, user: str, slide_id: int) -> dict:
    """One slide (with its deck's id) that the user can see."""
    row = _slide_row(store, slide_id)
    DECKS.open(store, user, row["deck"])
    return next(s for s in read_slides(store, row["deck"]) if s["id"] == slide_id) | {"deck": row["deck"]}


def slide_at(store: Store, deck_id: int, number: int) -> dict | None:
    """The slide at a 1-based position (for checks), or None."""
    slides = read_slides(store, deck_id)
    return slides[number - 1] if 1 <= number <= len(slides) else None


def decks(store: Store, user: str, q: str = "") -> list[dict]:
    """Presentations the user can open, most recently modified first."""
    return DECKS.listing(store, user, q)


def _slide_row(store: Store, slide_id: int, deck_id: int | None = None) -> dict:
    row = store.get("slides_slides", slide_id)
    if row is None or (deck_id is not None and row["deck"] != deck_id):
        raise NotFound("That slide doesn't exist in this presentation.")
    return row


def _require(d: dict, need: Role = Role.EDITOR) -> None:
    if RANK[d["role"]] < RANK[need]:
        how = "comment on" if d["role"] == Role.COMMENTER else "view"
        raise Forbidden(f"You can only {how} “{d['title']}”. Ask the owner for edit access.")


def _editable(store: Store, caller: Caller, deck_id: int) -> dict:
    d = DECKS.open(store, caller.user, deck_id)
    _require(d)
    return d


def _editable_slide(store: Store, caller: Caller, slide_id: int, deck_id: int | None = None) -> tuple[dict, dict]:
    row = _slide_row(store, slide_id, deck_id)
    return _editable(store, caller, row["deck"]), row


# ---------------------------------------------------------------- text
def clean_text(text: object, limit: int = MAX_TEXT, field: str = "text") -> str:
    """Text as stored: plain, ``\\n`` line breaks, no control characters or trailing spaces,
    no blank lines at either end. Raises Invalid past ``limit`` characters."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise Invalid("Text must be a string.", field)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").replace("\u2028", "\n")
    text = _CONTROL.sub("", text)
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    if len(text) > limit:
        raise Invalid(f"That's too long: a text box can hold at most {limit:,} characters.", field)
    return text


def bullet_lines(text: str) -> list[tuple[bool, str]]:
    """A body box's lines as (is_bullet, text)."""
    if not text:
        return []
    return [(True, line[2:]) if line.startswith("- ") or line == "-" else (False, line)
            for line in text.split("\n")]


def _check_layout(layout: str) -> str:
    if layout not in LAYOUTS:
        raise Invalid(f"Unknown layout {layout!r}: choose one of {', '.join(LAYOUT_NAMES.values())}.", "layout")
    return layout


def _boxes(store: Store, slide_id: int) -> dict[str, dict]:
    return {b["role"]: b for b in store.select("slides_boxes", "slide=?", (slide_id,))}


# ---------------------------------------------------------------- slides
def _order(store: Store, deck_id: int) -> list[int]:
    return [r["id"] for r in store.all("SELECT id FROM slides_slides WHERE deck=? ORDER BY seq, id", (deck_id,))]


def _renumber(store: Store, actor: str, ids: list[int]) -> None:
    """Give the slides ``ids`` the positions 1..n, writing only the ones that move."""
    for i, sid in enumerate(ids, start=1):
        store.update("slides_slides", sid, actor, seq=i)


def _insert_slide(store: Store, actor: str, deck_id: int, seq: int, layout: str,
                  texts: dict[str, str] | None = None, notes: str = "") -> int:
    sid = store.insert("slides_slides", actor, deck=deck_id, seq=seq, layout=layout, notes=notes)
    for role in LAYOUTS[layout]:
        store.insert("slides_boxes", actor, slide=sid, role=role, text=(texts or {}).get(role, ""))
    return sid


def add_slide(store: Store, caller: Caller, deck_id: int, after: int | None = None,
              layout: str = DEFAULT_LAYOUT, texts: dict[str, str] | None = None, notes: str = "") -> int:
    """A new slide after ``after`` (a slide of this deck; ``None``: at the end); returns its id."""
    d = _editable(store, caller, deck_id)
    layout = _check_layout(layout)
    texts = {r: clean_text(t, field=r) for r, t in (texts or {}).items()}
    for r in texts:
        if r not in LAYOUTS[layout]:
            raise Invalid(f"A “{LAYOUT_NAMES[layout]}” slide has no {ROLE_NAMES.get(r, r).lower()} box.", "role")
    notes = clean_text(notes, MAX_NOTES, "notes")
    order = _order(store, deck_id)
    if len(order) >= MAX_SLIDES:
        raise Invalid(f"A presentation can have at most {MAX_SLIDES} slides.", "after")
    if after is None:
        pos = len(order)
    else:
        _slide_row(store, after, deck_id)
        pos = order.index(after) + 1
    with store.transaction():
        for i, sid in enumerate(order[pos:], start=pos + 2):
            store.update("slides_slides", sid, caller.actor, seq=i)
        new = _insert_slide(store, caller.actor, deck_id, pos + 1, layout, texts, notes)
        DECKS.bump(store, caller, d)
    return new


def duplicate_slide(store: Store, caller: Caller, slide_id: int, deck_id: int | None = None) -> int:
    """A copy of the slide (layout, text, notes) right after it; returns the copy's id."""
    row = _slide_row(store, slide_id, deck_id)
    texts = {r: b["text"] or "" for r, b in _boxes(store, slide_id).items() if r in LAYOUTS[row["layout"]]}
    with store.transaction():
        new = add_slide(store, caller, row["deck"], slide_id, row["layout"], texts, row["notes"] or "")
        shapes.copy_all(store, caller.actor, slide_id, new)
    return new


def delete_slide(store: Store, caller: Caller, slide_id: int, deck_id: int | None = None) -> int:
    """Delete a slide (never the last one); returns the slide that takes its place in the editor."""
    d, row = _editable_slide(store, caller, slide_id, deck_id)
    order = _order(store, row["deck"])
    if len(order) == 1:
        raise Invalid("A presentation needs at least one slide.", "slide")
    i = order.index(slide_id)
    with store.transaction():
        for b in store.select("slides_boxes", "slide=?", (slide_id,)):
            store.delete("slides_boxes", b["id"], caller.actor)
        shapes.delete_all(store, caller.actor, slide_id)
        store.delete("slides_slides", slide_id, caller.actor)
        order.remove(slide_id)
        _renumber(store, caller.actor, order)
        DECKS.bump(store, caller, d)
    return order[min(i, len(order) - 1)]


def move_slide(store: Store, caller: Caller, slide_id: int, position: int, deck_id: int | None = None) -> bool:
    """Move a slide to a 1-based position; returns whether anything moved."""
    d, row = _editable_slide(store, caller, slide_id, deck_id)
    order = _order(store, row["deck"])
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= len(order):
        raise Invalid(f"Choose a position from 1 to {len(order)}.", "position")
    if order.index(slide_id) == position - 1:
        return False
    order.remove(slide_id)
    order.insert(position - 1, slide_id)
    with store.transaction():
        _renumber(store, caller.actor, order)
        DECKS.bump(store, caller, d)
    return True


def set_layout(store: Store, caller: Caller, slide_id: int, layout: str, deck_id: int | None = None) -> bool:
    """Apply a layout to a slide, keeping its text (see the module's docstring). Returns whether it changed."""
    d, row = _editable_slide(store, caller, slide_id, deck_id)
    layout = _check_layout(layout)
    old = row["layout"]
    if layout == old:
        return False
    boxes = _boxes(store, slide_id)
    want = LAYOUTS[layout]
    main_role, main_new = MAIN.get(old), MAIN.get(layout)
    main_old = boxes.get(main_role) if main_role else None
    kept = {r: b for r, b in boxes.items() if b is not main_old and r in want and not (r == main_new and main_old)}
    extra = [boxes[r] for r in ROLES if r in boxes and boxes[r] is not main_old and r not in kept]
    places = {o["role"]: o for o in store.select("slides_objects", "slide=? AND kind=?", (slide_id, shapes.PLACEHOLDER))}
    with store.transaction():
        store.update("slides_slides", slide_id, caller.actor, layout=layout)
        main_text = (main_old or {}).get("text") or ""
        leftovers = []                                 # (role, text) with no place in the new layout
        for b in extra:
            if b["text"] and main_new is not None:
                main_text = f"{main_text}\n{b['text']}" if main_text else b["text"]
            elif b["text"]:
                leftovers.append((b["role"], b["text"]))
            store.delete("slides_boxes", b["id"], caller.actor)
        if main_new is not None and main_old is not None:
            store.update("slides_boxes", main_old["id"], caller.actor, role=main_new, text=main_text)
        elif main_new is not None:
            store.insert("slides_boxes", caller.actor, slide=slide_id, role=main_new, text=main_text)
        elif main_old is not None:
            if main_text:
                leftovers.insert(0, (main_role, main_text))
            store.delete("slides_boxes", main_old["id"], caller.actor)
        present = set(kept) | ({main_new} if main_new else set())
        for role in want:
            if role not in present:
                store.insert("slides_boxes", caller.actor, slide=slide_id, role=role, text="")
        for role, text_ in leftovers:                  # text never goes: it stays where it was, as a text box
            o = places.get(role) or {}
            x, y, w, h = (o["x"], o["y"], o["w"], o["h"]) if o.get("x") is not None else geometry_pt(old, role)
            shapes.add_text_box(store, caller.actor, slide_id, (x, y, w, h), text_, o)
        roles = {r: r for r in kept} | ({main_role: main_new} if main_old and main_new else {})
        shapes.relayout(store, caller.actor, slide_id, roles)
        DECKS.bump(store, caller, d)
    return True


def set_text(store: Store, caller: Caller, slide_id: int, role: str, text: str, deck_id: int | None = None) -> bool:
    """Save what a text box holds; returns whether anything changed (saving unchanged writes nothing)."""
    d, row = _editable_slide(store, caller, slide_id, deck_id)
    if role not in ROLES:
        raise Invalid(f"Unknown text box {role!r}.", "role")
    if role not in LAYOUTS[row["layout"]]:
        raise Invalid(f"This slide ({LAYOUT_NAMES[row['layout']]}) has no {ROLE_NAMES[role].lower()} box.", "role")
    text = clean_text(text, field="text")
    box = _boxes(store, slide_id).get(role)
    with store.transaction():
        if box is None:
            store.insert("slides_boxes", caller.actor, slide=slide_id, role=role, text=text)
            changed = True
        else:
            changed = bool(store.update("slides_boxes", box["id"], caller.actor, text=text))
        if changed:
            DECKS.bump(store, caller, d)
    return changed


def set_notes(store: Store, caller: Caller, slide_id: int, text: str, deck_id: int | None = None) -> bool:
    """Save a slide's speaker notes; returns whether they changed."""
    d, row = _editable_slide(store, caller, slide_id, deck_id)
    text = clean_text(text, MAX_NOTES, "notes")
    with store.transaction():
        changed = bool(store.update("slides_slides", slide_id, caller.actor, notes=text))
        if changed:
            DECKS.bump(store, caller, d)
    return changed


# ---------------------------------------------------------------- whole presentations
def create(store: Store, caller: Caller, parent: int | None = None, title: str = UNTITLED,
           slides: list[dict] | None = None) -> int:
    """A new presentation in a folder (``None`` = My Drive); ``slides``: ``[{layout, title, body, …, notes}]``
    (default: one empty title slide, as in Google Slides). Returns the presentation id."""
    specs = slides or [{"layout": "title"}]
    with store.transaction():
        deck_id = DECKS.create(store, caller, parent, title)
        for i, spec in enumerate(specs, start=1):
            layout = _check_layout(spec.get("layout", DEFAULT_LAYOUT))
            texts = {r: clean_text(spec.get(r, ""), field=r) for r in LAYOUTS[layout]}
            _insert_slide(store, caller.actor, deck_id, i, layout, texts,
                          clean_text(spec.get("notes", ""), MAX_NOTES, "notes"))
    return deck_id


# ---------------------------------------------------------------- export
def _slide_text(s: dict) -> list[str]:
    """The slide's text in reading order: its layout boxes, then its text boxes and shapes, back to front."""
    return ([s["boxes"][r] for r in LAYOUTS[s["layout"]] if s["boxes"].get(r)]
            + [o["text"] for o in s.get("objects", ()) if o["kind"] in ("text", "shape") and o["text"]])


def plain_text(slides: list[dict]) -> str:
    """Google Slides' "Plain text (.txt)" download: each slide's boxes in order, slides apart by a blank line."""
    return "\n\n".join("\n".join(_slide_text(s)) for s in slides).strip("\n") + "\n"


def text(store: Store, deck_id: int) -> str:
    return plain_text(read_slides(store, deck_id))


def text_export(store: Store, user: str, deck_id: int) -> str:
    return plain_text(get(store, user, deck_id)["slides"])


def markdown(store: Store, user: str, deck_id: int) -> str:
    """The deck as Markdown: a heading per slide, its text, bullets as lists, notes quoted."""
    d = get(store, user, deck_id)
    out = [f"# {d['title']}"]
    for n, s in enumerate(d["slides"], start=1):
        b = s["boxes"]
        out.append(f"## {n}. {b.get('title') or '(untitled)'}".replace("\n", " "))
        for role in LAYOUTS[s["layout"]]:
            if role == "title" or not b.get(role):
                continue
            if role in ("left", "right"):
                out.append(f"**{ROLE_NAMES[role]}**")
            out.append(b[role])
        out += [o["text"] for o in s["objects"] if o["kind"] in ("text", "shape") and o["text"]]
        if s["notes"]:
            out.append("\n".join("> " + line if line else ">" for line in ("Notes: " + s["notes"]).split("\n")))
    return "\n\n".join(out) + "\n"


# Box positions in CSS pixels of a 960 × 540 slide (also used by the editor's stylesheet).
GEOMETRY = {
    "title": {"title": (60, 120, 840, 190), "subtitle": (60, 320, 840, 110)},
    "title_body": {"title": (44, 36, 872, 74), "body": (44, 124, 872, 376)},
    "two_columns": {"title": (44, 36, 872, 74), "left": (44, 124, 420, 376), "right": (496, 124, 420, 376)},
    "section": {"title": (60, 170, 840, 130), "subtitle": (60, 310, 840, 90)},
    "title_only": {"title": (44, 36, 872, 74)},
    "one_column": {"title": (44, 48, 400, 110), "body": (44, 172, 400, 328)},
    "main_point": {"title": (60, 100, 840, 340)},
    "section_description": {"title": (40, 140, 400, 150), "subtitle": (40, 300, 400, 100),
                            "body": (520, 60, 400, 420)},
    "caption": {"body": (44, 436, 872, 64)},
    "big_number": {"title": (44, 90, 872, 230), "body": (44, 330, 872, 120)},
    "blank": {},
}


def geometry_pt(layout: str, role: str) -> tuple[int, int, int, int]:
    """Where a layout puts a box: (x, y, w, h) in points of the 720 × 405 pt slide."""
    return tuple(round(v * 3 / 4) for v in GEOMETRY[layout][role])


# python-pptx's default template: Title Slide, Title and Content, Section Header, Two Content, Title Only, Blank.
# Boxes a layout there has no placeholder for are written as text boxes.
_PPTX_LAYOUT = {"title": 0, "title_body": 1, "section": 2, "two_columns": 3, "title_only": 5, "one_column": 1,
                "main_point": 5, "section_description": 0, "caption": 6, "big_number": 1, "blank": 6}


def pptx_bytes(store: Store, user: str, deck_id: int) -> bytes:
    """The presentation as PowerPoint (10 × 5.625 in, as Google Slides exports): title and body
    placeholders where the slide has them (moved and formatted as in the editor), bullets as
    paragraphs, then the slide's text boxes, shapes, lines and images in stacking order; speaker
    notes in notes slides. Byte-stable: times come from world time."""
    from pptx import Presentation

    from apps.core.files import blob_bytes
    from apps.slides import pptx_objects as px
    d = get(store, user, deck_id)
    prs = Presentation()
    prs.slide_width, prs.slide_height = px.emu(shapes.SLIDE_W), px.emu(shapes.SLIDE_H)
    look = shapes.THEMES[d["theme"]] if d["theme"] != shapes.DEFAULT_THEME else None
    for s in d["slides"]:
        layout = prs.slide_layouts[_PPTX_LAYOUT.get(s["layout"], 6)]
        sl = prs.slides.add_slide(layout)
        if s["background"] or look:
            px.background(sl, s["background"] or look["background"])
        holders = {ph.placeholder_format.idx: ph for ph in sl.placeholders}
        slots = dict(zip(LAYOUTS[s["layout"]], sorted(holders)))
        over = {o["role"]: o for o in s["objects"] if o["kind"] == shapes.PLACEHOLDER}
        for role in LAYOUTS[s["layout"]]:
            o = over.get(role)
            box = (o["x"], o["y"], o["w"], o["h"]) if o and o["x"] is not None else geometry_pt(s["layout"], role)
            if look and not (o or {}).get("color"):
                o = {**(o or {}), "color": look["title" if role == "title" else "text"]}
            value = s["boxes"].get(role, "")
            if role not in slots:
                px.add_object(sl, {**(o or {}), "kind": "text", "id": role, "x": box[0], "y": box[1], "w": box[2],
                                   "h": box[3]}, bullet_lines(value), None)
                continue
            ph = holders[slots[role]]
            px.place(ph, *box)
            lines = bullet_lines(value) if role in BULLET_ROLES else [(True, line) for line in value.split("\n")]
            px.fill_text(ph.text_frame, lines, o, placeholder=True)
        for idx in set(holders) - set(slots.values()):
            holders[idx]._element.getparent().remove(holders[idx]._element)
        for o in s["objects"]:
            if o["kind"] == shapes.PLACEHOLDER:
                continue
            blob = store.scalar("SELECT blob FROM slides_objects WHERE id=?", (o["id"],)) if o["kind"] == "image" else None
            if look and o["kind"] == "text" and not o["color"]:
                o = {**o, "color": look["text"]}
            px.add_object(sl, o, bullet_lines(o["text"]), blob_bytes(store, blob) if blob else None)
        if s["notes"]:
            sl.notes_slide.notes_text_frame.text = s["notes"]
    props = prs.core_properties
    stamp = store.now().replace(tzinfo=None)                  # world time: byte-stable downloads
    props.title = d["title"]
    props.author = props.last_modified_by = d["item"].get("owner_name") or d["item"]["owner"]
    props.created = props.modified = props.last_printed = stamp
    props.revision = int(d["revision"])
    buf = io.BytesIO()
    prs.save(buf)
    return stamped_zip(buf.getvalue(), stamp)
