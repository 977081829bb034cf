"""Drive GUI, the newer surfaces: the Share dialog's general access, Make a copy, the list/grid layout
and the details side panel (Details and Activity)."""
from __future__ import annotations

from flask import g, redirect, request, url_for

from apps.core import people as directory
from apps.web.render import is_htmx, render
from apps.drive import service, sharing
from apps.drive.blueprint import bp
from apps.drive.routes import CHANGED, _done, _share_kept


@bp.post("/items/<int:item_id>/general-access")
def general_access(item_id: int):
    access = request.form.get("access", "")
    role = request.form.get("link_role") or None
    sharing.set_general_access(g.store, g.caller, item_id, access, role)
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    return _share_kept(item_id)


@bp.post("/items/<int:item_id>/copy")
def make_copy(item_id: int):
    new = sharing.make_copy(g.store, g.caller, item_id)
    if not is_htmx():
        return redirect(url_for("drive.folder", folder_id=new["parent"]) if new["parent"] else url_for("drive.my_drive"))
    return _done(f"Created “{new['name']}”.")


@bp.post("/layout")
def set_layout():
    sharing.set_layout(g.store, g.caller, request.form.get("layout", ""))
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    return render("_empty.html", headers=CHANGED)


# What the details panel calls a kind of item (Drive's names), then a file's type; else its MIME type.
KIND_NAMES = {"folder": "Google Drive Folder", "doc": "Google Docs", "sheet": "Google Sheets", "deck": "Google Slides"}
MIME_NAMES = {"application/pdf": "PDF", "text/csv": "Comma-separated values", "text/markdown": "Markdown",
              "text/plain": "Text",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Microsoft Word",
              "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "Microsoft Excel",
              "application/vnd.openxmlformats-officedocument.presentationml.presentation": "Microsoft PowerPoint"}


def _type_name(item: dict) -> str:
    return KIND_NAMES.get(item["kind"]) or MIME_NAMES.get(item["mime"]) or \
        ("Image" if item["mime"].startswith("image/") else item["mime"])


@bp.get("/items/<int:item_id>/details")
def details(item_id: int):
    """The right-hand panel of an item: its Details tab or (``tab=activity``) its Activity."""
    tab = request.args.get("tab", "details")
    if tab not in ("details", "activity"):
        tab = "details"
    store, user = g.store, g.caller.user
    item = service.get(store, user, item_id)
    owner = directory.person(store, item["owner"])
    modifier = directory.person(store, item["modified_by"]) if item["modified_by"] else None
    ga = sharing.general_access(store, user, item_id)
    return render("drive/_details.html", item=item, owner=owner, modifier=modifier, tab=tab, ga=ga,
                  type_name=_type_name(item),
                  ga_label=sharing.access_label(ga),
                  access=service.access_list(store, user, item_id),
                  activity=sharing.activity(store, user, item_id) if tab == "activity" else [],
                  location=service.breadcrumbs(store, user, item)[:-1])


@bp.get("/details")
def details_empty():
    """The panel with nothing selected."""
    return render("drive/_details.html", item=None, tab="details")
