"""Mail GUI: the conversation lists, a conversation, labels and search, thin over the
service layer (``service``, ``compose``). What the pages share is in ``views``; the
compose window is ``routes_compose``, attachments ``routes_files``."""
from __future__ import annotations

from flask import abort, current_app, g, redirect, render_template, request, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from apps.core import addresses, locale
from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.web.render import flash_toast, go, int_arg, is_htmx, render, toast, toast_response
from apps.web.render import id_list
from apps.mail import service
from apps.mail.blueprint import bp
from apps.mail.search import SearchError
from apps.mail.service import FOLDER_TITLES, Action, Folder
from apps.mail.chips import chips as search_chips
from apps.mail.compose import list_drafts
from apps.mail.views import context, current_view, view_url


# ---------------------------------------------------------------- helpers
def _ids(name: str = "t") -> list[int]:
    return id_list(name, "a conversation")


def _undo_serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="mail-undo")


ACTION_TOASTS = {
    Action.ARCHIVE: "archived", Action.INBOX: "moved to Inbox", Action.TRASH: "moved to Trash",
    Action.RESTORE: "moved out of Trash", Action.DELETE_FOREVER: "deleted forever",
    Action.READ: "marked as read", Action.UNREAD: "marked as unread", Action.STAR: "starred",
    Action.UNSTAR: "unstarred", Action.ADD_LABEL: "labelled", Action.REMOVE_LABEL: "label removed",
    Action.MOVE_TO_LABEL: "moved", Action.SPAM: "marked as spam", Action.NOT_SPAM: "unmarked as spam",
    Action.SNOOZE: "snoozed", Action.UNSNOOZE: "unsnoozed",
}
UNDOABLE = {Action.ARCHIVE, Action.INBOX, Action.TRASH, Action.RESTORE, Action.MOVE_TO_LABEL,
            Action.ADD_LABEL, Action.REMOVE_LABEL, Action.READ, Action.UNREAD, Action.SPAM, Action.NOT_SPAM,
            Action.SNOOZE, Action.UNSNOOZE}


def _toast_for(action: Action, n: int, snapshot: list[dict], view: str, label: dict | None) -> tuple[str, dict | None]:
    noun = "Conversation" if n == 1 else f"{n} conversations"
    text = f"{noun} {ACTION_TOASTS[action]}"
    if action is Action.SNOOZE and snapshot:
        box = g.store.get("mail_boxes", int(snapshot[0]["id"]))
        if box and box["snoozed_until"]:
            at = g.store.local(box["snoozed_until"])
            text += f" until {locale.weekday_day(at, full=False, abbr=True)}, {locale.clock(at)}"
    if label and action in (Action.ADD_LABEL, Action.MOVE_TO_LABEL):
        text += f" {'to' if action is Action.MOVE_TO_LABEL else 'as'} “{label['name']}”"
    elif label and action is Action.REMOVE_LABEL:
        text = f"“{label['name']}” removed from {noun.lower()}"
    undo = None
    if action in UNDOABLE:
        token = _undo_serializer().dumps({"u": g.caller.user, "s": snapshot})
        undo = {"url": url_for("mail.undo"), "fields": {"token": token, "v": view}, "target": "#threads"}
    return text + ".", undo


# ---------------------------------------------------------------- lists
@bp.get("/")
def index():
    return redirect(url_for("mail.folder", folder="inbox"))


def _list_page(page_obj, *, view: str, title: str, **extra):
    return render("mail/list.html", "threads", page=page_obj, view=view, view_title=title,
                  **_listcontext(view, page_obj), **context(**extra))


def _listcontext(view: str, page_obj) -> dict:
    return {"list_url": view_url(view, page_obj.page), "page_url": lambda n: view_url(view, n)}


@bp.get("/<folder>")
def folder(folder: str):
    try:
        f = Folder(folder)
    except ValueError:
        abort(404)
    if f is Folder.DRAFTS:
        return render("mail/drafts.html", "threads", drafts=list_drafts(g.store, g.caller.user),
                      view="drafts", view_title="Drafts", **context(current="drafts"))
    page = service.list_folder(g.store, g.caller.user, f, page=int_arg("page", 1))
    return _list_page(page, view=f.value, title=FOLDER_TITLES[f], current=f.value)


