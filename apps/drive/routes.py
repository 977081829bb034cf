"""Drive GUI: thin routes over ``apps.drive.service``."""
from __future__ import annotations

from flask import Response, abort, g, redirect, request, url_for

from apps.core import addresses, local_files
from apps.core import people as directory
from apps.core import preview
from apps.core.errors import Invalid
from apps.core.files import blob_bytes
from apps.core.ids import as_id
from apps.web import arrange
from apps.web.render import flash_toast, id_list, is_htmx, render, toast, toast_response
from apps.drive import filters, service, sharing
from apps.drive.blueprint import bp
from apps.drive.service import FOLDER, Role
from apps.web.render import attachment

CHANGED = {"HX-Trigger": "drive-changed"}


def _ids() -> list[int]:
    return id_list("ids", "a file or folder")


def _parent() -> int | None:
    v = request.values.get("parent", "")
    if v in ("", "root", "my-drive"):
        return None
    if as_id(v) is None:
        raise Invalid("That folder doesn't exist.", "parent")
    return as_id(v)


# The sort settings Drive offers and remembers (an arrangement variant picks one: apps.web.arrange).
SORT_SETTINGS = [("name", False), ("name", True), ("modified", True), ("modified", False), ("size", True)]


def _sort() -> tuple[str, bool]:
    """The list's sort: the one asked for, else the person's remembered setting (by name, A to Z)."""
    if "sort" not in request.args:
        return arrange.choose("drive.sort", SORT_SETTINGS, ("name", False))
    sort = request.args.get("sort", "name")
    if sort not in service.SORTS:
        sort = "name"
    return sort, request.args.get("dir", "asc") == "desc"


