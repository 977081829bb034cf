"""CRM GUI (Salesforce Lightning-like): thin routes over ``apps.crm.service``.

Pages: home (``/crm/``), list views (``/crm/o/<obj>``), record pages (``/crm/o/<obj>/<id>``),
the pipeline board (``/crm/pipeline``), reports (``/crm/reports``), the dashboard
(``/crm/dashboard``) and search (``/crm/search``). Dialogs (new / edit / clone / delete / convert /
close an opportunity / save a list view / change owner) are fetched into ``#modal``; a form with
bad input comes back as the same dialog with inline errors (422) and nothing written.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import abort, g, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.web.render import error_page, flash_toast, id_arg, is_htmx, render, toast
from apps.web.render import go as navigate
from apps.crm import service as S
from apps.crm.blueprint import bp

ICONS = {"accounts": "building-office-2", "contacts": "user", "leads": "star", "opportunities": "trophy"}
COLORS = {"accounts": "#5867e8", "contacts": "#a094ed", "leads": "#f88962", "opportunities": "#fcb95b"}


@bp.before_request
def _internal_only():
    if "user" in g and not S.is_internal(g.store, g.caller.user):
        return error_page(404, "Not found", "There's no CRM for you here.")
    return None


def _obj(obj: str) -> str:
    if obj not in S.OBJECTS:
        abort(404)
    return obj


def _ctx(**extra) -> dict:
    q = extra.pop("q_global", "")
    return {"app_name": "crm", "S": S, "ICONS": ICONS, "COLORS": COLORS, "money": S.money,
            "money_short": S.money_short, "tabs": TABS, "current_tab": extra.pop("tab", ""),
            "search": {"action": url_for("crm.search"), "placeholder": "Search CRM records…", "q": q,
                       "clear": url_for("crm.index")},
            "choices": choices, "pairs": lambda xs: [(x, x) for x in xs], "fmt_month": fmt_month,
            "fmt_date": fmt_date, "fmt_dt": fmt_dt, "fmt_value": fmt_value, **extra}


TABS = [("home", "Home", "crm.index", {}), ("accounts", "Accounts", "crm.list_view", {"obj": "accounts"}),
        ("contacts", "Contacts", "crm.list_view", {"obj": "contacts"}),
        ("leads", "Leads", "crm.list_view", {"obj": "leads"}),
        ("opportunities", "Opportunities", "crm.list_view", {"obj": "opportunities"}),
        ("pipeline", "Pipeline", "crm.pipeline", {}), ("reports", "Reports", "crm.reports", {}),
        ("dashboard", "Dashboards", "crm.dashboard", {})]


def choices(f: dict) -> list[tuple[str, str]]:
    """A picklist's options for ``select_menu`` ("--None--" first when it may be empty)."""
    opts = [] if f["required"] else [("", "--None--")]
    return opts + [(c, c) for c in f["choices"]]


def fmt_date(iso: str | None) -> str:
    """"6/30/2026" (Salesforce, en-US)."""
    if not iso:
        return ""
    y, m, d = iso[:10].split("-")
    return f"{int(m)}/{int(d)}/{y}"


def fmt_month(iso: str | None) -> str:
    """Timeline group heading: "June • 2026"."""
    if not iso:
        return ""
    dt = g.store.local(iso)
    return f"{dt.strftime('%B')} • {dt.year}"


def fmt_dt(iso: str | None) -> str:
    if not iso:
        return ""
    dt = g.store.local(iso)
    h = dt.hour % 12 or 12
    return f"{dt.month}/{dt.day}/{dt.year}, {h}:{dt.minute:02d} {'AM' if dt.hour < 12 else 'PM'}"


def fmt_value(obj: str, r: dict, name: str) -> str:
    f = S.field(obj, name) or {"type": "text"}
    v = r.get(name)
    t = f["type"]
    if name == "name":
        return r["name"]
    if t == "currency":
        return S.money(v) if v is not None else ""
    if t == "percent":
        return f"{v}%" if v is not None else ""
    if t == "date":
        return fmt_date(v)
    if t == "datetime":
        return fmt_dt(v)
    if t == "user":
        return r.get(name + "_name") or ""
    if t == "account":
        return r.get("account_name") or ""
    if t == "contact":
        return r.get("contact_name") or ""
    if t == "int":
        return f"{v:,}" if v is not None else ""
    return v or ""


