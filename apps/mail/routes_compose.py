"""Mail GUI: the compose window, inline replies, attachments pickers, sending."""
from __future__ import annotations

from flask import g, render_template, request, url_for

from apps.core import addresses, local_files
from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.web.render import flash_toast, go, is_htmx, render, toast, toast_response
from apps.drive import service as drive
from apps.mail import compose, service
from apps.mail.blueprint import bp
from apps.web.render import int_arg
from apps.mail.views import context, current_view, view_url

PANEL = "c"       # the floating compose window
REPLY = "r"       # the reply box under a conversation


def _fk() -> str:
    fk = request.values.get("fk", PANEL)
    return fk if fk in (PANEL, REPLY) else PANEL


def _draft_id_oob(fk: str, draft_id: int) -> list[str]:
    """The form's draft id, swapped in out of band (a save that made the draft tells the form its id)."""
    return [render_template("mail/_draft_id.html", fk=fk, draft_id=draft_id, oob=True)]


def _form_fields() -> dict:
    f = request.form
    return {"to": f.getlist("to"), "cc": f.getlist("cc"), "bcc": f.getlist("bcc"),
            "subject": f.get("subject"), "body": f.get("body")}


def _reply_of() -> tuple[int, str] | None:
    """A reply or forward not saved yet: (the message it answers, the mode)."""
    mid = int_arg("reply_of")
    return None if mid is None else (mid, request.form.get("mode", compose.REPLY))


def _save() -> int:
    """Create or update the draft behind the submitted form; return its id."""
    draft_id = int_arg("draft_id")
    fields = _form_fields()
    if draft_id is None and _reply_of():
        with g.store.transaction():
            draft_id = compose.start_reply(g.store, g.caller, *_reply_of())
            compose.update_draft(g.store, g.caller, draft_id, **fields)
        return draft_id
    if draft_id is None:
        return compose.create_draft(g.store, g.caller, **{k: v or "" for k, v in fields.items()})
    compose.update_draft(g.store, g.caller, draft_id, **fields)
    return draft_id


def _pristine() -> bool:
    """A new message's form as it opened: no recipient, subject or words beyond the signature.
    Gmail keeps no draft of it."""
    f = _form_fields()
    if int_arg("draft_id") is not None:
        return False
    body = (f["body"] or "").strip()
    if _reply_of():                  # a reply or forward as it opened (recipients, subject, body)
        r = compose.reply_fields(g.store, g.caller, *_reply_of())
        same = all(set(addresses.lenient(f[k])) == set(r.get(k, [])) for k in ("to", "cc", "bcc"))
        return same and (f["subject"] or "") == r["subject"] and body == r["body"].strip()
    if any(a.strip() for k in ("to", "cc", "bcc") for a in f[k]):
        return False
    return not (f["subject"] or "").strip() and body in ("", compose.initial_body(g.store, g.caller.user).strip())


def _blank(**fields) -> dict:
    """A new message not saved yet (saved as a draft once something is typed)."""
    return {"id": None, "to": [], "cc": [], "bcc": [], "subject": "", "files": [], "thread": None,
            "in_reply_to": None, "forward_of": None, "body": compose.initial_body(g.store, g.caller.user),
            **fields}


def _panel(draft: int | dict, fk: str, *, errors: dict | None = None, status: int = 200, confirm_empty=False):
    d = draft if isinstance(draft, dict) else compose.get_draft(g.store, g.caller.user, draft)
    return render("mail/_compose.html", status=status, d=d, fk=fk, errors=errors or {}, view=current_view(),
                  confirm_empty=confirm_empty, names=_names(d))


def _names(d: dict) -> dict:
    return {a: addresses.name_for(g.store, a) for k in ("to", "cc", "bcc") for a in d[k]}


@bp.get("/compose")
def compose_page():
    """Compose as a page of its own (links, no JavaScript, ``?draft=`` to resume)."""
    draft_id = int_arg("draft")
    if draft_id is not None:
        d = compose.get_draft(g.store, g.caller.user, draft_id)
    else:
        d = _blank(to=[a for a in request.args.getlist("to") if a], subject=request.args.get("subject", ""))
    return render("mail/compose_page.html", d=d, fk=PANEL, errors={}, view=current_view(), names=_names(d),
                  confirm_empty=False, **context(current=None))


