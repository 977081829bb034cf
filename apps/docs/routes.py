"""Docs GUI: the document list and the editor, thin over ``apps.docs.service``."""
from __future__ import annotations


import json

from flask import g, redirect, render_template, request, url_for

import apps.docs.blocks as B
from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.web.render import int_arg, render, toast, toast_response
from apps.docs import images, review, service, versions
from apps.docs import suggest as S
from apps.docs.styles import FONTS
from apps.docs.blueprint import bp
from apps.drive.editor_routes import add_file_routes, add_list_routes, page_context



add_list_routes(bp, service.DOCS, title="Docs", icon="document-text", param="doc_id", create=service.create)


def _editor_ctx(doc: dict) -> dict:
    cs = service.comments(g.store, g.caller.user, doc["id"])
    return {"doc": doc, "html": S.editor_html(g.store, doc["id"], doc["blocks"]), "comments": cs,
            "open_comments": [c for c in cs if not c["resolved"]],
            "suggestions": review.cards(review.suggestions(g.store, g.caller.user, doc["id"])),
            "can_edit": doc["role"] in ("owner", "editor"),
            "can_comment": doc["role"] in ("owner", "editor", "commenter")}


@bp.get("/d/<int:doc_id>")
def editor(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    service.DOCS.record_open(g.store, g.caller, doc_id)
    # New suggestions are named in the page until saved; the write log's length makes the names unique.
    tag_base = g.store.scalar("SELECT max(seq) FROM _writes") or 0
    return render("docs/editor.html", **_editor_ctx(doc), tag_base=tag_base, FONTS=FONTS,
                  **page_context(bp.name, service.DOCS))


@bp.post("/d/<int:doc_id>/save")
def save(doc_id: int):
    html = request.form.get("html")
    if html is None:
        raise Invalid("Nothing to save.", "html")
    _, made = service.save_editor(g.store, g.caller, doc_id, html)
    doc = service.get(g.store, g.caller.user, doc_id)
    ctx = _editor_ctx(doc)
    headers = {"HX-Trigger": json.dumps({"docs-suggestions": {"map": made}})} if made else None
    return render("docs/_status.html", doc=doc, text="Saved to Drive", headers=headers,
                  oob=[render_template("docs/_suggestions.html", oob=True, **ctx)])


# ---------------------------------------------------------------- suggestions: accept / reject
def _after_review(doc_id: int, message: str):
    doc = service.get(g.store, g.caller.user, doc_id)
    ctx = _editor_ctx(doc)
    return render("docs/_suggestions.html", **ctx,
                  oob=[render_template("docs/_content.html", oob=True, **ctx), toast(message)])


def _one(suggestion_id: int, accept: bool):
    """One suggestion, or a Replace card's two (``with``: the other one's id)."""
    s = g.store.get("docs_suggestions", suggestion_id)
    if s is None:
        raise NotFound("That suggestion doesn't exist.")
    ids = [suggestion_id]
    other = request.form.get("with", "")
    if other:
        oid = as_id(other)
        o = g.store.get("docs_suggestions", oid) if oid is not None else None
        if o is None or o["doc"] != s["doc"]:
            return toast_response("The suggestion to decide with it isn't in this document.", 422)
        ids.append(o["id"])
    try:
        review.decide(g.store, g.caller, s["doc"], ids, accept)
    except Invalid as e:
        return toast_response(e.message, 422)
    return _after_review(s["doc"], "Suggestion accepted." if accept else "Suggestion rejected.")


@bp.post("/suggestions/<int:suggestion_id>/accept")
def accept_suggestion(suggestion_id: int):
    return _one(suggestion_id, True)


@bp.post("/suggestions/<int:suggestion_id>/reject")
def reject_suggestion(suggestion_id: int):
    return _one(suggestion_id, False)


@bp.post("/d/<int:doc_id>/suggestions/<any(accept, reject):verb>-all")
def review_all(doc_id: int, verb: str):
    n = (review.accept_all if verb == "accept" else review.reject_all)(g.store, g.caller, doc_id)
    done = "accepted" if verb == "accept" else "rejected"
    return _after_review(doc_id, f"{n} suggestion{'s' if n != 1 else ''} {done}." if n else "No suggestions to review.")


@bp.post("/d/<int:doc_id>/replace")
def replace(doc_id: int):
    find = request.form.get("find", "")
    try:
        occurrence = int_arg("occurrence")             # a malformed one is an Invalid naming the field
        n = service.replace_text(g.store, g.caller, doc_id, find, request.form.get("replace", ""),
                                 every=request.form.get("all") == "1", match_case=request.form.get("match_case") == "1",
                                 occurrence=occurrence)
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


# ---------------------------------------------------------------- Insert → Image → Drive
@bp.get("/d/<int:doc_id>/images")
def image_picker(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    q = request.args.get("q", "")[:200]
    return render("docs/_images.html", partial=True, doc=doc, q=q, images=images.drive_images(g.store, g.caller.user, q))


# ---------------------------------------------------------------- File → Version history
@bp.post("/d/<int:doc_id>/versions")
def name_version(doc_id: int):
    try:
        versions.name_current(g.store, g.caller, doc_id, request.form.get("name", ""))
    except Invalid as e:
        return toast_response(e.message, 422)
    return toast_response("Version named.")


@bp.get("/d/<int:doc_id>/history")
def history(doc_id: int):
    doc = service.get(g.store, g.caller.user, doc_id)
    named = bool(request.args.get("named"))
    listed = versions.versions(g.store, g.caller.user, doc_id, named_only=named)
    want = request.args.get("v", type=int)
    chosen = next((v for v in listed if v["id"] == want), listed[0] if listed else None)
    if want is not None and (chosen is None or chosen["id"] != want):
        if versions.version(g.store, g.caller.user, want)["doc"] != doc_id:   # none: 404 from there
            raise NotFound("That version isn't one of this document's.")
        chosen = next(v for v in versions.versions(g.store, g.caller.user, doc_id) if v["id"] == want)
    html = B.sanitize(versions.version(g.store, g.caller.user, chosen["id"])["html"]) if chosen else \
        S.editor_html(g.store, doc_id, doc["blocks"])
    return render("docs/history.html", doc=doc, versions=listed, chosen=chosen, html=html, named=named,
                  can_edit=doc["role"] in ("owner", "editor"))


@bp.post("/versions/<int:version_id>/restore")
def restore_version(version_id: int):
    v = versions.version(g.store, g.caller.user, version_id)
    versions.restore(g.store, g.caller, version_id)
    return redirect(url_for("docs.editor", doc_id=v["doc"]))


# ---------------------------------------------------------------- File menu: rename, download, trash
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _docx(doc: dict) -> tuple[bytes, str, str]:
    return service.docx_bytes(g.store, g.caller.user, doc["id"]), DOCX_MIME, f"{doc['title']}.docx"


def _markdown(doc: dict) -> tuple[bytes, str, str]:
    return service.markdown(g.store, g.caller.user, doc["id"]).encode(), "text/markdown", f"{doc['title']}.md"


def _html(doc: dict) -> tuple[bytes, str, str]:
    return service.html_document(g.store, g.caller.user, doc["id"]).encode(), "text/html", f"{doc['title']}.html"


add_file_routes(bp, service.DOCS, prefix="/d", param="doc_id", record="doc",
                exports={"docx": _docx, "md": _markdown, "html": _html})