def _ctx(**extra) -> dict:
    store, user = g.store, g.caller.user
    used = service.storage_used(store, user)
    return {"app_name": "drive", "sidebar_label": "Drive",
            "storage": {"used": used, "pct": min(100, used * 100 // (15 * 1024 ** 3) + 1)},
            "search": {"action": url_for("drive.search"), "placeholder": "Search in Drive",
                       "q": extra.pop("q", ""), "clear": url_for("drive.my_drive")},
            **extra}


def _listing(items, *, where: str, title: str, folder: dict | None = None, crumbs=None, **extra):
    sort, desc = _sort()
    can_add = where == "my-drive" or (folder is not None and service.RANK[folder["role"]] >= service.RANK[Role.EDITOR])
    here = request.full_path.rstrip("?")
    return render("drive/list.html", "listing", items=items, where=where, title=title, folder=folder,
                  crumbs=crumbs or [], sort=sort, desc=desc, can_add=can_add, here=here,
                  parent_id=folder["id"] if folder else "", layout=sharing.layout(g.store, g.caller.user),
                  chips=filters.chips(g.store, g.caller.user, extra.get("q", "")),
                  **_ctx(**extra))


# ---------------------------------------------------------------- views
@bp.get("/")
def index():
    return redirect(url_for("drive.my_drive"))


@bp.get("/my-drive")
def my_drive():
    sort, desc = _sort()
    return _listing(service.children(g.store, g.caller.user, None, sort=sort, desc=desc),
                    where="my-drive", title="My Drive")


@bp.get("/folders/<int:folder_id>")
def folder(folder_id: int):
    sort, desc = _sort()
    item = service.get(g.store, g.caller.user, folder_id)
    if item["kind"] != FOLDER:
        return redirect(url_for("drive.file", item_id=folder_id))
    items = service.children(g.store, g.caller.user, folder_id, sort=sort, desc=desc)
    return _listing(items, where="folder", title=item["name"], folder=item,
                    crumbs=service.breadcrumbs(g.store, g.caller.user, item))


@bp.get("/shared")
def shared():
    sort, desc = _sort()
    return _listing(service.shared_with_me(g.store, g.caller.user, sort=sort if sort != "name" else "modified",
                                           desc=desc or sort == "name"), where="shared", title="Shared with me")


@bp.get("/recent")
def recent():
    return _listing(service.recent(g.store, g.caller.user), where="recent", title="Recent")


@bp.get("/starred")
def starred():
    return _listing(service.starred(g.store, g.caller.user), where="starred", title="Starred")


@bp.get("/trash")
def trash():
    return _listing(service.trash(g.store, g.caller.user), where="trash", title="Trash")


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    if not q:
        return redirect(url_for("drive.my_drive"))
    return _listing(service.search(g.store, g.caller.user, q), where="search", title="Search results", q=q)


@bp.get("/open/<int:item_id>")
def open_item(item_id: int):
    item = service.get(g.store, g.caller.user, item_id)
    if item["kind"] == FOLDER:
        return redirect(url_for("drive.folder", folder_id=item_id))
    if item["app_url"]:
        return redirect(item["app_url"])
    return redirect(url_for("drive.file", item_id=item_id))


# ---------------------------------------------------------------- files
def _file(item_id: int) -> tuple[dict, bytes]:
    item = service.get(g.store, g.caller.user, item_id)
    if item["kind"] != service.FILE:
        abort(404)
    return item, blob_bytes(g.store, item["blob"])


@bp.get("/file/<int:item_id>")
def file(item_id: int):
    app_item = service.get(g.store, g.caller.user, item_id)
    if app_item["app_url"]:
        return redirect(app_item["app_url"])
    item, data = _file(item_id)
    service.record_view(g.store, g.caller, item_id)
    parent = url_for("drive.folder", folder_id=item["parent"]) if item["parent"] else url_for("drive.my_drive")
    if item["parent"] and service.role_of(g.store, g.caller.user, service._row(g.store, item["parent"])) is None:
        parent = url_for("drive.shared")
    urls = {"download": url_for("drive.download", item_id=item_id), "raw": url_for("drive.raw", item_id=item_id),
            "page": lambda n: url_for("drive.pdf_page", item_id=item_id, page=n), "close": parent}
    return render("drive/file.html", "overlay", item=item, p=preview.context(item["name"], item["mime"], data),
                  urls=urls, **_ctx())


@bp.get("/file/<int:item_id>/download")
def download(item_id: int):
    item, data = _file(item_id)
    return attachment(data, item["mime"], item["name"])


@bp.get("/file/<int:item_id>/raw")
def raw(item_id: int):
    item, data = _file(item_id)
    if preview.kind(item["mime"]) != "image":
        abort(404)
    return attachment(data, item["mime"], item["name"], inline=True)


@bp.get("/file/<int:item_id>/page/<int:page>.png")
def pdf_page(item_id: int, page: int):
    item, data = _file(item_id)
    if item["mime"] != "application/pdf":
        abort(404)
    try:
        return Response(preview.pdf_page_png(data, page), mimetype="image/png")
    except Exception:
        abort(404)


# ---------------------------------------------------------------- dialogs and changes
def _done(message: str, undo: dict | None = None):
    """A change made from a dialog or menu: close the dialog, toast, refresh the list."""
    return render("_empty.html", oob=[toast(message, undo=undo)], headers=CHANGED)


@bp.get("/new-folder")
def new_folder():
    return render("drive/_name_dialog.html", title="New folder", action=url_for("drive.create_folder"),
                  name="Untitled folder", submit="Create", parent=request.args.get("parent", ""), errors={})


@bp.post("/folders")
def create_folder():
    name = request.form.get("name", "")
    parent = _parent()
    try:
        fid = service.create_folder(g.store, g.caller, parent, name)
    except Invalid as e:
        return render("drive/_name_dialog.html", status=422, title="New folder", action=url_for("drive.create_folder"),
                      name=name, submit="Create", parent=request.form.get("parent", ""), errors=e.errors)
    if not is_htmx():
        return redirect(url_for("drive.folder", folder_id=fid))
    return _done(f"Folder “{name.strip()}” created.")


@bp.get("/upload")
def upload_picker():
    dirs, files = local_files.folder(g.store, g.caller.user, "")
    action = url_for("drive.upload", parent=request.args.get("parent", ""))
    return render("_local_picker.html", dirs=dirs, files=files, path="", crumbs=[], action=action,
                  target="closest dialog", parent="", submit_label="Upload")


@bp.post("/upload")
def upload():
    parent = _parent()
    local_ids = [n for n in map(as_id, request.form.getlist("local")) if n is not None]
    uploads = [f for f in request.files.getlist("file") if f and f.filename]
    if not (local_ids or uploads):
        if is_htmx():
            return toast_response("Choose at least one file to upload.", 422)
        raise Invalid("Choose at least one file to upload.", "files")
    with g.store.transaction():
        ids = service.upload_local(g.store, g.caller, parent, local_ids) if local_ids else []
        for f in uploads:
            ids.append(service.add_file(g.store, g.caller, parent, f.filename, f.read(), f.mimetype or None))
    n = len(ids)
    if not is_htmx():
        return redirect(url_for("drive.folder", folder_id=parent) if parent else url_for("drive.my_drive"))
    return _done(f"{n} upload{'s' if n != 1 else ''} complete.")


@bp.get("/items/<int:item_id>/rename")
def rename_dialog(item_id: int):
    item = service.get(g.store, g.caller.user, item_id)
    return render("drive/_name_dialog.html", title="Rename", action=url_for("drive.rename", item_id=item_id),
                  name=item["name"], submit="OK", parent=None, errors={})


@bp.post("/items/<int:item_id>/rename")
def rename(item_id: int):
    name = request.form.get("name", "")
    try:
        service.rename(g.store, g.caller, item_id, name)
    except Invalid as e:
        return render("drive/_name_dialog.html", status=422, title="Rename", action=url_for("drive.rename", item_id=item_id),
                      name=name, submit="OK", parent=None, errors=e.errors)
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    return _done(f"Renamed to “{' '.join(name.split())}”.")


@bp.get("/move")
def move_dialog():
    ids = _ids()
    if not ids:
        raise Invalid("Select something to move.", "ids")
    items = [service.get(g.store, g.caller.user, i) for i in ids]
    browse = request.args.get("browse", "")
    store, user = g.store, g.caller.user
    if browse == "shared":
        folders, here, crumbs = [i for i in service.shared_with_me(store, user) if i["is_folder"]], None, []
    elif as_id(browse) is not None:
        here = service.get(store, user, as_id(browse))
        folders = service.folder_tree_level(store, user, here["id"])
        crumbs = service.breadcrumbs(store, user, here)
    else:
        browse, here, crumbs = "root", None, []
        folders = service.folder_tree_level(store, user, None)
    current_parent = items[0]["parent"]
    return render("drive/_move_dialog.html", items=items, ids=",".join(map(str, ids)), folders=folders,
                  here=here, browse=browse, crumbs=crumbs, current_parent=current_parent, error=None)


@bp.post("/move")
def move():
    ids = _ids()
    target_raw = request.form.get("target", "")
    target = None if target_raw in ("", "root") else as_id(target_raw)
    if target is None and target_raw not in ("", "root"):
        raise Invalid("Choose a folder.", "target")
    moved = service.move(g.store, g.caller, ids, target)
    where = "My Drive" if target is None else service.get(g.store, g.caller.user, target)["name"]
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    n = len(ids)
    return _done(f"{n} item{'s' if n != 1 else ''} moved to “{where}”." if moved else f"Already in “{where}”.")


@bp.get("/items/<int:item_id>/share")
def share_dialog(item_id: int):
    return _share(item_id)


def _share(item_id: int, *, errors: dict | None = None, status: int = 200, people=(), role="viewer", note=""):
    item = service.get(g.store, g.caller.user, item_id)
    access = service.access_list(g.store, g.caller.user, item_id)
    can_share = service.RANK[item["role"]] >= service.RANK[Role.EDITOR]
    ga = sharing.general_access(g.store, g.caller.user, item_id)
    return render("drive/_share_dialog.html", status=status, item=item, access=access, can_share=can_share,
                  errors=errors or {}, people=[(p, addresses.name_for(g.store, p)) for p in people], role=role,
                  note=note, ga=ga, ga_label=sharing.access_label(ga))


def _form_people() -> list[str]:
    return [p for v in request.form.getlist("people") for p in v.split(",") if p.strip()]


def _share_kept(item_id: int):
    """The dialog again after a change inside it (a person's role, general access): the people added,
    their role and the message not sent yet stay as they were."""
    return _share(item_id, people=_form_people(), role=request.form.get("role", "viewer"),
                  note=request.form.get("message", ""))


@bp.post("/items/<int:item_id>/share")
def share(item_id: int):
    people = _form_people()
    role = request.form.get("role", "viewer")
    note = request.form.get("message", "")
    notify = bool(request.form.get("notify"))
    try:
        added = service.share(g.store, g.caller, item_id, people, role, notify=notify, message=note)
    except Invalid as e:
        return _share(item_id, errors=e.errors, status=422, people=people, role=role, note=note)
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    n = len(added)
    return _done("Access updated." if not n else f"Shared with {n} {'person' if n == 1 else 'people'}.")


@bp.post("/items/<int:item_id>/access")
def set_access(item_id: int):
    person = request.values.get("person", "")
    role = request.form.get(f"role_{person}", request.form.get("role", ""))
    service.set_role(g.store, g.caller, item_id, person, role)
    return _share_kept(item_id)


@bp.post("/trash")
def trash_items():
    ids = _ids()
    n = service.set_trashed(g.store, g.caller, ids, True)
    undo = {"url": url_for("drive.restore"), "fields": {"ids": ",".join(map(str, ids))}, "target": "#toast-region",
            "swap": "none"}
    if not is_htmx():
        flash_toast(f"{n} item{'s' if n != 1 else ''} moved to trash.")
        return redirect(request.referrer or url_for("drive.my_drive"))
    return _done(f"{len(ids)} item{'s' if len(ids) != 1 else ''} moved to trash.", undo=undo)


@bp.post("/restore")
def restore():
    ids = _ids()
    service.set_trashed(g.store, g.caller, ids, False)
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.trash"))
    return _done(f"{len(ids)} item{'s' if len(ids) != 1 else ''} restored.")


@bp.get("/delete-forever")
def delete_forever_confirm():
    ids = _ids()
    if not ids:
        raise Invalid("Select something first.", "ids")
    n = len(ids)
    return render("_confirm.html", title="Delete forever?",
                  text=f"{n} item{'s' if n != 1 else ''} will be deleted forever and you won't be able to restore {'it' if n == 1 else 'them'}.",
                  action=url_for("drive.delete_forever"), confirm="Delete forever", danger=True,
                  fields=[("ids", ",".join(map(str, ids)))])


@bp.post("/delete-forever")
def delete_forever():
    n = service.delete_forever(g.store, g.caller, _ids())
    if not is_htmx():
        return redirect(url_for("drive.trash"))
    return _done(f"{n} item{'s' if n != 1 else ''} deleted forever.")


@bp.get("/empty-trash")
def empty_trash_confirm():
    return render("_confirm.html", title="Delete forever?",
                  text="All items in the trash will be deleted forever and you won't be able to restore them.",
                  action=url_for("drive.empty_trash"), confirm="Delete forever", danger=True)


@bp.post("/empty-trash")
def empty_trash():
    n = service.empty_trash(g.store, g.caller)
    if not is_htmx():
        return redirect(url_for("drive.trash"))
    return _done(f"{n} item{'s' if n != 1 else ''} deleted forever." if n else "Trash is already empty.")


@bp.post("/star")
def star():
    ids = _ids()
    on = request.form.get("on", "1") == "1"
    service.set_starred(g.store, g.caller, ids, on)
    if not is_htmx():
        return redirect(request.referrer or url_for("drive.my_drive"))
    return _done("Added to Starred." if on else "Removed from Starred.")