def go(url: str, message: str | None = None):
    if message:
        flash_toast(message)
    return navigate(url)


def _frag(template: str, status: int = 200, headers: dict | None = None, **ctx):
    g.pop("_icons", None)
    resp = make_response(render_template(template, **_ctx(**ctx)), status)
    resp.vary.add("HX-Request")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


# ---------------------------------------------------------------- home, dashboard
@bp.get("/")
def index():
    store, user = g.store, g.caller.user
    return render("crm/home.html", **_ctx(tab="home", dash=S.dashboard(store, user), tasks=S.my_tasks(store, user),
                                          my_opps=S.list_records(store, user, "opportunities", view="mine",
                                                                 per_page=6)))


@bp.get("/dashboard")
def dashboard():
    return render("crm/dashboard.html", **_ctx(tab="dashboard", dash=S.dashboard(g.store, g.caller.user)))


# ---------------------------------------------------------------- list views
def _filters_from(args) -> list[dict]:
    out = []
    for raw in args.getlist("f"):
        parts = raw.split("|", 2)
        if len(parts) == 3:
            out.append({"field": parts[0], "op": parts[1], "value": parts[2]})
        else:
            raise Invalid("That filter isn't valid.", "filters")
    return out


def _list_url(obj: str, **params) -> str:
    args = [(k, v) for k, v in params.items() if k != "f" and v not in (None, "") and not (k == "page" and v == 1)]
    for f in params.get("f") or []:
        args.append(("f", f"{f['field']}|{f['op']}|{f['value']}"))
    qs = urlencode(args)
    return url_for("crm.list_view", obj=obj) + (f"?{qs}" if qs else "")


@bp.get("/o/<obj>")
def list_view(obj: str):
    obj = _obj(obj)
    store, user = g.store, g.caller.user
    view = request.args.get("view") or None
    q = request.args.get("q", "")
    sort = request.args.get("sort") or None
    page = request.args.get("page", 1, type=int) or 1
    error = None
    filters = _filters_from(request.args)
    adding = bool(request.args.get("nf"))
    if adding:
        filters.append({"field": request.args.get("nf", ""), "op": request.args.get("nop", "equals"),
                        "value": request.args.get("nv", "")})
    try:
        data = S.list_records(store, user, obj, view=view, filters=filters, q=q, sort=sort, page=page)
    except Invalid as e:
        error = e.message
        filters = filters[:-1] if adding else []
        data = S.list_records(store, user, obj, view=view, filters=filters, q=q, page=page)
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
    ctx = _ctx(tab=obj, obj=obj, data=data, views=S.list_views(store, user, obj), state=state, link=link,
               columns=S.COLUMNS[obj], error=error, filter_opts=[(f["name"], f["label"]) for f in S.filter_fields(obj)],
               owners=S.users(store), show_filters=request.args.get("filters") == "1" or bool(error), add=add,
               self_url=request.full_path.rstrip("?"))
    return render("crm/list.html", "listbody", status=200, **ctx)


@bp.get("/o/<obj>/views/new")
def new_view(obj: str):
    obj = _obj(obj)
    return _frag("crm/_save_view.html", obj=obj, name="", error=None, filters=request.args.getlist("f"),
                 sort=request.args.get("sort", ""), base_view=request.args.get("view", ""))


@bp.post("/o/<obj>/views")
def save_view(obj: str):
    obj = _obj(obj)
    name = request.form.get("name", "")
    raw = request.form.getlist("f")
    sort = request.form.get("sort", "")
    try:
        base = S.get_view(g.store, g.caller.user, obj, request.form.get("base_view") or None)
        filters = list(base["filters"]) + _filters_from(request.form)
        vid = S.save_view(g.store, g.caller, obj, name, filters, sort)
    except Invalid as e:
        return _frag("crm/_save_view.html", status=422, obj=obj, name=name, error=e.message, filters=raw, sort=sort,
                     base_view=request.form.get("base_view", ""))
    return go(url_for("crm.list_view", obj=obj, view=vid), f"List view “{' '.join(name.split())}” was saved.")


@bp.post("/views/<int:view_id>/delete")
def delete_view(view_id: int):
    v = g.store.get("crm_views", view_id)
    S.delete_view(g.store, g.caller, view_id)
    return go(url_for("crm.list_view", obj=v["object"]), "List view deleted.")


