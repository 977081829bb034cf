"""Slides GUI: objects on a slide (insert, move, resize, nudge, align, order, format, delete), thin
over ``apps.slides.objects``; the deck's theme and a slide's background (``apps.slides.looks``). Every change answers with the re-rendered workspace (the selection
is kept by the page); saving an object's text answers with the slide's thumbnail, as box text does."""
from __future__ import annotations

from flask import Response, abort, g, redirect, render_template, request, url_for
from markupsafe import Markup

from apps.core.errors import Invalid
from apps.core.files import blob_bytes
from apps.core.ids import parse_int
from apps.slides import comments, history, looks, objects, service, shapes
from apps.slides.blueprint import bp
from apps.slides.routes import _step, _view, _workspace
from apps.web.render import is_htmx

BASE = "/p/<int:deck_id>/s/<int:slide_id>/o/<ref>"


def _opt(name: str) -> str | None:
    v = request.form.get(name, "").strip()
    return v or None


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/objects")
def insert_object(deck_id: int, slide_id: int):
    kind = request.form.get("kind", "")
    item = _opt("item")
    with _step(deck_id, "Insert", slide_id):
        oid = objects.insert(g.store, g.caller, slide_id, kind, request.form.get("shape", ""),
                             _opt("x"), _opt("y"), _opt("w"), _opt("h"), request.form.get("text", ""),
                             parse_int(item, "item") if item else None, deck_id)
    return _workspace(deck_id, slide_id, sel=oid)


@bp.post(BASE + "/move")
def move_object(deck_id: int, slide_id: int, ref: str):
    if _opt("x") is None or _opt("y") is None:
        raise Invalid("Say where to move it: x and y, in points.", "x")
    with _step(deck_id, "Move", slide_id):
        objects.move(g.store, g.caller, slide_id, ref, _opt("x"), _opt("y"), _opt("w"), _opt("h"), deck_id)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/nudge")
def nudge_object(deck_id: int, slide_id: int, ref: str):
    with _step(deck_id, "Move", slide_id):
        objects.nudge(g.store, g.caller, slide_id, ref, request.form.get("dx", "0"), request.form.get("dy", "0"), deck_id)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/align")
def align_object(deck_id: int, slide_id: int, ref: str):
    with _step(deck_id, "Align", slide_id):
        objects.align(g.store, g.caller, slide_id, ref, request.form.get("side", ""), deck_id)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/order")
def order_object(deck_id: int, slide_id: int, ref: str):
    with _step(deck_id, "Order", slide_id):
        objects.order(g.store, g.caller, slide_id, ref, request.form.get("to", ""), deck_id)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/format")
def format_object(deck_id: int, slide_id: int, ref: str):
    props = {k: request.form[k] for k in objects.FORMAT_KEYS if k in request.form}
    with _step(deck_id, "Format", slide_id):
        objects.set_format(g.store, g.caller, slide_id, ref, deck_id, **props)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/bullets")
def bullets_object(deck_id: int, slide_id: int, ref: str):
    on = request.form.get("on", "")
    if on not in ("0", "1"):
        raise Invalid("Say whether to turn bullets on (1) or off (0).", "on")
    with _step(deck_id, "Bullets", slide_id):
        objects.set_bullets(g.store, g.caller, slide_id, ref, on == "1", deck_id)
    return _workspace(deck_id, slide_id, sel=ref)


@bp.post(BASE + "/duplicate")
def duplicate_object(deck_id: int, slide_id: int, ref: str):
    with _step(deck_id, "Duplicate", slide_id):
        oid = objects.duplicate(g.store, g.caller, slide_id, ref, deck_id)
    return _workspace(deck_id, slide_id, sel=oid)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/paste")
def paste_object(deck_id: int, slide_id: int):
    """Paste an object copied in the editor (Ctrl+C): its slide and ref come from the page's clipboard."""
    src = _opt("from_slide")
    if src is None or _opt("ref") is None:
        raise Invalid("Nothing to paste: copy an object first.", "ref")
    with _step(deck_id, "Paste", slide_id):
        oid = objects.duplicate(g.store, g.caller, parse_int(src, "from_slide"), request.form["ref"], deck_id, slide_id)
    return _workspace(deck_id, slide_id, sel=oid)


@bp.post(BASE + "/delete")
def delete_object(deck_id: int, slide_id: int, ref: str):
    with _step(deck_id, "Delete", slide_id):
        objects.delete(g.store, g.caller, slide_id, ref, deck_id)
    return _workspace(deck_id, slide_id)


