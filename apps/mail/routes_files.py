"""Mail GUI: attachments — download, preview rendered by the server, save to Drive."""
from __future__ import annotations

from flask import Response, abort, g, url_for

from apps.core import preview
from apps.core.files import blob_bytes
from apps.web.render import attachment, go, render, toast_response
from apps.drive import service as drive
from apps.mail import service
from apps.mail.blueprint import bp
from apps.mail.views import context


class _DriveLink(Exception):
    """The attachment is a link to a Doc/Sheet/Slides in Drive: it opens there."""

    def __init__(self, item_id: int):
        self.item_id = item_id


@bp.errorhandler(_DriveLink)
def _open_in_drive(e: _DriveLink):
    target = url_for("drive.open_item", item_id=e.item_id)
    return go(target)


def _file(attachment_id: int) -> tuple[dict, bytes]:
    a = service.attachment(g.store, g.caller.user, attachment_id)
    if a["blob"] is None:
        raise _DriveLink(a["drive_item"])
    return a, blob_bytes(g.store, a["blob"])


@bp.get("/attachments/<int:attachment_id>")
def download(attachment_id: int):
    a, data = _file(attachment_id)
    return attachment(data, a["mime"], a["name"])


@bp.get("/attachments/<int:attachment_id>/raw")
def raw(attachment_id: int):
    a, data = _file(attachment_id)
    if preview.kind(a["mime"]) != "image":
        abort(404)
    return attachment(data, a["mime"], a["name"], inline=True)


@bp.get("/attachments/<int:attachment_id>/page/<int:page>.png")
def pdf_page(attachment_id: int, page: int):
    a, data = _file(attachment_id)
    if a["mime"] != "application/pdf":
        abort(404)
    try:
        png = preview.pdf_page_png(data, page)
    except (IndexError, Exception):
        abort(404)
    return Response(png, mimetype="image/png")


@bp.get("/attachments/<int:attachment_id>/view")
def view(attachment_id: int):
    a, data = _file(attachment_id)
    m = service.message_for(g.store, g.caller.user, a["message"])
    ctx = preview.context(a["name"], a["mime"], data)
    urls = {
        "download": url_for("mail.download", attachment_id=attachment_id),
        "raw": url_for("mail.raw", attachment_id=attachment_id),
        "page": lambda n: url_for("mail.pdf_page", attachment_id=attachment_id, page=n),
        "close": url_for("mail.thread", thread_id=m["thread"]),
        "save": url_for("mail.save_to_drive", attachment_id=attachment_id),
    }
    return render("mail/attachment.html", "overlay", p=ctx, urls=urls, a=a, m=m,
                  **context(current=None))


@bp.post("/attachments/<int:attachment_id>/save")
def save_to_drive(attachment_id: int):
    a = service.attachment(g.store, g.caller.user, attachment_id)
    if a["blob"] is None:
        return toast_response(f"“{a['name']}” is already in Drive.")
    drive.add_blob(g.store, g.caller, None, a["name"], a["blob"])
    return toast_response(f"“{a['name']}” saved to My Drive.")
