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
from apps.core.ids import as_id, parse_int
from apps.web.render import attachment, flash_toast, go, is_htmx, render, toast, toast_response
from apps.web.render import id_arg
from apps.drive import service as drive
from apps.slides import service
from apps.slides.blueprint import bp
from apps.slides.service import BULLET_ROLES, GEOMETRY, LAYOUT_NAMES, LAYOUTS, ROLE_NAMES

PLACEHOLDERS = {"title": "Click to add title", "subtitle": "Click to add subtitle"}


def _ctx(**extra) -> dict:
    return {"app_name": "slides", "search": {"action": url_for("slides.index"), "placeholder": "Search presentations",
                                             "q": extra.pop("q", ""), "clear": url_for("slides.index")}, **extra}


# ---------------------------------------------------------------- rendering helpers
def box_html(role: str, text: str) -> Markup:
    """A text box's content as HTML: body-like boxes get paragraphs and bullet lists."""
    if role not in BULLET_ROLES:
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


def _view(s: dict) -> dict:
    """A slide as the templates need it: its boxes with labels, placeholders, HTML and position."""
    boxes = []
    for role in LAYOUTS[s["layout"]]:
        x, y, w, h = GEOMETRY[s["layout"]][role]
        text = s["boxes"].get(role, "")
        boxes.append({"role": role, "label": ROLE_NAMES[role], "text": text, "html": box_html(role, text),
                      "rich": role in BULLET_ROLES, "placeholder": PLACEHOLDERS.get(role, "Click to add text"),
                      "style": f"left:{_pct(x, 960)};top:{_pct(y, 540)};width:{_pct(w, 960)};height:{_pct(h, 540)}"})
    title = " ".join((s["boxes"].get("title") or "").split())
    return {**s, "view": boxes, "name": title}


def _current(slides: list[dict], slide_id: int | None) -> dict:
    return next((s for s in slides if s["id"] == slide_id), slides[0])


def _editor_ctx(d: dict, slide_id: int | None) -> dict:
    slides = [_view(s) for s in d["slides"]]
    cur = _current(slides, slide_id)
    return {"deck": d, "slides": slides, "cur": cur, "layouts": LAYOUT_NAMES,
            "can_edit": d["role"] in ("owner", "editor")}


def _workspace(deck_id: int, slide_id: int | None, message: str | None = None):
    """After a change: the re-rendered workspace (htmx), or the editor page (a plain form post)."""
    d = service.get(g.store, g.caller.user, deck_id)
    if not is_htmx():
        if message:
            flash_toast(message)
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    ctx = _editor_ctx(d, slide_id)
    html = render_template("slides/_workspace.html", **ctx)
    oob = [render_template("slides/_status.html", oob=True)]
    if message:
        oob.append(toast(message))
    return Markup(html) + Markup("".join(oob))


def _form_int(name: str) -> int | None:
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    return parse_int(raw, name)


# ---------------------------------------------------------------- list and new
@bp.get("/")
def index():
    q = request.args.get("q", "").strip()
    app = {"name": "slides", "title": "Slides", "logo": "slides", "icon": "presentation-chart-bar",
           "new_url": url_for("slides.new"), "new_label": "Blank presentation", "all_label": "All presentations",
           "noun": "presentations"}
    return render("app_list.html", "listing", items=service.decks(g.store, g.caller.user, q), app=app, **_ctx(q=q))


@bp.post("/new")
def new():
    parent = request.form.get("parent", "")
    deck_id = service.create(g.store, g.caller, as_id(parent))
    target = url_for("slides.editor", deck_id=deck_id)
    return go(target)


# ---------------------------------------------------------------- editor
@bp.get("/p/<int:deck_id>")
def editor(deck_id: int):
    d = service.get(g.store, g.caller.user, deck_id)
    ctx = _editor_ctx(d, id_arg("slide"))
    if is_htmx():                                   # selecting a slide: just the workspace
        return render_template("slides/_workspace.html", **ctx)
    service.record_open(g.store, g.caller, deck_id)
    return render("slides/editor.html", **ctx, **_ctx())