@bp.get("/label/<int:label_id>")
def label_view(label_id: int):
    lab = service.label(g.store, g.caller.user, label_id)
    page = service.list_folder(g.store, g.caller.user, label=label_id, page=int_arg("page", 1))
    return _list_page(page, view=f"label:{label_id}", title=lab["name"], current=f"label:{label_id}",
                      current_label=lab)


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    if not q:
        return redirect(url_for("mail.folder", folder="inbox"))
    try:
        page = service.search(g.store, g.caller.user, q, page=int_arg("page", 1))
        error = None
    except SearchError as e:
        page, error = service.Page([], 0, 1, 1, 0, 0), str(e)
    return _list_page(page, view=f"search:{q}", title="Search results", q=q, current=None,
                      search_error=error, chips=search_chips(g.store, g.caller.user, q))


@bp.post("/act")
def act():
    """Bulk actions from the list toolbar (and the thread view)."""
    view = current_view()
    action = request.form.get("action", "")
    label_id = int_arg("label")
    until = request.form.get("until")
    if "op" in request.form:          # menu items carry "action:label" (or "snooze:time") in one value
        action, _, arg = request.form["op"].partition(":")
        if action == Action.SNOOZE:
            until = arg
        elif as_id(arg) is not None:
            label_id = as_id(arg)
    ids = _ids()
    try:
        snapshot = service.apply(g.store, g.caller, ids, action, label_id, until=until)
    except Invalid as e:
        if is_htmx():
            return toast_response(e.message, 422)
        flash_toast(e.message)
        return redirect(view_url(view))
    lab = service.label(g.store, g.caller.user, label_id) if label_id else None
    text, undo_ = _toast_for(Action(action), len(ids), snapshot, view, lab)
    if request.form.get("from_thread"):
        # Labels, stars, read marks: Gmail stays on the conversation. What takes it out of the
        # list (archive, delete, move, spam, snooze) goes back to the list.
        flash_toast(text, undo=undo_)
        stays = Action(action) in service.STAYS and len(ids) == 1
        target = url_for("mail.thread", thread_id=ids[0], v=view) if stays else view_url(view)
        if is_htmx():
            return "", 204, {"HX-Redirect": target}
        return redirect(target)
    return _rerender(view, toast(text, undo=undo_))


def _rerender(view: str, note: str | None = None):
    page_no = int_arg("page", 1)
    store, user = g.store, g.caller.user
    if view.startswith("label:"):
        lid = int(view[6:])
        page = service.list_folder(store, user, label=lid, page=page_no)
        title = service.label(store, user, lid)["name"]
    elif view.startswith("search:"):
        try:
            page = service.search(store, user, view[7:], page=page_no)
        except SearchError:
            page = service.Page([], 0, 1, 1, 0, 0)
        title = "Search results"
    else:
        f = Folder(view) if view in {x.value for x in Folder} else Folder.INBOX
        page = service.list_folder(store, user, f, page=page_no)
        title = FOLDER_TITLES[f]
    if not is_htmx():
        return redirect(view_url(view, page_no))
    ctx = context(q=view[7:] if view.startswith("search:") else "")
    if view.startswith("search:"):
        ctx["chips"] = search_chips(store, user, view[7:])
    nav = render_nav(ctx, view)
    return render("mail/list.html", "threads", page=page, view=view, view_title=title,
                  oob=[note, nav] if note else [nav], **_listcontext(view, page), **ctx)


def render_nav(ctx: dict, view: str) -> str:
    return render_template("mail/_nav.html", oob=True, current=view, **ctx)


@bp.post("/undo")
def undo():
    try:
        data = _undo_serializer().loads(request.form.get("token", ""))
    except BadSignature:
        raise Invalid("That action can no longer be undone.", "token") from None
    if data.get("u") != g.caller.user:
        raise NotFound("That action can no longer be undone.")
    service.restore_state(g.store, g.caller, data["s"])
    return _rerender(current_view(), toast("Action undone."))


@bp.post("/threads/<int:thread_id>/do/<action>")
def act_one(thread_id: int, action: str):
    """A row's hover buttons: one conversation, one action."""
    view = current_view()
    snapshot = service.apply(g.store, g.caller, [thread_id], action)
    text, undo_ = _toast_for(Action(action), 1, snapshot, view, None)
    return _rerender(view, toast(text, undo=undo_))