@bp.post(BASE + "/text")
def object_text(deck_id: int, slide_id: int, ref: str):
    if "text" not in request.form:
        raise Invalid("Nothing to save.", "text")
    with _step(deck_id, "Typing", slide_id):
        objects.set_text(g.store, g.caller, slide_id, ref, request.form["text"], deck_id)
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    sl = service.slide(g.store, g.caller.user, slide_id)
    s = _view(sl, sl["deck"], service.theme(g.store, sl["deck"]))
    return (Markup(render_template("slides/_thumb.html", s=s, cur={"id": slide_id}))
            + Markup(render_template("slides/_status.html", oob=True)))


@bp.get("/p/<int:deck_id>/o/<int:obj_id>/image")
def image(deck_id: int, obj_id: int):
    service.get(g.store, g.caller.user, deck_id)          # the user can open the deck
    row = g.store.get("slides_objects", obj_id)
    slide = g.store.get("slides_slides", row["slide"]) if row else None
    if row is None or row["kind"] != "image" or slide is None or slide["deck"] != deck_id or not row["blob"]:
        abort(404)
    blob = g.store.get("blobs", row["blob"])
    return Response(blob_bytes(g.store, row["blob"]), mimetype=blob["mime"] if blob else "application/octet-stream")


@bp.get("/p/<int:deck_id>/images")
def image_picker(deck_id: int):
    d = service.get(g.store, g.caller.user, deck_id)
    slide_id = parse_int(request.args.get("slide", ""), "slide")
    q = request.args.get("q", "")
    found = objects.images(g.store, g.caller.user, q)
    tpl = "slides/_image_rows.html" if request.args.get("partial") else "slides/_image_picker.html"
    return render_template(tpl, deck=d, slide_id=slide_id, images=found, q=q)


# ---------------------------------------------------------------- theme and background
@bp.post("/p/<int:deck_id>/theme")
def theme(deck_id: int):
    name, slide_id = request.form.get("theme", ""), _slide_arg()
    with _step(deck_id, "Theme", slide_id):
        changed = looks.set_theme(g.store, g.caller, deck_id, name)
    return _workspace(deck_id, slide_id, f"Theme: {shapes.THEMES[name]['name']}." if changed else None)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/background")
def background(deck_id: int, slide_id: int):
    if "color" not in request.form:
        raise Invalid("Choose a colour for the background.", "color")
    with _step(deck_id, "Background", slide_id):
        looks.set_background(g.store, g.caller, slide_id, request.form["color"], deck_id)
    return _workspace(deck_id, slide_id)


def _slide_arg() -> int | None:
    raw = request.form.get("slide", "").strip()
    return parse_int(raw, "slide") if raw else None


# ---------------------------------------------------------------- undo and redo (outside text boxes)
@bp.post("/p/<int:deck_id>/undo")
def undo(deck_id: int):
    return _history(deck_id, history.undo, "Nothing to undo.")


@bp.post("/p/<int:deck_id>/redo")
def redo(deck_id: int):
    return _history(deck_id, history.redo, "Nothing to redo.")


def _history(deck_id: int, fn, nothing: str):
    slide_id = _slide_arg()
    done = fn(g.store, g.caller, deck_id)
    if done and done["slide"] and g.store.get("slides_slides", done["slide"]):
        slide_id = done["slide"]
    if slide_id is not None and not g.store.get("slides_slides", slide_id):
        slide_id = None
    return _workspace(deck_id, slide_id, None if done else nothing)


# ---------------------------------------------------------------- comments (answer with the workspace, comments open)
@bp.post("/p/<int:deck_id>/s/<int:slide_id>/comments")
def add_comment(deck_id: int, slide_id: int):
    comments.add(g.store, g.caller, slide_id, request.form.get("text", ""), deck_id)
    return _workspace(deck_id, slide_id, "Comment added.")


@bp.post("/p/<int:deck_id>/c/<int:comment_id>/reply")
def reply_comment(deck_id: int, comment_id: int):
    slide_id = _slide_arg()
    _comment_in(deck_id, comment_id)
    comments.reply(g.store, g.caller, comment_id, request.form.get("text", ""))
    return _workspace(deck_id, slide_id)


@bp.post("/p/<int:deck_id>/c/<int:comment_id>/resolve")
def resolve_comment(deck_id: int, comment_id: int):
    slide_id = _slide_arg()
    flag = request.form.get("resolved", "1")
    if flag not in ("0", "1"):
        raise Invalid("Say whether to resolve (1) or reopen (0) the comment.", "resolved")
    _comment_in(deck_id, comment_id)
    comments.resolve(g.store, g.caller, comment_id, flag == "1")
    return _workspace(deck_id, slide_id, "Comment resolved." if flag == "1" else "Comment reopened.")


def _comment_in(deck_id: int, comment_id: int) -> None:
    row = g.store.get("slides_comments", comment_id)
    slide = g.store.get("slides_slides", row["slide"]) if row else None
    if slide is None or slide["deck"] != deck_id:
        abort(404)
