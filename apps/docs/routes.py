"""Docs GUI: the document list and the editor, thin over ``apps.docs.service``."""
from __future__ import annotations


from flask import g, redirect, render_template, request, url_for

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.web.render import attachment, flash_toast, go, is_htmx, render, toast, toast_response
from apps.docs import service
from apps.docs.blueprint import bp
from apps.docs import blocks as B
from apps.drive import service as drive


def _ctx(**extra) -> dict:
    return {"app_name": "docs", "search": {"action": url_for("docs.index"), "placeholder": "Search documents",
                                           "q": extra.pop("q", ""), "clear": url_for("docs.index")}, **extra}


@bp.get("/")
def index():
    q = request.args.get("q", "").strip()
    docs = service.documents(g.store, g.caller.user, q)
    app = {"name": "docs", "title": "Docs", "logo": "docs", "icon": "document-text", "new_url": url_for("docs.new"),
           "new_label": "Blank document", "all_label": "All documents", "noun": "documents"}
    return render("app_list.html", "listing", items=docs, app=app, **_ctx(q=q))


@bp.post("/new")
def new():
    parent = request.form.get("parent", "")
    doc_id = service.create(g.store, g.caller, as_id(parent))
    target = url_for("docs.editor", doc_id=doc_id)
    return go(target)


def _editor_ctx(doc: dict) -> dict:
    cs = service.comments(g.store, g.caller.user, doc["id"])
    return {"doc": doc, "html": B.to_html(doc["blocks"]), "comments": cs,
            "open_comments": [c for c in cs if not c["resolved"]],
            "can_edit": doc["role"] in ("owner", "editor"),
            "can_comment": doc["role"] in ("owner", "editor", "commenter")}


@bp.get("/d/<int:doc_id>")
def editor(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    service.record_open(g.store, g.caller, doc_id)
    return render("docs/editor.html", **_editor_ctx(doc), **_ctx())


@bp.post("/d/<int:doc_id>/save")
def save(doc_id: int):
    html = request.form.get("html")
    if html is None:
        raise Invalid("Nothing to save.", "html")
    service.save_html(g.store, g.caller, doc_id, html)
    doc = service.get(g.store, g.caller.user, doc_id)
    return render("docs/_status.html", doc=doc, text="Saved to Drive")


@bp.post("/d/<int:doc_id>/rename")
def rename(doc_id: int):
    title = request.form.get("title", "")
    try:
        service.rename(g.store, g.caller, doc_id, title)
    except Invalid as e:
        return toast_response(e.message, 422)
    doc = service.get(g.store, g.caller.user, doc_id)
    if not is_htmx():
        return redirect(url_for("docs.editor", doc_id=doc_id))
    return render("docs/_title.html", doc=doc, oob=[toast("Renamed.")])


@bp.post("/d/<int:doc_id>/replace")
def replace(doc_id: int):
    find = request.form.get("find", "")
    try:
        n = service.replace_text(g.store, g.caller, doc_id, find, request.form.get("replace", ""),
                                 every=request.form.get("all") == "1", match_case=request.form.get("match_case") == "1")
    except Invalid as e:
        return toast_response(e.message, 422)
    doc = service.get(g.store, g.caller.user, doc_id)
    ctx = _editor_ctx(doc)
    message = f"Replaced {n} occurrence{'s' if n != 1 else ''} of “{find}”." if n else f"“{find}” wasn't found."
    return render("docs/_status.html", doc=doc, text="Saved to Drive" if n else "All changes saved in Drive",
                  oob=[render_template("docs/_content.html", oob=True, **ctx), toast(message)])


@bp.post("/d/<int:doc_id>/comments")
def add_comment(doc_id: int):
    try:
        service.add_comment(g.store, g.caller, doc_id, request.form.get("text", ""), request.form.get("html", ""))
    except Invalid as e:
        return toast_response(e.message, 422)
    doc = service.get(g.store, g.caller.user, doc_id)
    ctx = _editor_ctx(doc)
    return render("docs/_comments.html", **ctx,
                  oob=[render_template("docs/_content.html", oob=True, **ctx), toast("Comment added.")])


@bp.get("/d/<int:doc_id>/comments")
def comments_panel(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    return render("docs/_comments.html", show_resolved=bool(request.args.get("resolved")), **_editor_ctx(doc))


def _after_comment_change(comment_id: int, message: str):
    c = g.store.get("docs_comments", comment_id)
    doc = service.get(g.store, g.caller.user, c["doc"])
    return render("docs/_comments.html", show_resolved=bool(request.values.get("resolved")), **_editor_ctx(doc),
                  oob=[toast(message)])


@bp.post("/comments/<int:comment_id>/reply")
def reply(comment_id: int):
    try:
        service.reply(g.store, g.caller, comment_id, request.form.get("text", ""))
    except Invalid as e:
        return toast_response(e.message, 422)
    return _after_comment_change(comment_id, "Reply added.")


@bp.post("/comments/<int:comment_id>/resolve")
def resolve(comment_id: int):
    service.resolve(g.store, g.caller, comment_id, True)
    return _after_comment_change(comment_id, "Comment resolved.")


@bp.post("/comments/<int:comment_id>/reopen")
def reopen(comment_id: int):
    service.resolve(g.store, g.caller, comment_id, False)
    return _after_comment_change(comment_id, "Comment reopened.")


@bp.get("/d/<int:doc_id>/download")
def download(doc_id: int):
    fmt = request.args.get("format", "docx")
    doc = service.get(g.store, g.caller.user, doc_id)
    if fmt == "md":
        data, mime, ext = service.markdown(g.store, g.caller.user, doc_id).encode(), "text/markdown", "md"
    elif fmt == "html":
        data, mime, ext = service.html_document(g.store, g.caller.user, doc_id).encode(), "text/html", "html"
    elif fmt == "docx":
        data = service.docx_bytes(g.store, g.caller.user, doc_id)
        mime, ext = "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"
    else:
        raise Invalid("Download as .docx, .md or .html.", "format")
    return attachment(data, mime, f"{doc['title']}.{ext}")


@bp.post("/d/<int:doc_id>/trash")
def trash(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    drive.set_trashed(g.store, g.caller, [doc["item"]["id"]], True)
    flash_toast(f"“{doc['title']}” moved to trash.")
    target = url_for("docs.index")
    return go(target)
