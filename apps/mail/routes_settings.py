"""Mail GUI: Settings (the signature) and the Drafts list's bulk Discard drafts."""
from __future__ import annotations

from flask import g, request, url_for

from apps.core.errors import Invalid
from apps.web.render import flash_toast, go, id_list, render
from apps.mail import compose
from apps.mail.blueprint import bp
from apps.mail.views import context


@bp.get("/settings")
def settings():
    s = compose.settings(g.store, g.caller.user)
    return render("mail/settings.html", signature=s["signature"], errors={}, view="settings",
                  view_title="Settings", **context(current=None))


@bp.post("/settings")
def settings_save():
    text = request.form.get("signature")
    try:
        compose.set_signature(g.store, g.caller, text)
    except Invalid as e:
        return render("mail/settings.html", status=422, signature=text or "", errors=e.errors, view="settings",
                      view_title="Settings", **context(current=None))
    flash_toast("Settings saved.")
    return go(url_for("mail.settings"))


@bp.post("/drafts/discard")
def drafts_discard():
    """Discard drafts: every selected draft (``t`` holds draft ids, as the shared selection names them)."""
    ids = id_list("t", "a draft")
    if not ids:
        raise Invalid("Select at least one draft.", "t")
    with g.store.transaction():          # one that isn't the user's discards none
        for i in ids:
            compose.discard_draft(g.store, g.caller, i)
    flash_toast(f"{len(ids)} drafts discarded." if len(ids) > 1 else "Draft discarded.")
    return go(url_for("mail.folder", folder="drafts"))