@bp.get("/o/<obj>/owner")
def owner_dialog(obj: str):
    obj = _obj(obj)
    ids = request.args.getlist("ids") or request.args.getlist("t")
    if not ids:
        raise Invalid("Select at least one record.", "ids")
    return _frag("crm/_owner.html", obj=obj, ids=ids, error=None, back=request.args.get("back", ""))


@bp.post("/o/<obj>/owner")
def change_owner(obj: str):
    obj = _obj(obj)
    ids = request.form.getlist("ids")
    back = request.form.get("back", "")
    try:
        n = S.change_owner(g.store, g.caller, obj, ids, request.form.get("owner") or request.form.get("owner__text"))
    except Invalid as e:
        return _frag("crm/_owner.html", status=422, obj=obj, ids=ids, error=e.message, back=back)
    target = back if back.startswith("/crm/") else url_for("crm.list_view", obj=obj)
    return go(target, f"Changed the owner of {n} record{'s' if n != 1 else ''}.")


# ---------------------------------------------------------------- forms: new / edit / clone
def _form_values(obj: str) -> dict:
    out = {}
    for f in S.FIELDS[obj]:
        if not f["edit"] or f["name"] not in request.form and f["name"] + "__text" not in request.form:
            continue
        v = request.form.get(f["name"], "")
        if f["type"] in ("account", "contact", "user") and not v.strip():
            v = request.form.get(f["name"] + "__text", "")
        out[f["name"]] = v
    return out


def _display(obj: str, values: dict) -> dict:
    """Labels for the lookup fields of a form (what the text box shows)."""
    store = g.store
    out = {}
    for f in S.FIELDS[obj]:
        v = values.get(f["name"])
        if f["type"] == "account" and v not in (None, ""):
            a = store.get("crm_accounts", as_id(v)) if as_id(v) is not None else None
            out[f["name"]] = a["name"] if a else str(v)
        elif f["type"] == "contact" and v not in (None, ""):
            c = store.get("crm_contacts", as_id(v)) if as_id(v) is not None else None
            out[f["name"]] = S.record_title("contacts", c) if c else str(v)
        elif f["type"] == "user" and v not in (None, ""):
            p = store.one("SELECT name FROM people WHERE slug=?", (v,))
            out[f["name"]] = p["name"] if p else str(v)
    return out


def _form(obj: str, values: dict, *, mode: str, rid: int | None = None, errors=None, message=None,
          status: int = 200):
    action = url_for("crm.update", obj=obj, rid=rid) if mode == "edit" else url_for("crm.create", obj=obj)
    title = {"new": f"New {S.LABEL[obj]}", "clone": f"Clone {S.LABEL[obj]}",
             "edit": f"Edit {values.get('_title', '')}"}[mode]
    ctx = dict(obj=obj, v=values, labels=_display(obj, values), mode=mode, rid=rid, errors=errors or {},
               message=message, action=action, title=title, fields=[f for f in S.FIELDS[obj] if f["edit"]])
    if is_htmx():
        return _frag("crm/_form.html", status=status, **ctx)
    return render("crm/form_page.html", status=status, **_ctx(tab=obj, **ctx))


@bp.get("/o/<obj>/new")
def new(obj: str):
    obj = _obj(obj)
    values = {f["name"]: request.args.get(f["name"], "") for f in S.FIELDS[obj]}
    values["owner"] = values.get("owner") or g.caller.user
    if obj == "opportunities":
        values["stage"] = values.get("stage") or "Prospecting"
        values["type"] = values.get("type") or "New Business"
    if obj == "leads":
        values["status"] = values.get("status") or "New"
    if obj == "accounts":
        values["type"] = values.get("type") or "Prospect"
    return _form(obj, values, mode="new")


@bp.post("/o/<obj>")
def create(obj: str):
    obj = _obj(obj)
    values = _form_values(obj)
    try:
        rid = S.create(g.store, g.caller, obj, **values)
    except Invalid as e:
        return _form(obj, {**values, **{k: request.form.get(k, "") for k in values}},
                     mode="clone" if request.form.get("mode") == "clone" else "new",
                     errors=e.errors or {"_": e.message}, message=e.message,
                     status=422)
    r = S.get(g.store, g.caller.user, obj, rid)
    return go(r["url"], f"{S.LABEL[obj]} “{r['name']}” was created.")


