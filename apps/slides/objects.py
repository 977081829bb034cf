"""Objects on a slide: insert text boxes, shapes, lines and images (from Drive); move, resize,
nudge, align, reorder, format and delete them. Layout boxes (title, body, …) take the same
commands, except delete: their text stays in ``slides_boxes`` and their position and formatting
live in a ``placeholder`` row of ``slides_objects``, made the first time they change.

An object is named by ``ref``: its id, or a layout box's role ("title", "body", …). Every write
checks edit access, changes only what differs and bumps the deck's revision when it changed.
Units and limits: ``apps.slides.shapes``.
"""
from __future__ import annotations

from apps.core.ids import as_id
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.drive import service as drive
from apps.slides import service, shapes
from apps.slides.shapes import PLACEHOLDER

FORMAT_KEYS = ("bold", "italic", "underline", "size", "color", "align", "fill", "stroke", "weight")
ORDERS = ("front", "forward", "backward", "back")


# ---------------------------------------------------------------- finding
def _ref(ref: object) -> int | str:
    if isinstance(ref, bool):
        raise Invalid("Name an object by its id or a layout box's role.", "ref")
    if isinstance(ref, int):
        return ref
    text = str(ref).strip()
    if (n := as_id(text)) is not None:
        return n
    if text in service.ROLES:
        return text
    raise Invalid(f"{ref!r} isn't an object on this slide: give an object id or a layout box "
                  f"({', '.join(service.ROLES)}).", "ref")


def _placeholder_geometry(layout: str, role: str) -> dict[str, int]:
    x, y, w, h = service.geometry_pt(layout, role)
    return {"x": x, "y": y, "w": w, "h": h}


def find(store: Store, slide: dict, ref: object, *, create: bool = False, actor: str = "") -> dict:
    """The object ``ref`` on a slide (a ``slides_slides`` row). A layout box's row is made when
    ``create`` (it has none until it first changes); without one, its layout's defaults stand in."""
    r = _ref(ref)
    if isinstance(r, int):
        row = store.get("slides_objects", r)
        if row is None or row["slide"] != slide["id"]:
            raise NotFound("That object isn't on this slide any more.")
        return row
    if r not in service.LAYOUTS[slide["layout"]]:
        raise Invalid(f"This slide ({service.LAYOUT_NAMES[slide['layout']]}) has no "
                      f"{service.ROLE_NAMES[r].lower()} box.", "ref")
    rows = store.select("slides_objects", "slide=? AND kind=? AND role=?", (slide["id"], PLACEHOLDER, r))
    if rows:
        return rows[0]
    if not create:
        return {"id": None, "slide": slide["id"], "kind": PLACEHOLDER, "role": r, "x": None, "y": None,
                "w": None, "h": None, "text": ""}
    oid = store.insert("slides_objects", actor, slide=slide["id"], kind=PLACEHOLDER, role=r, z=0)
    return store.get("slides_objects", oid)


def _box(slide: dict, row: dict) -> dict:
    """Where the object is now: a layout box without a position of its own is where its layout puts it."""
    if row["kind"] == PLACEHOLDER and row["x"] is None:
        return {**row, **_placeholder_geometry(slide["layout"], row["role"])}
    return row


def _edit(store: Store, caller: Caller, slide_id: int, deck_id: int | None) -> tuple[dict, dict]:
    return service._editable_slide(store, caller, slide_id, deck_id)


_PLAIN = {"bold": False, "italic": False, "underline": False, "size": None, "color": "", "align": "", "fill": "",
          "stroke": "", "weight": None}


def _write(store: Store, caller: Caller, d: dict, slide: dict, ref: object, **values) -> bool:
    """Write an object's fields; a layout box gets its row only when something differs from its layout."""
    cur = find(store, slide, ref)
    if cur["id"] is None:
        base = _placeholder_geometry(slide["layout"], cur["role"]) | _PLAIN
        if all(base.get(k) == v for k, v in values.items()):
            return False
    with store.transaction():
        row = find(store, slide, ref, create=True, actor=caller.actor)
        if row["x"] is None and {"x", "y", "w", "h"} & set(values):
            values = _placeholder_geometry(slide["layout"], row["role"]) | values
        changed = bool(store.update("slides_objects", row["id"], caller.actor, **values))
        if changed:
            service.DECKS.bump(store, caller, d)
    return changed