@bp.post("/threads/<int:thread_id>/star")
def star_thread(thread_id: int):
    t = service.summary(g.store, g.caller.user, thread_id)
    service.apply(g.store, g.caller, [thread_id], Action.UNSTAR if t["starred"] else Action.STAR)
    if not is_htmx():
        return redirect(request.referrer or view_url(current_view()))
    return render("mail/_row.html", t=service.summary(g.store, g.caller.user, thread_id), view=current_view())


# ---------------------------------------------------------------- a conversation
@bp.get("/thread/<int:thread_id>")
def thread(thread_id: int):
    view = current_view()
    t = service.open_thread(g.store, g.caller, thread_id)
    folder_ = view if view in {f.value for f in Folder} else "inbox"
    label_id = int(view[6:]) if view.startswith("label:") else None
    newer, older = (service.neighbours(g.store, g.caller.user, thread_id, folder_, label_id)
                    if not view.startswith("search:") else (None, None))
    return render("mail/thread.html", "thread_body", t=t, view=view, newer=newer, older=older,
                  back=view_url(view), **context(current=view, q=view[7:] if view.startswith("search:") else ""))


@bp.post("/messages/<int:message_id>/star")
def star_message(message_id: int):
    m = service.message_for(g.store, g.caller.user, message_id)
    service.star_message(g.store, g.caller, message_id, not m["box"]["starred"])
    return redirect(url_for("mail.thread", thread_id=m["thread"], v=current_view()))


@bp.post("/messages/<int:message_id>/unread")
def unread_message(message_id: int):
    """Mark unread from here, and go back to the list."""
    m = service.message_for(g.store, g.caller.user, message_id)
    for other in service.thread(g.store, g.caller.user, m["thread"])["messages"]:
        if other["sent_at"] >= m["sent_at"]:
            service.set_message_read(g.store, g.caller, other["id"], False)
    flash_toast("Marked as unread.")
    return redirect(view_url(current_view()))


# ---------------------------------------------------------------- labels
@bp.get("/labels/new")
def label_new():
    return render("mail/_label_dialog.html", label=None, errors={}, name="")


@bp.post("/labels")
def label_create():
    name = request.form.get("name", "")
    ids = _ids()                # Gmail's "New label" from the Label-as menu also applies it to the selection
    try:
        with g.store.transaction():     # a selection that isn't the user's creates no label either
            lid = service.create_label(g.store, g.caller, name)
            if ids:
                service.apply(g.store, g.caller, ids, Action.ADD_LABEL, lid)
    except Invalid as e:
        return render("mail/_label_dialog.html", status=422, label=None, errors=e.errors, name=name)
    flash_toast(f"Label “{name.strip()}” created.")
    return go(url_for("mail.label_view", label_id=lid) if not ids else view_url(current_view()))


@bp.get("/labels/<int:label_id>/edit")
def label_edit(label_id: int):
    lab = service.label(g.store, g.caller.user, label_id)
    return render("mail/_label_dialog.html", label=lab, errors={}, name=lab["name"])


@bp.post("/labels/<int:label_id>")
def label_rename(label_id: int):
    lab = service.label(g.store, g.caller.user, label_id)
    name = request.form.get("name", "")
    try:
        service.rename_label(g.store, g.caller, label_id, name)
    except Invalid as e:
        return render("mail/_label_dialog.html", status=422, label=lab, errors=e.errors, name=name)
    flash_toast(f"Label renamed to “{name.strip()}”.")
    return go(url_for("mail.label_view", label_id=label_id))


@bp.get("/labels/<int:label_id>/delete")
def label_delete_confirm(label_id: int):
    lab = service.label(g.store, g.caller.user, label_id)
    return render("_confirm.html", title="Remove label",
                  text=f"Remove the label “{lab['name']}”? Conversations with this label stay where they are.",
                  action=url_for("mail.label_delete", label_id=label_id), confirm="Remove", danger=True)


@bp.post("/labels/<int:label_id>/delete")
def label_delete(label_id: int):
    lab = service.label(g.store, g.caller.user, label_id)
    service.delete_label(g.store, g.caller, label_id)
    flash_toast(f"Label “{lab['name']}” removed.")
    return go(url_for("mail.folder", folder="inbox"))



@bp.get("/trash/empty")
def empty_trash_confirm():
    return render("_confirm.html", title="Empty Trash",
                  text="All conversations in Trash will be deleted forever. This can't be undone.",
                  action=url_for("mail.empty_trash"), confirm="Empty Trash", danger=True)