@bp.post("/compose")
def compose_open():
    """The Compose button: a new message in the floating window (or an existing draft, ``draft``).
    A new message becomes a draft only once something is typed, as in Gmail."""
    draft_id = int_arg("draft")
    if draft_id is None:
        to = [a for a in request.values.getlist("to") if a.strip()]
        subject = request.values.get("subject", "")
        if not is_htmx():
            return go(url_for("mail.compose_page", to=to, subject=subject or None))
        return _panel(_blank(to=addresses.lenient(to), subject=subject), PANEL)
    compose.get_draft(g.store, g.caller.user, draft_id)
    if not is_htmx():
        return go(url_for("mail.compose_page", draft=draft_id))
    return _panel(draft_id, PANEL)


@bp.post("/messages/<int:message_id>/reply")
def reply(message_id: int):
    mode = request.values.get("mode", compose.REPLY)
    if not is_htmx():
        draft_id = compose.start_reply(g.store, g.caller, message_id, mode)
        return go(url_for("mail.compose_page", draft=draft_id, v=current_view()))
    # Saved as a draft only once something is typed (or a recipient or attachment changes).
    fields = compose.reply_fields(g.store, g.caller, message_id, mode)
    return _panel({"id": None, "bcc": [], "reply_of": message_id, "mode": mode, **fields}, REPLY)


@bp.post("/compose/save")
def compose_save():
    fk = _fk()
    if _pristine():
        return render("mail/_compose_status.html", fk=fk, draft_id=None, text="")
    new = int_arg("draft_id") is None
    draft_id = _save()
    # A draft made by this save: the form learns its id, so the next save updates it.
    oob = _draft_id_oob(fk, draft_id) if new else None
    return render("mail/_compose_status.html", fk=fk, draft_id=draft_id, text="Draft saved", oob=oob)


@bp.post("/compose/send")
def compose_send():
    fk = _fk()
    draft_id = _save()
    try:
        mid = compose.send_draft(g.store, g.caller, draft_id, allow_empty=bool(request.form.get("allow_empty")))
    except Invalid as e:
        if e.field == "confirm_empty":
            return _panel(draft_id, fk, confirm_empty=True)
        if not is_htmx():
            d = compose.get_draft(g.store, g.caller.user, draft_id)
            return render("mail/compose_page.html", status=422, d=d, fk=fk, errors=e.errors, view=current_view(),
                          names=_names(d), confirm_empty=False, **context(current=None))
        return _panel(draft_id, fk, errors=e.errors, status=422)
    m = service.message_for(g.store, g.caller.user, mid)
    link = ("View message", url_for("mail.thread", thread_id=m["thread"], v=current_view()))
    if fk == REPLY or not is_htmx():
        flash_toast("Message sent.", link=link if fk != REPLY else None)
        return go(url_for("mail.thread", thread_id=m["thread"], v=current_view()) if fk == REPLY
                   else view_url(current_view()))
    return render("mail/_compose_closed.html", oob=[toast("Message sent.", link=link)],
                  headers={"HX-Trigger": "mail-changed"})


@bp.post("/compose/discard")
def compose_discard():
    draft_id = int_arg("draft_id")
    if draft_id is not None:
        try:
            compose.discard_draft(g.store, g.caller, draft_id)
        except NotFound:
            pass
    if not is_htmx():
        flash_toast("Draft discarded.")
        return go(view_url(current_view()))
    return render("mail/_compose_closed.html", oob=[toast("Draft discarded.")],
                  headers={"HX-Trigger": "mail-changed"})


@bp.post("/compose/close")
def compose_close():
    """The window's ×: keep what was typed as a draft; an untouched message leaves nothing."""
    if _pristine():
        return render("mail/_compose_closed.html", headers={"HX-Trigger": "mail-changed"})
    draft_id = _save()
    d = compose.get_draft(g.store, g.caller.user, draft_id)
    empty = not (d["to"] or d["cc"] or d["bcc"] or d["subject"].strip() or d["files"]
                 or d["body"].strip() not in ("", compose.initial_body(g.store, g.caller.user).strip()))
    if empty and d["thread"] is None:
        compose.discard_draft(g.store, g.caller, draft_id)
        return render("mail/_compose_closed.html", headers={"HX-Trigger": "mail-changed"})
    return render("mail/_compose_closed.html", oob=[toast("Draft saved.")], headers={"HX-Trigger": "mail-changed"})