@bp.post("/p/<int:deck_id>/slides")
def add_slide(deck_id: int):
    layout = request.form.get("layout", service.DEFAULT_LAYOUT)
    sid = service.add_slide(g.store, g.caller, deck_id, _form_int("after"), layout)
    return _workspace(deck_id, sid, "Slide added.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/duplicate")
def duplicate(deck_id: int, slide_id: int):
    sid = service.duplicate_slide(g.store, g.caller, slide_id, deck_id)
    return _workspace(deck_id, sid, "Slide duplicated.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/delete")
def delete(deck_id: int, slide_id: int):
    sid = service.delete_slide(g.store, g.caller, slide_id, deck_id)
    return _workspace(deck_id, sid, "Slide deleted.")


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/move")
def move(deck_id: int, slide_id: int):
    position = _form_int("position")
    if position is None:
        raise Invalid("Choose where to move the slide.", "position")
    moved = service.move_slide(g.store, g.caller, slide_id, position, deck_id)
    return _workspace(deck_id, slide_id, f"Slide moved to position {position}." if moved else None)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/layout")
def layout(deck_id: int, slide_id: int):
    name = request.form.get("layout", "")
    changed = service.set_layout(g.store, g.caller, slide_id, name, deck_id)
    return _workspace(deck_id, slide_id, f"Layout: {LAYOUT_NAMES[name]}." if changed else None)


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/text")
def set_text(deck_id: int, slide_id: int):
    if "text" not in request.form:
        raise Invalid("Nothing to save.", "text")
    service.set_text(g.store, g.caller, slide_id, request.form.get("role", ""), request.form["text"], deck_id)
    s = _view(service.slide(g.store, g.caller.user, slide_id))
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    return (Markup(render_template("slides/_thumb.html", s=s, cur={"id": slide_id}))
            + Markup(render_template("slides/_status.html", oob=True)))


@bp.post("/p/<int:deck_id>/s/<int:slide_id>/notes")
def set_notes(deck_id: int, slide_id: int):
    if "text" not in request.form:
        raise Invalid("Nothing to save.", "text")
    service.set_notes(g.store, g.caller, slide_id, request.form["text"], deck_id)
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id, slide=slide_id))
    return render_template("slides/_status.html")


@bp.post("/p/<int:deck_id>/rename")
def rename(deck_id: int):
    try:
        service.rename(g.store, g.caller, deck_id, request.form.get("title", ""))
    except Invalid as e:
        return toast_response(e.message, 422)
    d = service.deck(g.store, g.caller.user, deck_id)
    if not is_htmx():
        return redirect(url_for("slides.editor", deck_id=deck_id))
    return render("slides/_title.html", deck=d, oob=[toast("Renamed.")])


@bp.get("/p/<int:deck_id>/download")
def download(deck_id: int):
    fmt = request.args.get("format", "pptx")
    d = service.deck(g.store, g.caller.user, deck_id)
    if fmt == "pptx":
        data = service.pptx_bytes(g.store, g.caller.user, deck_id)
        mime = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
    elif fmt == "txt":
        data, mime = service.text_export(g.store, g.caller.user, deck_id).encode(), "text/plain; charset=utf-8"
    elif fmt == "md":
        data, mime = service.markdown(g.store, g.caller.user, deck_id).encode(), "text/markdown; charset=utf-8"
    else:
        raise Invalid("Download as .pptx, .txt or .md.", "format")
    return attachment(data, mime, f"{d['title']}.{fmt}")


@bp.post("/p/<int:deck_id>/trash")
def trash(deck_id: int):
    d = service.deck(g.store, g.caller.user, deck_id)
    drive.set_trashed(g.store, g.caller, [d["item"]["id"]], True)
    flash_toast(f"“{d['title']}” moved to trash.")
    target = url_for("slides.index")
    return go(target)


# ---------------------------------------------------------------- present mode
@bp.get("/p/<int:deck_id>/present")
def present(deck_id: int):
    d = service.get(g.store, g.caller.user, deck_id)
    slides = [_view(s) for s in d["slides"]]
    n = request.args.get("slide", default=1, type=int)
    n = min(max(1, n), len(slides))
    return render("slides/present.html", deck=d, slides=slides, n=n, **_ctx())