# ---------------------------------------------------------------- reading
def get(store: Store, user: str, slide_id: int, ref: object) -> dict:
    """One object as ``shapes.public`` gives it, with its current position (layout boxes too)."""
    sl = service.slide(store, user, slide_id)
    row = find(store, service._slide_row(store, slide_id), ref)
    out = shapes.public(_box(sl, row))
    if row["kind"] == PLACEHOLDER:
        out["text"] = sl["boxes"].get(row["role"], "")
    return out


def images(store: Store, user: str, q: str = "") -> list[dict]:
    """Image files in Drive the user can open (for Insert → Image → Drive), by name."""
    rows = store.all("SELECT * FROM drive_items WHERE kind='file' AND mime LIKE 'image/%' AND trashed=0 "
                     "ORDER BY name COLLATE NOCASE, id")
    out = []
    for r in rows:
        item = dict(r)
        if q and q.lower() not in item["name"].lower():
            continue
        if drive.role_of(store, user, item) is None or drive.is_trashed(store, item):
            continue
        out.append({"id": item["id"], "name": item["name"], "mime": item["mime"], "blob": item["blob"]})
    return out


# ---------------------------------------------------------------- insert and delete
def _image_size(store: Store, blob: int) -> tuple[int, int] | None:
    import io

    from PIL import Image

    from apps.core.files import blob_bytes
    try:
        with Image.open(io.BytesIO(blob_bytes(store, blob))) as im:
            return im.size
    except Exception:
        return None


def insert(store: Store, caller: Caller, slide_id: int, kind: str, shape: str = "", x: object = None,
           y: object = None, w: object = None, h: object = None, text: str = "", item: int | None = None,
           deck_id: int | None = None) -> int:
    """Put a new object on a slide, in front of the others; returns its id. ``kind``: text, shape
    (``shape``: rectangle, ellipse, right_arrow, …), line (``shape``: line or arrow) or image (``item``:
    a Drive image file). Position and size in points; left out, the object goes in the middle."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    if kind not in shapes.KINDS:
        raise Invalid(f"Insert one of: {', '.join(shapes.KINDS)} (not {kind!r}).", "kind")
    values: dict = {"shape": ""}
    if kind == "shape":
        shape = shape or "rectangle"
        if shape not in shapes.SHAPES:
            raise Invalid(f"Unknown shape {shape!r}: choose one of {', '.join(shapes.SHAPES)}.", "shape")
        values["shape"] = shape
    elif kind == "line":
        shape = shape or "line"
        if shape not in shapes.LINES:
            raise Invalid(f"Unknown line {shape!r}: choose line or arrow.", "shape")
        values["shape"] = shape
    elif shape:
        raise Invalid(f"A {shapes.KIND_NAMES[kind].lower()} has no shape.", "shape")
    dx, dy, dw, dh = shapes.DEFAULT_BOX[kind]
    if kind == "image":
        if item is None:
            raise Invalid("Choose an image from Drive.", "item")
        pic = next((i for i in images(store, caller.user) if i["id"] == item), None)
        if pic is None:
            raise NotFound("That image isn't in your Drive, or it isn't an image.")
        values |= {"item": pic["id"], "blob": pic["blob"]}
        size = _image_size(store, pic["blob"])
        if size and size[0] and size[1] and w is None and h is None:
            dh = max(1, round(dw * size[1] / size[0]))
            if dh > 300:
                dw, dh = max(1, round(dw * 300 / dh)), 300
            dx, dy = (shapes.SLIDE_W - dw) // 2, (shapes.SLIDE_H - dh) // 2
    if text and kind not in ("text", "shape"):
        raise Invalid(f"A {shapes.KIND_NAMES[kind].lower()} holds no text.", "text")
    values["text"] = service.clean_text(text)
    values |= shapes.geometry(kind, dx if x is None else x, dy if y is None else y,
                              dw if w is None else w, dh if h is None else h)
    count = store.scalar("SELECT COUNT(*) FROM slides_objects WHERE slide=?", (slide_id,))
    if count >= shapes.MAX_OBJECTS:
        raise Invalid(f"A slide can hold at most {shapes.MAX_OBJECTS} objects.", "kind")
    if kind == "shape":
        values |= {"fill": shapes.DEFAULT_FILL}
    top = store.scalar("SELECT MAX(z) FROM slides_objects WHERE slide=?", (slide_id,)) or 0
    with store.transaction():
        oid = store.insert("slides_objects", caller.actor, slide=slide_id, kind=kind, z=top + 1, **values)
        service.DECKS.bump(store, caller, d)
    return oid


def duplicate(store: Store, caller: Caller, slide_id: int, ref: object, deck_id: int | None = None,
              to_slide: int | None = None) -> int:
    """A copy of an inserted object in front of everything, 10 pt down and right of it (``to_slide``: on
    that slide of the same deck, where it was; a paste); returns its id."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    row = find(store, slide, ref)
    shift = shapes.BIG_NUDGE
    if to_slide is not None and to_slide != slide_id:
        service._slide_row(store, to_slide, slide["deck"])
        slide_id, shift = to_slide, 0
    if row["kind"] == PLACEHOLDER:
        raise Invalid("A layout box can't be duplicated: copy its text into a text box instead.", "ref")
    if store.scalar("SELECT COUNT(*) FROM slides_objects WHERE slide=?", (slide_id,)) >= shapes.MAX_OBJECTS:
        raise Invalid(f"A slide can hold at most {shapes.MAX_OBJECTS} objects.", "ref")
    top = store.scalar("SELECT MAX(z) FROM slides_objects WHERE slide=?", (slide_id,)) or 0
    values = {k: v for k, v in row.items() if k not in ("id", "x", "y", "w", "h", "z")}
    values["slide"] = slide_id
    g = shapes.geometry(row["kind"], row["x"] + shift, row["y"] + shift, row["w"], row["h"])
    with store.transaction():
        oid = store.insert("slides_objects", caller.actor, **values, **g, z=top + 1)
        service.DECKS.bump(store, caller, d)
    return oid