@bp.get("/o/<obj>/<int:rid>/edit")
def edit(obj: str, rid: int):
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    if obj == "leads" and r["converted"]:
        raise Invalid("This lead has been converted and can't be edited.")
    values = {f["name"]: r.get(f["name"]) if r.get(f["name"]) is not None else "" for f in S.FIELDS[obj]}
    values["_title"] = r["name"]
    return _form(obj, values, mode="edit", rid=rid)


@bp.get("/o/<obj>/<int:rid>/clone")
def clone(obj: str, rid: int):
    obj = _obj(obj)
    values = {k: ("" if v is None else v) for k, v in S.clone_values(g.store, g.caller.user, obj, rid).items()}
    return _form(obj, values, mode="clone")


@bp.post("/o/<obj>/<int:rid>")
def update(obj: str, rid: int):
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    values = _form_values(obj)
    try:
        S.update(g.store, g.caller, obj, rid, **values)
    except Invalid as e:
        return _form(obj, {**values, "_title": r["name"]}, mode="edit", rid=rid, errors=e.errors or {"_": e.message},
                     message=e.message, status=422)
    r = S.get(g.store, g.caller.user, obj, rid)
    return go(r["url"], f"{S.LABEL[obj]} “{r['name']}” was saved.")


@bp.get("/o/<obj>/<int:rid>/delete")
def delete_dialog(obj: str, rid: int):
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    text = f"Are you sure you want to delete this {S.SINGULAR[obj]}?"
    if obj == "accounts":
        nc = g.store.scalar("SELECT count(*) FROM crm_contacts WHERE account=?", (rid,))
        no = g.store.scalar("SELECT count(*) FROM crm_opportunities WHERE account=?", (rid,))
        text = (f"Deleting “{r['name']}” also deletes its {nc} contact{'s' if nc != 1 else ''} and {no} "
                f"opportunit{'ies' if no != 1 else 'y'}, with their activities.")
    return _frag("_confirm.html", action=url_for("crm.delete", obj=obj, rid=rid), title=f"Delete {S.LABEL[obj]}",
                 text=text, confirm="Delete", danger=True)


@bp.post("/o/<obj>/<int:rid>/delete")
def delete(obj: str, rid: int):
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    S.delete(g.store, g.caller, obj, rid)
    return go(url_for("crm.list_view", obj=obj), f"{S.LABEL[obj]} “{r['name']}” was deleted.")


# ---------------------------------------------------------------- record page
def _record_ctx(obj: str, rid: int) -> dict:
    store, user = g.store, g.caller.user
    r = S.get(store, user, obj, rid)
    ctx = {"obj": obj, "r": r, "timeline": S.timeline(store, user, obj, rid), "related": {}}
    if obj == "accounts":
        ctx["related"] = {"contacts": S.contacts_of(store, user, rid),
                          "opportunities": S.opportunities_of(store, user, rid)}
    elif obj == "contacts":
        ctx["related"] = {"opportunities": S.opportunities_of_contact(store, user, rid)}
    elif obj == "opportunities":
        ctx["history"] = S.stage_history(store, user, rid)
        ctx["contact"] = S.get(store, user, "contacts", r["contact"]) if r["contact"] else None
    elif obj == "leads" and r["converted"]:
        conv = {}
        for k, o in (("converted_account", "accounts"), ("converted_contact", "contacts"),
                     ("converted_opportunity", "opportunities")):
            if r.get(k):
                try:
                    conv[o] = S.get(store, user, o, r[k])
                except NotFound:
                    pass
        ctx["conv"] = conv
    ctx["highlights"] = S.HIGHLIGHTS[obj]
    ctx["sections"] = _sections(obj)
    return ctx


def _sections(obj: str) -> list[tuple[str, list[str]]]:
    names = [f["name"] for f in S.FIELDS[obj]]
    if obj == "opportunities":
        return [("Opportunity Information", ["name", "account", "type", "contact", "owner", "close_date", "next_step",
                                             "stage", "amount", "probability", "loss_reason"]),
                ("Description", ["description"])]
    if obj == "accounts":
        return [("Account Information", ["name", "owner", "type", "csm", "industry", "arr", "website", "employees",
                                         "phone"]),
                ("Address", ["city", "country"]), ("Description", ["description"])]
    if obj == "leads":
        return [("Lead Information", [n for n in names if n != "description"]), ("Description", ["description"])]
    return [("Contact Information", names)]