@bp.post("/trash/empty")
def empty_trash():
    ids = [t["id"] for t in service.list_folder(g.store, g.caller.user, Folder.TRASH, page=1).threads]
    total = 0
    while ids:
        service.apply(g.store, g.caller, ids, Action.DELETE_FOREVER)
        total += len(ids)
        ids = [t["id"] for t in service.list_folder(g.store, g.caller.user, Folder.TRASH, page=1).threads]
    flash_toast(f"{total} conversation{'s' if total != 1 else ''} deleted forever." if total
                else "Trash is already empty.")
    return go(url_for("mail.folder", folder="trash"))


@bp.post("/threads/delete-forever")
def delete_forever():
    """From the Trash toolbar, after the in-page confirmation."""
    ids = _ids()
    service.apply(g.store, g.caller, ids, Action.DELETE_FOREVER)
    flash_toast(f"{len(ids)} conversation{'s' if len(ids) != 1 else ''} deleted forever.")
    return go(view_url(current_view()))


@bp.post("/threads/delete-forever/confirm")
def delete_forever_confirm():
    ids = _ids()
    if not ids:
        raise Invalid("Select at least one conversation.", "t")
    n = len(ids)
    return render("_confirm.html", title="Delete forever",
                  text=f"Delete {n} conversation{'s' if n != 1 else ''} forever? This can't be undone.",
                  action=url_for("mail.delete_forever"), confirm="Delete forever", danger=True,
                  fields=[("t", i) for i in ids] + [("v", current_view())])


@bp.post("/thread/<int:thread_id>/labels/<int:label_id>/remove")
def remove_label(thread_id: int, label_id: int):
    service.apply(g.store, g.caller, [thread_id], Action.REMOVE_LABEL, label_id)
    return go(url_for("mail.thread", thread_id=thread_id, v=current_view()))


@bp.get("/search/options")
def search_help():
    return render("mail/_search_help.html", labels=service.labels(g.store, g.caller.user))


@bp.get("/search/advanced")
def advanced_search():
    """Build a query from the Search options form, as Gmail does."""
    a = request.args
    parts = []

    def q(v: str) -> str:
        v = v.strip()
        return f'"{v}"' if " " in v else v
    for op in ("from", "to", "subject"):
        if a.get(op, "").strip():
            parts.append(f"{op}:{q(a[op])}")
    if a.get("words", "").strip():
        parts.append(a["words"].strip())
    for w in a.get("without", "").split():
        parts.append(f"-{w}")
    for op in ("after", "before"):
        if a.get(op, "").strip():
            parts.append(f"{op}:{a[op].strip()}")
    where = a.get("in", "")
    if where.startswith("label:"):
        lab = service.label(g.store, g.caller.user, int(where[6:]))
        parts.append(f"label:{q(lab['name'])}")
    elif where:
        parts.append(f"in:{where}")
    if a.get("has_attachment"):
        parts.append("has:attachment")
    if not parts:
        return redirect(url_for("mail.folder", folder="inbox"))
    return redirect(url_for("mail.search", q=" ".join(parts)))


@bp.get("/snooze/pick")
def snooze_pick():
    """Snooze → Pick date & time: an in-page dialog (the conversations are in ``t``)."""
    ids = _ids()
    if not ids:
        raise Invalid("Select at least one conversation.", "t")
    default = next(when for name, when, _ in service.snooze_choices(g.store) if name == "Tomorrow")
    return render("mail/_snooze_dialog.html", ids=ids, view=current_view(), default=default,
                  from_thread=request.args.get("from_thread", ""))


@bp.get("/shortcuts")
def shortcuts():
    return render("mail/_shortcuts.html")


# ---------------------------------------------------------------- template filters
@bp.app_template_filter("mail_name")
def _mail_name(addr: str) -> str:
    if g.get("user") is not None and addr == g.user["email"]:
        return "me"
    return addresses.name_for(g.store, addr)


@bp.app_template_filter("mail_full")
def _mail_full(addr: str) -> str:
    name = addresses.name_for(g.store, addr)
    return f"{name} <{addr}>" if name != addr else addr


@bp.app_template_filter("mail_snippet")
def _mail_snippet(body: str) -> str:
    return service.snippet(body)


@bp.app_template_filter("split_quote")
def _split_quote(body: str) -> tuple[str, str]:
    return service.split_quote(body)


@bp.app_template_filter("valid_address")
def _valid_address(addr: str) -> bool:
    return bool(addresses.ADDR.match(addr))