def delete(store: Store, caller: Caller, slide_id: int, ref: object, deck_id: int | None = None) -> None:
    """Delete an object (a layout box can't be deleted: clear its text instead)."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    row = find(store, slide, ref)
    if row["kind"] == PLACEHOLDER:
        raise Invalid("A layout box can't be deleted: clear its text, or change the slide's layout.", "ref")
    with store.transaction():
        store.delete("slides_objects", row["id"], caller.actor)
        service.DECKS.bump(store, caller, d)


# ---------------------------------------------------------------- position and size
def move(store: Store, caller: Caller, slide_id: int, ref: object, x: object, y: object, w: object = None,
         h: object = None, deck_id: int | None = None) -> bool:
    """Move (and, with ``w``/``h``, resize) an object; points. Returns whether it changed."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    cur = _box(slide, find(store, slide, ref))
    kind = "line" if cur["kind"] == "line" else "box"
    g = shapes.geometry(kind, x, y, cur["w"] if w is None else w, cur["h"] if h is None else h)
    return _write(store, caller, d, slide, ref, **g)


def nudge(store: Store, caller: Caller, slide_id: int, ref: object, dx: object = 0, dy: object = 0,
          deck_id: int | None = None) -> bool:
    """Move an object by (dx, dy) points, as the arrow keys do (1 pt; 10 pt with Shift)."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    cur = _box(slide, find(store, slide, ref))
    step_x, step_y = shapes.whole(dx, "dx"), shapes.whole(dy, "dy")
    g = shapes.geometry("line" if cur["kind"] == "line" else "box", cur["x"] + step_x, cur["y"] + step_y,
                        cur["w"], cur["h"])
    return _write(store, caller, d, slide, ref, **g)


def align(store: Store, caller: Caller, slide_id: int, ref: object, side: str, deck_id: int | None = None) -> bool:
    """Align an object to the slide: left, center, right, top, middle or bottom."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    cur = _box(slide, find(store, slide, ref))
    pos = shapes.aligned(cur, side)
    return _write(store, caller, d, slide, ref, **pos, w=cur["w"], h=cur["h"])


