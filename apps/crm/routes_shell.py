"""The CRM's own chrome: the global search's type-ahead (CRM records only, all objects or one), the
global "+" actions (New Event, New Task, Log a Call: a dialog with a Related To lookup; New Contact…
reuse the record dialogs) and the Setup pages (users, the object manager's fields)."""
from __future__ import annotations

from flask import g, request, url_for

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.crm import service as S
from apps.crm.blueprint import bp
from apps.crm.views import fragment, go, template_ctx
from apps.web.render import render

ACTIONS = {"meeting": "New Event", "task": "New Task", "call": "Log a Call"}


@bp.get("/suggest")
def suggest():
    scope = request.args.get("scope", "all") or "all"
    q = request.args.get("q", "").strip()
    items = S.suggest(g.store, g.caller.user, q, scope) if q else []
    return fragment("crm/_suggest.html", items=items, q=q, scope=scope)


def _action_kind(kind: str) -> str:
    if kind not in ACTIONS:
        raise Invalid("Choose New Event, New Task or Log a Call.", "kind")
    return kind


@bp.get("/actions/<kind>")
def global_action(kind: str):
    kind = _action_kind(kind)
    return fragment("crm/_global_action.html", kind=kind, title=ACTIONS[kind], v={}, errors={})


@bp.post("/actions/<kind>")
def global_action_save(kind: str):
    kind = _action_kind(kind)
    f = request.form
    errors = {}
    rel = f.get("related", "")
    rtype, _, raw = rel.partition(":")
    rid = as_id(raw)
    if not rel or rtype not in S.RELATED_TYPES or rid is None:
        errors["related"] = "Choose the record this is related to." if not f.get("related__text") else \
            "Choose a record from the list."
    else:
        try:
            aid = S.log_activity(g.store, g.caller, rtype, rid, kind, f.get("subject", ""), f.get("body", ""),
                                 at=f.get("at") or None, due=f.get("due") or None,
                                 who=f.get("who") or f.get("who__text") or None)
        except Invalid as e:
            errors = e.errors or {e.field or "related": e.message}
        else:
            a = g.store.get("crm_activities", aid)
            return go(S.url(S.PLURAL[a["related_type"]], a["related_id"]),
                      {"call": "Call logged.", "task": "Task created.", "meeting": "Event created."}[kind])
    if not f.get("subject", "").strip():
        errors.setdefault("subject", S.REQUIRED)
    return fragment("crm/_global_action.html", status=422, kind=kind, title=ACTIONS[kind], v=dict(f), errors=errors)


@bp.get("/setup")
def setup():
    tab = request.args.get("tab", "home")
    if tab not in ("home", "objects"):
        raise Invalid("Choose Setup Home or the Object Manager.", "tab")
    return render("crm/setup.html", **template_ctx(tab="", setup_tab=tab, users=S.users(g.store),
                                                   setup_url=url_for("crm.setup")))
