"""CRM GUI, records: the record page (``/crm/o/<obj>/<id>``) with its Details tab and inline edit,
the new / edit / clone / delete forms, an opportunity's stage and a lead's conversion, and the
activity timeline (calls, tasks, events, notes). Thin routes over ``apps.crm.service``.
"""
from __future__ import annotations

from flask import g, request, url_for

from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.crm import service as S
from apps.crm.blueprint import bp
from apps.crm.views import board_response, close_stage_dialog, fragment, go, obj_or_404, template_ctx
from apps.web.render import id_arg, is_htmx, render, toast


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
        return fragment("crm/_form.html", status=status, **ctx)
    return render("crm/form_page.html", status=status, **template_ctx(tab=obj, **ctx))


@bp.get("/o/<obj>/new")
def new(obj: str):
    obj = obj_or_404(obj)
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
    obj = obj_or_404(obj)
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
    obj = obj_or_404(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    if obj == "leads" and r["converted"]:
        raise Invalid("This lead has been converted and can't be edited.")
    values = {f["name"]: r.get(f["name"]) if r.get(f["name"]) is not None else "" for f in S.FIELDS[obj]}
    values["_title"] = r["name"]
    return _form(obj, values, mode="edit", rid=rid)


@bp.get("/o/<obj>/<int:rid>/clone")
def clone(obj: str, rid: int):
    obj = obj_or_404(obj)
    values = {k: ("" if v is None else v) for k, v in S.clone_values(g.store, g.caller.user, obj, rid).items()}
    return _form(obj, values, mode="clone")


@bp.post("/o/<obj>/<int:rid>")
def update(obj: str, rid: int):
    obj = obj_or_404(obj)
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
    obj = obj_or_404(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    text = f"Are you sure you want to delete this {S.SINGULAR[obj]}?"
    if obj == "accounts":
        nc = g.store.scalar("SELECT count(*) FROM crm_contacts WHERE account=?", (rid,))
        no = g.store.scalar("SELECT count(*) FROM crm_opportunities WHERE account=?", (rid,))
        text = (f"Deleting “{r['name']}” also deletes its {nc} contact{'s' if nc != 1 else ''} and {no} "
                f"opportunit{'ies' if no != 1 else 'y'}, with their activities.")
    return fragment("_confirm.html", action=url_for("crm.delete", obj=obj, rid=rid), title=f"Delete {S.LABEL[obj]}",
                    text=text, confirm="Delete", danger=True)


@bp.post("/o/<obj>/<int:rid>/delete")
def delete(obj: str, rid: int):
    obj = obj_or_404(obj)
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
    obj = obj_or_404(obj)
    ctx = _record_ctx(obj, rid)
    return render("crm/record.html", "record",
                  **template_ctx(tab=obj, **ctx, edit=False, errors={}, v={}, message=None))


@bp.get("/o/<obj>/<int:rid>/details")
def details(obj: str, rid: int):
    obj = obj_or_404(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    edit = request.args.get("edit") == "1"
    if edit and obj == "leads" and r["converted"]:
        raise Invalid("This lead has been converted and can't be edited.")
    v = {f["name"]: r.get(f["name"]) if r.get(f["name"]) is not None else "" for f in S.FIELDS[obj]}
    return fragment("crm/_details.html", obj=obj, r=r, sections=_sections(obj), edit=edit, errors={}, v=v,
                    labels=_display(obj, v), message=None, focus=request.args.get("focus", ""))


@bp.post("/o/<obj>/<int:rid>/details")
def save_details(obj: str, rid: int):
    """Inline edit: save the Details tab; 422 keeps it in edit mode with the errors."""
    obj = obj_or_404(obj)
    r = S.get(g.store, g.caller.user, obj, rid)
    values = _form_values(obj)
    try:
        changed = S.update(g.store, g.caller, obj, rid, **values)
    except Invalid as e:
        return fragment("crm/_details.html", status=422, obj=obj, r=r, sections=_sections(obj), edit=True,
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
        return close_stage_dialog(r, "Closed Lost", back)
    try:
        S.set_stage(g.store, g.caller, rid, stage, reason)
    except Invalid as e:
        if request.form.get("dialog") == "1":
            return close_stage_dialog(r, stage, back, errors=e.errors or {"stage": e.message}, message=e.message,
                                      status=422, reason=reason or "")
        raise
    msg = f"Stage changed to {stage}." if stage not in S.CLOSED_STAGES else \
        ("Congratulations — you won “" + r["name"] + "”!" if stage == "Closed Won" else f"“{r['name']}” was closed as lost.")
    if back == "pipeline":
        return board_response(msg)
    if back == "/crm/o/opportunities" or back.startswith("/crm/o/opportunities?"):
        return go(back, msg)                     # the list's Kanban display, back with the card moved
    return go(r["url"], msg)


@bp.get("/o/opportunities/<int:rid>/close")
def close_dialog(rid: int):
    r = S.get(g.store, g.caller.user, "opportunities", rid)
    stage = request.args.get("stage", "Closed Won")
    if stage not in S.CLOSED_STAGES:
        stage = "Closed Won"
    return close_stage_dialog(r, stage, request.args.get("back", ""))


@bp.get("/o/leads/<int:rid>/convert")
def convert_dialog(rid: int):
    r = S.get(g.store, g.caller.user, "leads", rid)
    if r["converted"]:
        raise Invalid("This lead has already been converted.")
    v = {"account_mode": "new", "account_name": r["company"], "account": "", "contact_mode": "new", "contact": "",
         "opportunity_name": f"{r['company']} – New Business", "create_opportunity": "1",
         "close_date": S.quarter_range(S.today(g.store))[1].isoformat(), "stage": "Qualification", "amount": "",
         "owner": r["owner"]}
    return fragment("crm/_convert.html", r=r, v=v, errors={}, message=None, labels={"owner": r["owner_name"]},
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
        return fragment("crm/_convert.html", status=422, r=r, v=v, errors=e.errors or {e.field: e.message},
                        message=e.message, labels=labels,
                        matches=S.account_matches(g.store, g.caller.user, r["company"]))
    recs = {k: S.get(g.store, g.caller.user, PL, out[k]) for k, PL in
            (("account", "accounts"), ("contact", "contacts"), ("opportunity", "opportunities")) if out[k]}
    return fragment("crm/_converted.html", r=S.get(g.store, g.caller.user, "leads", rid), recs=recs)


# ---------------------------------------------------------------- activities and notes
def _timeline_response(obj: str, rid: int, message: str, status: int = 200):
    return fragment("crm/_activity.html", status=status, oob=[toast(message)], obj=obj,
                       r=S.get(g.store, g.caller.user, obj, rid), timeline=S.timeline(g.store, g.caller.user, obj, rid),
                       composer=request.form.get("kind", "call"), errors={}, v={})


@bp.post("/o/<obj>/<int:rid>/activities")
def log_activity(obj: str, rid: int):
    obj = obj_or_404(obj)
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
        return fragment("crm/_activity.html", status=422, obj=obj, r=S.get(g.store, g.caller.user, obj, rid),
                           timeline=S.timeline(g.store, g.caller.user, obj, rid), composer=kind,
                           errors=e.errors or {e.field: e.message}, v=dict(f))
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
