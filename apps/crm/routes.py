"""CRM GUI (Salesforce Lightning-like): thin routes over ``apps.crm.service``.

Pages: home (``/crm/``), list views (``/crm/o/<obj>``), the pipeline board (``/crm/pipeline``),
reports (``/crm/reports``, in ``routes_reports.py``), the dashboard (``/crm/dashboard``) and search (``/crm/search``); record
pages (``/crm/o/<obj>/<id>``) with their dialogs and timeline are in ``routes_records.py``, what
both share in ``views.py``. Dialogs (new / edit / clone / delete / convert / close an opportunity /
save a list view / change owner) are fetched into ``#modal``; a form with bad input comes back as
the same dialog with inline errors (422) and nothing written.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import g, redirect, request, url_for

from apps.core.errors import Invalid
from apps.crm import service as S
from apps.crm.blueprint import bp
from apps.crm.routes_listedit import editable, list_back
from apps.crm.views import (PERIODS, board_args, board_response, close_stage_dialog, filter_arg, filters_from,
                            fragment, go, obj_or_404, template_ctx)
from apps.web.render import error_page, id_arg, render


@bp.before_request
def _internal_only():
    if "user" in g and not S.is_internal(g.store, g.caller.user):
        return error_page(404, "Not found", "There's no CRM for you here.")
    return None


# ---------------------------------------------------------------- home, dashboard
@bp.get("/")
def index():
    store, user = g.store, g.caller.user
    return render("crm/home.html", **template_ctx(tab="home", dash=S.dashboard(store, user),
                                                  tasks=S.my_tasks(store, user),
                                                  my_opps=S.list_records(store, user, "opportunities", view="mine",
                                                                         per_page=6)))


@bp.get("/dashboard")
def dashboard():
    return render("crm/dashboard.html", **template_ctx(tab="dashboard", dash=S.dashboard(g.store, g.caller.user)))


# ---------------------------------------------------------------- list views
def _list_url(obj: str, **params) -> str:
    args = [(k, v) for k, v in params.items() if k != "f" and v not in (None, "") and not (k == "page" and v == 1)]
    for f in params.get("f") or []:
        args.append(("f", filter_arg(f)))
    qs = urlencode(args)
    return url_for("crm.list_view", obj=obj) + (f"?{qs}" if qs else "")


@bp.get("/o/<obj>")
def list_view(obj: str):
    obj = obj_or_404(obj)
    store, user = g.store, g.caller.user
    view = request.args.get("view") or None
    q = request.args.get("q", "")
    sort = request.args.get("sort") or None
    page = request.args.get("page", 1, type=int) or 1
    kanban = obj == "opportunities" and request.args.get("display") == "kanban"
    per_page = 200 if kanban else 50
    error = None
    filters = filters_from(request.args)
    adding = bool(request.args.get("nf"))
    if adding:
        filters.append({"field": request.args.get("nf", ""), "op": request.args.get("nop", "equals"),
                        "value": request.args.get("nv", "")})
    try:
        data = S.list_records(store, user, obj, view=view, filters=filters, q=q, sort=sort, page=page,
                              per_page=per_page)
    except Invalid as e:
        error = e.message
        filters = filters[:-1] if adding else []
        data = S.list_records(store, user, obj, view=view, filters=filters, q=q, page=page, per_page=per_page)
    else:
        if adding:
            return redirect(_list_url(obj, view=data["view"]["id"], q=q, sort=data["sort"], f=data["filters"],
                                      filters="1"))
    state = {"view": data["view"]["id"], "q": q, "sort": data["sort"], "f": data["filters"]}

    def link(**over):
        st = {**state, **over}
        return _list_url(obj, **st)
    add = {"field": request.args.get("nf", ""), "op": request.args.get("nop", "equals"),
           "value": request.args.get("nv", "")}
    ctx = template_ctx(tab=obj, obj=obj, data=data, views=S.list_views(store, user, obj), state=state, link=link,
                       columns=S.COLUMNS[obj], error=error,
                       filter_opts=[(f["name"], f["label"]) for f in S.filter_fields(obj)], owners=S.users(store),
                       show_filters=request.args.get("filters") == "1" or bool(error), add=add,
                       self_url=request.full_path.rstrip("?"), edit_ok=lambda c: editable(obj, c) is not None,
                       kanban=S.stage_columns(data["rows"]) if kanban else None)
    return render("crm/list.html", "listbody", status=200, **ctx)


@bp.get("/o/<obj>/views/new")
def new_view(obj: str):
    obj = obj_or_404(obj)
    return fragment("crm/_save_view.html", obj=obj, name="", error=None, filters=request.args.getlist("f"),
                    sort=request.args.get("sort", ""), base_view=request.args.get("view", ""))


@bp.post("/o/<obj>/views")
def save_view(obj: str):
    obj = obj_or_404(obj)
    name = request.form.get("name", "")
    raw = request.form.getlist("f")
    sort = request.form.get("sort", "")
    try:
        base = S.get_view(g.store, g.caller.user, obj, request.form.get("base_view") or None)
        filters = list(base["filters"]) + filters_from(request.form)
        vid = S.save_view(g.store, g.caller, obj, name, filters, sort)
    except Invalid as e:
        return fragment("crm/_save_view.html", status=422, obj=obj, name=name, error=e.message, filters=raw, sort=sort,
                        base_view=request.form.get("base_view", ""))
    return go(url_for("crm.list_view", obj=obj, view=vid), f"List view “{' '.join(name.split())}” was saved.")


@bp.post("/views/<int:view_id>/delete")
def delete_view(view_id: int):
    v = g.store.get("crm_views", view_id)
    S.delete_view(g.store, g.caller, view_id)
    return go(url_for("crm.list_view", obj=v["object"]), "List view deleted.")


@bp.get("/o/<obj>/owner")
def owner_dialog(obj: str):
    obj = obj_or_404(obj)
    ids = request.args.getlist("ids") or request.args.getlist("t")
    if not ids:
        raise Invalid("Select at least one record.", "ids")
    return fragment("crm/_owner.html", obj=obj, ids=ids, error=None, back=request.args.get("back", ""))


@bp.post("/o/<obj>/owner")
def change_owner(obj: str):
    obj = obj_or_404(obj)
    ids = request.form.getlist("ids")
    back = request.form.get("back", "")
    try:
        n = S.change_owner(g.store, g.caller, obj, ids, request.form.get("owner") or request.form.get("owner__text"))
    except Invalid as e:
        return fragment("crm/_owner.html", status=422, obj=obj, ids=ids, error=e.message, back=back)
    target = back if back.startswith("/crm/") else url_for("crm.list_view", obj=obj)
    return go(target, f"Changed the owner of {n} record{'s' if n != 1 else ''}.")


# ---------------------------------------------------------------- pipeline
@bp.get("/pipeline")
def pipeline():
    scope, period = board_args()
    cols = S.pipeline(g.store, g.caller.user, scope, period)
    return render("crm/pipeline.html", "board", **template_ctx(tab="pipeline", cols=cols, scope=scope, period=period,
                                                               periods=PERIODS))


@bp.post("/pipeline/move")
def pipeline_move():
    """A card dropped on a stage column: of the pipeline board, or (with ``back``, the list's URL) of an
    opportunities list view displayed as Kanban, which comes back with the card in its new column.
    Closed Lost asks for the loss reason first."""
    rid = id_arg("opportunity")
    if rid is None:
        raise Invalid("Choose an opportunity to move.", "opportunity")
    stage = request.form.get("stage", "")
    back = list_back("opportunities") if request.values.get("back") else ""
    if not back:
        board_args()                       # a bad scope or period is refused before anything is written
    r = S.get(g.store, g.caller.user, "opportunities", rid)

    def done(message: str):
        return go(back, message) if back else board_response(message)
    if stage == r["stage"]:
        return done("No change.")
    if stage == "Closed Lost" and not request.form.get("loss_reason"):
        return close_stage_dialog(r, "Closed Lost", back or "pipeline")
    S.set_stage(g.store, g.caller, rid, stage, request.form.get("loss_reason") or None)
    return done(f"“{r['name']}” moved to {stage}.")


# ---------------------------------------------------------------- search, lookups
@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    scope = request.args.get("scope", "all") or "all"
    res = S.search_records(g.store, g.caller.user, q, limit=25, scope=scope)
    return render("crm/search.html", **template_ctx(tab="", q_global=q, q=q, res=res, search_scope=scope))


@bp.get("/lookup/<kind>")
def lookup(kind: str):
    q = request.args.get("q") or next((v for k, v in request.args.items() if k.endswith("__text")), "")
    items = S.lookup(g.store, g.caller.user, kind, q, account=request.args.get("account"))
    return fragment("crm/_lookup_items.html", items=items, kind=kind)
