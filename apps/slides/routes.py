"""Slides GUI: the presentation list, the editor and present mode, thin over ``apps.slides.service``.

The editor's workspace (filmstrip, canvas, speaker notes) is one fragment:
selecting a slide fetches it, and every change to the slides (add, duplicate,
delete, move, layout) answers with it re-rendered around the slide to show.
Saving a text box answers with that slide's re-rendered filmstrip thumbnail.
"""
from __future__ import annotations


from flask import g, redirect, render_template, request, url_for
from markupsafe import Markup, escape

from apps.core.errors import Invalid
from apps.core.ids import parse_int
from apps.web.render import flash_toast, is_htmx, render, toast
from apps.web.render import id_arg
from apps.drive.editor_routes import add_file_routes, add_list_routes, page_context
from apps.slides import service
from apps.slides.blueprint import bp
from apps.slides import render as draw
from apps.slides import comments, history, shapes
from apps.slides.service import LAYOUT_NAMES

_view = draw.view
box_html = draw.box_html


def _current(slides: list[dict], slide_id: int | None) -> dict:
    return next((s for s in slides if s["id"] == slide_id), slides[0])


def _editor_ctx(d: dict, slide_id: int | None) -> dict:
    slides = [_view(s, d["id"], d["theme"]) for s in d["slides"]]
    cur = _current(slides, slide_id)
    threads = comments.threads(g.store, g.caller.user, d["id"], cur["id"])
    return {"deck": d, "slides": slides, "cur": cur, "layouts": LAYOUT_NAMES, "themes": shapes.THEMES,
            "threads": threads, "can_comment": d["role"] in ("owner", "editor", "commenter"),
            "comments_open": request.values.get("comments") == "1",
            "can_edit": d["role"] in ("owner", "editor"), "shape_names": shapes.SHAPES, "line_names": shapes.LINES,
            "palette": shapes.PALETTE}


def _workspace(deck_id: int, slide_id: int | None, message: str | None = None, sel: object = None):
    """After a change: the re-rendered workspace (htmx), or the editor page (a plain form post).
    ``sel``: the object to show selected (an id or a layout box's role)."""
    d = service.get(g.store, g.caller.user, deck_id)
    if not is_htmx():
        if message:
            flash_toast(message)
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    ctx = _editor_ctx(d, slide_id)
    html = render_template("slides/_workspace.html", **ctx, sel=sel)
    oob = [render_template("slides/_status.html", oob=True)]
    if message:
        oob.append(toast(message))
    return Markup(html) + Markup("".join(oob))


def _step(deck_id: int, label: str, slide_id: int | None = None):
    """A change made in the editor: one undoable step (``apps.slides.history``)."""
    return history.step(g.store, g.caller, deck_id, label, slide_id)


def _form_int(name: str) -> int | None:
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    return parse_int(raw, name)


# ---------------------------------------------------------------- list and new
add_list_routes(bp, service.DECKS, title="Slides", icon="presentation-chart-bar", param="deck_id",
                create=service.create)


# ---------------------------------------------------------------- editor
@bp.get("/p/<int:deck_id>")
def editor(deck_id: int):
    d = service.get(g.store, g.caller.user, deck_id)
    ctx = _editor_ctx(d, id_arg("slide"))
    if is_htmx():                                   # selecting a slide: just the workspace
        return render_template("slides/_workspace.html", **ctx)
    service.DECKS.record_open(g.store, g.caller, deck_id)
    return render("slides/editor.html", **ctx, **page_context(bp.name, service.DECKS))


@bp.post("/p/<int:deck_id>/slides")
def add_slide(deck_id: int):
    layout = request.form.get("layout", service.DEFAULT_LAYOUT)
    with _step(deck_id, "New slide", None):
        sid = service.add_slide(g.store, g.caller, deck_id, _form_int("after"), layout)
    return _workspace(deck_id, sid, "Slide added.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/duplicate")
def duplicate(deck_id: int, slide_id: int):
    with _step(deck_id, "Duplicate slide", slide_id):
        sid = service.duplicate_slide(g.store, g.caller, slide_id, deck_id)
    return _workspace(deck_id, sid, "Slide duplicated.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/delete")
def delete(deck_id: int, slide_id: int):
    with _step(deck_id, "Delete slide", slide_id):
        sid = service.delete_slide(g.store, g.caller, slide_id, deck_id)
    return _workspace(deck_id, sid, "Slide deleted.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/move")
def move(deck_id: int, slide_id: int):
    position = _form_int("position")
    if position is None:
        raise Invalid("Choose where to move the slide.", "position")
    with _step(deck_id, "Move slide", slide_id):
        moved = service.move_slide(g.store, g.caller, slide_id, position, deck_id)
    return _workspace(deck_id, slide_id, f"Slide moved to position {position}." if moved else None)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/layout")
def layout(deck_id: int, slide_id: int):
    name = request.form.get("layout", "")
    with _step(deck_id, "Apply layout", slide_id):
        changed = service.set_layout(g.store, g.caller, slide_id, name, deck_id)
    return _workspace(deck_id, slide_id, f"Layout: {LAYOUT_NAMES[name]}." if changed else None)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/text")
def set_text(deck_id: int, slide_id: int):
    if "text" not in request.form:
        raise Invalid("Nothing to save.", "text")
    with _step(deck_id, "Typing", slide_id):
        service.set_text(g.store, g.caller, slide_id, request.form.get("role", ""), request.form["text"], deck_id)
    sl = service.slide(g.store, g.caller.user, slide_id)
    s = _view(sl, sl["deck"], service.theme(g.store, sl["deck"]))
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    return (Markup(render_template("slides/_thumb.html", s=s, cur={"id": slide_id}))
            + Markup(render_template("slides/_status.html", oob=True)))


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/notes")
def set_notes(deck_id: int, slide_id: int):
    if "text" not in request.form:
        raise Invalid("Nothing to save.", "text")
    with _step(deck_id, "Speaker notes", slide_id):
        service.set_notes(g.store, g.caller, slide_id, request.form["text"], deck_id)
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    return render_template("slides/_status.html")


# ---------------------------------------------------------------- File menu: rename, download, trash
PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


def _pptx(d: dict) -> tuple[bytes, str, str]:
    return service.pptx_bytes(g.store, g.caller.user, d["id"]), PPTX_MIME, f"{d['title']}.pptx"


def _text(d: dict) -> tuple[bytes, str, str]:
    data = service.text_export(g.store, g.caller.user, d["id"]).encode()
    return data, "text/plain; charset=utf-8", f"{d['title']}.txt"


def _markdown(d: dict) -> tuple[bytes, str, str]:
    data = service.markdown(g.store, g.caller.user, d["id"]).encode()
    return data, "text/markdown; charset=utf-8", f"{d['title']}.md"


add_file_routes(bp, service.DECKS, prefix="/p", param="deck_id", record="deck",
                exports={"pptx": _pptx, "txt": _text, "md": _markdown})


# ---------------------------------------------------------------- present mode
@bp.get("/p/<int:deck_id>/present")
def present(deck_id: int):
    d = service.get(g.store, g.caller.user, deck_id)
    slides = [_view(s, d["id"], d["theme"]) for s in d["slides"]]
    n = request.args.get("slide", default=1, type=int)
    n = min(max(1, n), len(slides))
    return render("slides/present.html", deck=d, slides=slides, n=n, **page_context(bp.name, service.DECKS))