# ---------------------------------------------------------------- attachments while composing
@bp.post("/compose/pick/drive")
def pick_drive_start():
    draft_id = _save()
    return _drive_picker(draft_id, _fk(), None, "my-drive", oob=True)


@bp.get("/compose/pick/drive")
def pick_drive():
    draft_id = int_arg("draft_id")
    compose.get_draft(g.store, g.caller.user, draft_id)
    return _drive_picker(draft_id, _fk(), int_arg("folder"), request.args.get("tab", "my-drive"))


def _drive_picker(draft_id: int, fk: str, folder: int | None, tab: str, oob: bool = False):
    store, user = g.store, g.caller.user
    crumbs = []
    if folder is not None:
        item = drive.get(store, user, folder)
        crumbs = drive.breadcrumbs(store, user, item)
        items = drive.children(store, user, folder)
    elif tab == "shared":
        items = drive.shared_with_me(store, user)
    elif tab == "recent":
        items = drive.recent(store, user)
    elif tab == "starred":
        items = drive.starred(store, user)
    else:
        tab = "my-drive"
        items = drive.children(store, user, None)
    return render("mail/_drive_picker.html", items=items, crumbs=crumbs, folder=folder, tab=tab,
                  draft_id=draft_id, fk=fk, oob=_draft_id_oob(fk, draft_id) if oob else None)


@bp.post("/compose/pick/local")
def pick_local_start():
    """Save the draft, then open the computer's file picker aimed at this draft."""
    draft_id = _save()
    fk = _fk()
    dirs, files = local_files.folder(g.store, g.caller.user, "")
    action = url_for("mail.attach", draft_id=draft_id, fk=fk)
    return render("_local_picker.html", dirs=dirs, files=files, path="", crumbs=[], action=action,
                  target="closest dialog", parent="", submit_label="Attach",
                  oob=_draft_id_oob(fk, draft_id))


@bp.post("/compose/attach")
def attach():
    """Attach Drive files (``drive``) or files from the computer (``local``, or an upload)."""
    draft_id = int_arg("draft_id")
    fk = _fk()
    drive_ids = [n for n in map(as_id, request.form.getlist("drive")) if n is not None]
    local_ids = [n for n in map(as_id, request.form.getlist("local")) if n is not None]
    uploads = [f for f in request.files.getlist("file") if f and f.filename]
    if draft_id is None:
        raise Invalid("Open a draft first.", "draft_id")
    if not (drive_ids or local_ids or uploads):
        if is_htmx():
            return toast_response("Choose at least one file.", 422)
        raise Invalid("Choose at least one file.", "file")
    with g.store.transaction():
        for i in drive_ids:
            compose.attach_drive(g.store, g.caller, draft_id, i)
        for i in local_ids:
            compose.attach_local(g.store, g.caller, draft_id, i)
        for f in uploads:
            compose.attach_bytes(g.store, g.caller, draft_id, f.filename, f.read(), f.mimetype or None)
    d = compose.get_draft(g.store, g.caller.user, draft_id)
    if not is_htmx():
        return go(url_for("mail.compose_page", draft=draft_id))
    # The dialog goes away; the draft's file list updates.
    return render("mail/_compose_closed.html",
                  oob=[render_template("mail/_files.html", d=d, fk=fk, oob=True)])


@bp.post("/compose/attachments/<int:file_id>/remove")
def remove_attachment(file_id: int):
    draft_id = int_arg("draft_id")
    oob = None
    if draft_id is None and _reply_of():
        # A forward not saved yet shows the original's attachments (``file_id`` is one of them):
        # removing one is a change, so the draft is saved first, then its copy removed (or nothing).
        with g.store.transaction():
            draft_id = _save()
            compose.remove_carried_attachment(g.store, g.caller, draft_id, _reply_of()[0], file_id)
        oob = _draft_id_oob(_fk(), draft_id)
    else:
        compose.remove_attachment(g.store, g.caller, draft_id, file_id)
    d = compose.get_draft(g.store, g.caller.user, draft_id)
    return render("mail/_files.html", d=d, fk=_fk(), oob=oob)