def order(store: Store, caller: Caller, slide_id: int, ref: object, to: str, deck_id: int | None = None) -> bool:
    """Bring to front, forward one, backward one, or send to back (among the slide's inserted objects)."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    if to not in ORDERS:
        raise Invalid(f"Order is one of {', '.join(ORDERS)}.", "to")
    row = find(store, slide, ref)
    if row["kind"] == PLACEHOLDER:
        raise Invalid("Layout boxes stay behind inserted objects.", "ref")
    rows = [r for r in store.select("slides_objects", "slide=? AND kind!=?", (slide_id, PLACEHOLDER), order="z, id")]
    ids = [r["id"] for r in rows]
    i = ids.index(row["id"])
    j = {"front": len(ids) - 1, "back": 0, "forward": min(i + 1, len(ids) - 1), "backward": max(i - 1, 0)}[to]
    ids.insert(j, ids.pop(i))
    with store.transaction():
        changed = False
        for z, oid in enumerate(ids, start=1):
            changed |= bool(store.update("slides_objects", oid, caller.actor, z=z))
        if changed:
            service.DECKS.bump(store, caller, d)
    return changed


# ---------------------------------------------------------------- text and formatting
def set_text(store: Store, caller: Caller, slide_id: int, ref: object, text: str, deck_id: int | None = None) -> bool:
    """Replace the text of a text box or shape (a layout box's text: ``service.set_text``)."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    r = _ref(ref)
    if isinstance(r, str):
        return service.set_text(store, caller, slide_id, r, text, deck_id)
    row = find(store, slide, r)
    if row["kind"] not in ("text", "shape"):
        raise Invalid(f"A {shapes.KIND_NAMES[row['kind']].lower()} holds no text.", "ref")
    return _write(store, caller, d, slide, r, text=service.clean_text(text))


def set_format(store: Store, caller: Caller, slide_id: int, ref: object, deck_id: int | None = None,
               **props) -> bool:
    """Format the whole text of a box or shape, or a shape's or line's look. ``props``: bold, italic,
    underline (true/false), size (points; null: default), color (#rrggbb; "": default), align (left,
    center, right; "": default), fill (#rrggbb or none), stroke (#rrggbb), weight (points)."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    unknown = sorted(set(props) - set(FORMAT_KEYS))
    if unknown:
        raise Invalid(f"Unknown format {unknown[0]!r}: use {', '.join(FORMAT_KEYS)}.", unknown[0])
    if not props:
        raise Invalid("Nothing to format.", "format")
    row = find(store, slide, ref)
    values: dict = {}
    for k in ("bold", "italic", "underline"):
        if k in props:
            v = props[k]
            if isinstance(v, str):
                v = {"true": True, "1": True, "on": True, "false": False, "0": False, "off": False}.get(v.lower(), v)
            if not isinstance(v, bool):
                raise Invalid(f"{k} is true or false.", k)
            values[k] = v
    if "size" in props:
        values["size"] = shapes.font_size(props["size"])
    if "color" in props:
        values["color"] = shapes.color(props["color"], "color")
    if "align" in props:
        if props["align"] not in ("", *shapes.ALIGNS):
            raise Invalid(f"Align text left, center or right (not {props['align']!r}).", "align")
        values["align"] = props["align"]
    if "fill" in props:
        values["fill"] = shapes.color(props["fill"], "fill", allow_none=True)
    if "stroke" in props:
        values["stroke"] = shapes.color(props["stroke"], "stroke", allow_none=True)
    if "weight" in props:
        values["weight"] = None if props["weight"] in (None, "") else shapes.whole(props["weight"], "weight", 0,
                                                                                   shapes.MAX_WEIGHT)
    texty = {"bold", "italic", "underline", "size", "color", "align"} & set(values)
    if texty and row["kind"] in ("line", "image"):
        raise Invalid(f"A {shapes.KIND_NAMES[row['kind']].lower()} has no text to format.", sorted(texty)[0])
    if "fill" in values and row["kind"] not in ("shape", "text"):
        raise Invalid("Only shapes and text boxes have a fill.", "fill")
    return _write(store, caller, d, slide, ref, **values)


def set_bullets(store: Store, caller: Caller, slide_id: int, ref: object, on: bool, deck_id: int | None = None) -> bool:
    """Make every line of a box a bullet ("- " in the text), or none of them."""
    d, slide = _edit(store, caller, slide_id, deck_id)
    row = find(store, slide, ref)
    if row["kind"] == PLACEHOLDER:
        if row["role"] not in service.BULLET_ROLES:
            raise Invalid("Bullets go in a body or column box, a text box or a shape.", "ref")
        text = service.read_slides(store, slide["deck"])
        text = next(s for s in text if s["id"] == slide_id)["boxes"].get(row["role"], "")
    elif row["kind"] in ("text", "shape"):
        text = row["text"] or ""
    else:
        raise Invalid(f"A {shapes.KIND_NAMES[row['kind']].lower()} holds no text.", "ref")
    lines = [t for _, t in service.bullet_lines(text)]
    new = "\n".join(("- " + t if t else t) if on else t for t in lines)
    return set_text(store, caller, slide_id, row["role"] if row["kind"] == PLACEHOLDER else row["id"], new, deck_id)