@bp.get("/o/<obj>/<int:rid>")
def record(obj: str, rid: int):
    obj = _obj(obj)
    ctx = _record_ctx(obj, rid)
    return render("crm/record.html", "record", **_ctx(tab=obj, **ctx, edit=False, errors={}, v={}, message=None))


@bp.get("/o/<obj>/<int:rid>/details")
def details(obj: str, rid: int):
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    edit = request.args.get("edit") == "1"
    if edit and obj == "leads" and r["converted"]:
        raise Invalid("This lead has been converted and can't be edited.")
    v = {f["name"]: r.get(f["name"]) if r.get(f["name"]) is not None else "" for f in S.FIELDS[obj]}
    return _frag("crm/_details.html", obj=obj, r=r, sections=_sections(obj), edit=edit, errors={}, v=v,
                 labels=_display(obj, v), message=None, focus=request.args.get("focus", ""))


@bp.post("/o/<obj>/<int:rid>/details")
def save_details(obj: str, rid: int):
    """Inline edit: save the Details tab; 422 keeps it in edit mode with the errors."""
    obj = _obj(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    values = _form_values(obj)
    try:
        changed = S.update(g.store, g.caller, obj, rid, **values)
    except Invalid as e:
        return _frag("crm/_details.html", status=422, obj=obj, r=r, sections=_sections(obj), edit=True,
                     errors=e.errors or {"_": e.message}, v=values, labels=_display(obj, values), message=e.message,
                     focus="")
    r = S.get(g.store, g.caller.user, obj, rid)
    return go(r["url"], f"{S.LABEL[obj]} “{r['name']}” was saved." if changed else "No changes to save.")


# ---------------------------------------------------------------- opportunity stage, lead conversion
@bp.post("/o/opportunities/<int:rid>/stage")
def set_stage(rid: int):
    stage = request.form.get("stage", "")
    reason = request.form.get("loss_reason") or None
    back = request.form.get("back", "")
    r = S.get(g.store, g.caller.user, "opportunities", rid)
    if stage == "Closed Lost" and not reason and is_htmx() and request.form.get("dialog") != "1":
        return _close_dialog(r, "Closed Lost", back)
    try:
        S.set_stage(g.store, g.caller, rid, stage, reason)
    except Invalid as e:
        if request.form.get("dialog") == "1":
            return _close_dialog(r, stage, back, errors=e.errors or {"stage": e.message}, message=e.message,
                                 status=422, reason=reason or "")
        raise
    msg = f"Stage changed to {stage}." if stage not in S.CLOSED_STAGES else \
        ("Congratulations — you won “" + r["name"] + "”!" if stage == "Closed Won" else f"“{r['name']}” was closed as lost.")
    if back == "pipeline":
        return _board_response(msg)
    return go(r["url"], msg)


def _close_dialog(r: dict, stage: str, back: str, errors=None, message=None, status=200, reason=""):
    return _frag("crm/_close.html", status=status, r=r, stage=stage, back=back, errors=errors or {},
                 message=message, reason=reason,
                 headers={"HX-Retarget": "#modal", "HX-Reswap": "innerHTML"} if status == 200 else None)


@bp.get("/o/opportunities/<int:rid>/close")
def close_dialog(rid: int):
    r = S.get(g.store, g.caller.user, "opportunities", rid)
    stage = request.args.get("stage", "Closed Won")
    if stage not in S.CLOSED_STAGES:
        stage = "Closed Won"
    return _close_dialog(r, stage, request.args.get("back", ""))


@bp.get("/o/leads/<int:rid>/convert")
def convert_dialog(rid: int):
    r = S.get(g.store, g.caller.user, "leads", rid)
    if r["converted"]:
        raise Invalid("This lead has already been converted.")
    v = {"account_mode": "new", "account_name": r["company"], "account": "", "contact_mode": "new", "contact": "",
         "opportunity_name": f"{r['company']} – New Business", "create_opportunity": "1",
         "close_date": S.quarter_range(S.today(g.store))[1].isoformat(), "stage": "Qualification", "amount": "",
         "owner": r["owner"]}
    return _frag("crm/_convert.html", r=r, v=v, errors={}, message=None, labels={"owner": r["owner_name"]},
                 matches=S.account_matches(g.store, g.caller.user, r["company"]))


@bp.post("/o/leads/<int:rid>/convert")
def convert(rid: int):
    r = S.get(g.store, g.caller.user, "leads", rid)
    f = request.form
    v = {k: f.get(k, "") for k in ("account_mode", "account_name", "account", "account__text", "contact_mode",
                                   "contact", "contact__text", "opportunity_name", "close_date", "stage", "amount",
                                   "owner", "owner__text")}
    v["create_opportunity"] = "" if f.get("no_opportunity") else "1"
    try:
        out = S.convert_lead(
            g.store, g.caller, rid,
            account=(v["account"] or v["account__text"] or "-") if v["account_mode"] == "existing" else None,
            account_name=v["account_name"] if v["account_mode"] != "existing" else None,
            contact=(v["contact"] or v["contact__text"] or None) if v["contact_mode"] == "existing" else None,
            create_opportunity=bool(v["create_opportunity"]), opportunity_name=v["opportunity_name"],
            close_date=v["close_date"], stage=v["stage"] or "Qualification", amount=v["amount"],
            owner=v["owner"] or v["owner__text"] or None)
    except Invalid as e:
        if r["converted"] or e.field is None:
            raise
        labels = {"owner": v["owner__text"], "account": v["account__text"], "contact": v["contact__text"]}
        return _frag("crm/_convert.html", status=422, r=r, v=v, errors=e.errors or {e.field: e.message},
                     message=e.message, labels=labels, matches=S.account_matches(g.store, g.caller.user, r["company"]))
    recs = {k: S.get(g.store, g.caller.user, PL, out[k]) for k, PL in
            (("account", "accounts"), ("contact", "contacts"), ("opportunity", "opportunities")) if out[k]}
    return _frag("crm/_converted.html", r=S.get(g.store, g.caller.user, "leads", rid), recs=recs)


# ---------------------------------------------------------------- activities and notes
def _timeline_response(obj: str, rid: int, message: str, status: int = 200):
    ctx = _ctx(obj=obj, r=S.get(g.store, g.caller.user, obj, rid), timeline=S.timeline(g.store, g.caller.user, obj, rid),
               composer=request.form.get("kind", "call"), errors={}, v={})
    g.pop("_icons", None)
    html = Markup(render_template("crm/_activity.html", **ctx)) + Markup(toast(message))
    return make_response(html, status)


@bp.post("/o/<obj>/<int:rid>/activities")
def log_activity(obj: str, rid: int):
    obj = _obj(obj)
    f = request.form
    kind = f.get("kind", "call")
    try:
        if kind == "note":
            S.add_note(g.store, g.caller, S.SINGULAR[obj], rid, f.get("subject", ""), f.get("body", ""))
        else:
            S.log_activity(g.store, g.caller, S.SINGULAR[obj], rid, kind, f.get("subject", ""), f.get("body", ""),
                           at=f.get("at") or None, due=f.get("due") or None, status=f.get("status") or None,
                           who=f.get("who") or f.get("who__text") or None)
    except Invalid as e:
        if e.field is None:
            raise
        ctx = _ctx(obj=obj, r=S.get(g.store, g.caller.user, obj, rid),
                   timeline=S.timeline(g.store, g.caller.user, obj, rid), composer=kind,
                   errors=e.errors or {e.field: e.message}, v=dict(f))
        g.pop("_icons", None)
        return make_response(render_template("crm/_activity.html", **ctx), 422)
    msg = {"call": "Call logged.", "task": "Task created.", "meeting": "Event created.", "note": "Note added."}
    return _timeline_response(obj, rid, msg.get(kind, "Saved."))


@bp.post("/activities/<int:aid>/status")
def task_status(aid: int):
    a = g.store.get("crm_activities", aid)
    if a is None:
        raise NotFound("That activity doesn't exist or was deleted.")
    status = request.form.get("status", "Completed")
    S.set_task_status(g.store, g.caller, aid, status)
    obj, rid = request.form.get("obj", ""), id_arg("rid")
    msg = "Task completed." if status == "Completed" else "Task reopened."
    if obj in S.OBJECTS and rid:
        return _timeline_response(obj, rid, msg)
    return go(url_for("crm.index"), msg)


@bp.post("/activities/<int:aid>/delete")
def delete_activity(aid: int):
    S.delete_activity(g.store, g.caller, aid)
    obj, rid = request.form.get("obj", ""), id_arg("rid")
    if obj in S.OBJECTS and rid:
        return _timeline_response(obj, rid, "Activity deleted.")
    return go(url_for("crm.index"), "Activity deleted.")


@bp.post("/notes/<int:nid>/delete")
def delete_note(nid: int):
    S.delete_note(g.store, g.caller, nid)
    obj, rid = request.form.get("obj", ""), id_arg("rid")
    if obj in S.OBJECTS and rid:
        return _timeline_response(obj, rid, "Note deleted.")
    return go(url_for("crm.index"), "Note deleted.")


# ---------------------------------------------------------------- pipeline
PERIODS = [("THIS_QUARTER", "This Quarter"), ("NEXT_QUARTER", "Next Quarter"), ("THIS_YEAR", "This Year"),
           ("all", "All Time")]


def _board_args(src=None) -> tuple[str, str]:
    src = src or request.values
    scope = src.get("scope", "all")
    period = src.get("period", "THIS_QUARTER")
    if scope not in ("all", "mine") or period not in dict(PERIODS):
        raise Invalid("Choose My or All opportunities and a close-date range.", "scope")
    return scope, period


@bp.get("/pipeline")
def pipeline():
    scope, period = _board_args()
    cols = S.pipeline(g.store, g.caller.user, scope, period)
    return render("crm/pipeline.html", "board", **_ctx(tab="pipeline", cols=cols, scope=scope, period=period,
                                                       periods=PERIODS))


def _board_response(message: str, status: int = 200):
    scope, period = _board_args()
    cols = S.pipeline(g.store, g.caller.user, scope, period)
    from jinja2_fragments.flask import render_block
    g.pop("_icons", None)
    html = Markup(render_block("crm/pipeline.html", "board", **_ctx(tab="pipeline", cols=cols, scope=scope,
                                                                    period=period, periods=PERIODS)))
    html += Markup('<div id="modal" hx-swap-oob="true"></div>') + Markup(toast(message))
    resp = make_response(html, status)
    resp.headers["HX-Retarget"] = "#crm-board"
    resp.headers["HX-Reswap"] = "outerHTML"
    return resp


@bp.post("/pipeline/move")
def pipeline_move():
    """A card dropped on a stage column. Closed Lost asks for the loss reason first."""
    rid = id_arg("opportunity")
    stage = request.form.get("stage", "")
    r = S.get(g.store, g.caller.user, "opportunities", rid)
    if stage == r["stage"]:
        return _board_response("No change.")
    if stage == "Closed Lost" and not request.form.get("loss_reason"):
        return _close_dialog(r, "Closed Lost", "pipeline")
    S.set_stage(g.store, g.caller, rid, stage, request.form.get("loss_reason") or None)
    return _board_response(f"“{r['name']}” moved to {stage}.")


# ---------------------------------------------------------------- reports, search, lookups
@bp.get("/reports")
def reports():
    group = request.args.get("group", "stage")
    period = request.args.get("period", "THIS_QUARTER")
    scope = request.args.get("scope", "all")
    if group not in ("stage", "owner") or period not in dict(PERIODS) or scope not in ("all", "mine"):
        raise Invalid("Choose a grouping, a close-date range and whose opportunities.", "group")
    rep = S.report(g.store, g.caller.user, group, period, scope)
    top = max([x["amount"] for x in rep["groups"]] or [0])
    return render("crm/reports.html", **_ctx(tab="reports", rep=rep, group=group, period=period, scope=scope,
                                             periods=PERIODS, top=top))


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    res = S.search_records(g.store, g.caller.user, q, limit=25)
    return render("crm/search.html", **_ctx(tab="", q_global=q, q=q, res=res))


@bp.get("/lookup/<kind>")
def lookup(kind: str):
    q = request.args.get("q") or next((v for k, v in request.args.items() if k.endswith("__text")), "")
    items = S.lookup(g.store, g.caller.user, kind, q, account=request.args.get("account"))
    return _frag("crm/_lookup_items.html", items=items, kind=kind)
