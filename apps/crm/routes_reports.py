"""CRM reports: the Reports tab (the report list), the canned pipeline report, and the report builder
(report type, columns, filters, one grouping, a sort) whose definitions are saved in ``crm_reports``,
run and exported as CSV.

The builder is one GET form: each change (add or remove a column, a filter, the grouping, the sort)
reloads it with the new definition in the query string and a preview run from the store; Save posts
the definition with a name.
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Response, g, redirect, request, url_for

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.crm import service as S
from apps.crm.blueprint import bp
from apps.crm.views import PERIODS, filter_arg, filters_from, go, template_ctx
from apps.web.render import render

SORT_DIRS = [("asc", "Ascending"), ("desc", "Descending")]


@bp.get("/reports")
def reports():
    """The report list: the standard pipeline report, then the user's saved reports."""
    store, user = g.store, g.caller.user
    return render("crm/report_list.html", **template_ctx(tab="reports", saved=S.list_reports(store, user),
                                                         types=S.report_types(), q=request.args.get("q", "")))


@bp.get("/reports/pipeline")
def pipeline_report():
    group = request.args.get("group", "stage")
    period = request.args.get("period", "THIS_QUARTER")
    scope = request.args.get("scope", "all")
    if group not in ("stage", "owner") or period not in dict(PERIODS) or scope not in ("all", "mine"):
        raise Invalid("Choose a grouping, a close-date range and whose opportunities.", "group")
    rep = S.report(g.store, g.caller.user, group, period, scope)
    top = max([x["amount"] for x in rep["groups"]] or [0])
    return render("crm/reports.html", **template_ctx(tab="reports", rep=rep, group=group, period=period, scope=scope,
                                                     periods=PERIODS, top=top))


# ---------------------------------------------------------------- the builder
def _state(src) -> dict:
    """The definition being built, from the query string or form (raises ``Invalid`` on a bad filter)."""
    obj = src.get("type", "")
    if obj not in S.OBJECTS:
        raise Invalid("Choose a report type: Opportunities, Accounts, Contacts or Leads.", "type")
    sort_by = src.get("sort_by", "")
    sort = ("-" if src.get("sort_dir") == "desc" else "") + sort_by if sort_by else ""
    cols = src.getlist("col") if "col" in src or src.get("cols") == "1" else list(S.builder.DEFAULT_COLUMNS[obj])
    return {"type": obj, "col": cols, "f": filters_from(src), "group": src.get("group", ""), "sort": sort,
            "id": src.get("id", ""), "name": src.get("name", ""), "description": src.get("description", "")}


def _builder_url(st: dict) -> str:
    args = [("type", st["type"]), ("cols", "1")] + [("col", c) for c in st["col"]]
    args += [("f", filter_arg(f)) for f in st["f"]]
    if st["group"]:
        args.append(("group", st["group"]))
    if st["sort"]:
        args += [("sort_by", st["sort"].lstrip("-")), ("sort_dir", "desc" if st["sort"].startswith("-") else "asc")]
    if st["id"]:
        args.append(("id", st["id"]))
    return url_for("crm.report_builder") + "?" + urlencode(args)


def _builder(st: dict, error: str | None = None, save_error: str | None = None, status: int = 200):
    store, user = g.store, g.caller.user
    obj = st["type"]
    try:
        result = S.run_definition(store, user, {"object": obj, "columns": st["col"], "filters": st["f"],
                                                "group_by": st["group"], "sort": st["sort"]})
    except Invalid as e:
        error, status = error or e.message, 422
        result = S.run_definition(store, user, {"object": obj})
    fields = S.report_fields(obj)
    labels = {f["name"]: S.column_label(obj, f["name"]) for f in fields}
    return render("crm/report_builder.html", status=status, **template_ctx(
        tab="reports", st=st, result=result, error=error, save_error=save_error, fields=fields, labels=labels,
        field_opts=list(labels.items()), group_opts=[(f["name"], f["label"]) for f in S.group_fields(obj)],
        sort_dirs=SORT_DIRS, self_url=_builder_url(st)))


@bp.get("/reports/builder")
def report_builder():
    """The builder; ``add_col``, ``drop_col``, ``nf``/``nop``/``nv`` (add a filter), ``drop_f`` (a filter's
    index) and ``drop_group`` change the definition and come back to its canonical URL."""
    if request.args.get("report") and not request.args.get("type"):
        r = S.get_report(g.store, g.caller.user, request.args["report"])
        return redirect(_builder_url({"type": r["object"], "col": r["columns"], "f": r["filters"],
                                      "group": r["group_by"], "sort": r["sort"], "id": str(r["id"])}))
    st = _state(request.args)
    changed = False
    if request.args.get("add_col"):
        st["col"].append(request.args["add_col"])
        changed = True
    if request.args.get("drop_col"):
        st["col"] = [c for c in st["col"] if c != request.args["drop_col"]]
        changed = True
    if request.args.get("drop_group"):
        st["group"], changed = "", True
    if as_id(request.args.get("drop_f", "")) is not None:
        i = as_id(request.args["drop_f"])
        st["f"] = st["f"][:i] + st["f"][i + 1:]
        changed = True
    if request.args.get("nf"):
        flt = {"field": request.args["nf"], "op": request.args.get("nop", "equals"), "value": request.args.get("nv", "")}
        try:
            st["f"].append(S.clean_filters(g.store, g.caller.user, st["type"], [flt])[0])
        except Invalid as e:
            return _builder(st, error=e.message, status=422)
        changed = True
    if changed:
        try:
            S.clean_definition(g.store, g.caller.user, st["type"], st["col"], st["f"], st["group"], st["sort"])
        except Invalid as e:
            return _builder(st, error=e.message, status=422)
        return redirect(_builder_url(st))
    if st["id"] and not st["name"]:
        r = S.get_report(g.store, g.caller.user, st["id"])
        st["name"], st["description"] = r["name"], r["description"]
    return _builder(st)


@bp.post("/reports/save")
def save_report():
    st = _state(request.form)
    try:
        rid = S.save_report(g.store, g.caller, st["name"], st["type"], st["col"], st["f"], st["group"], st["sort"],
                            st["description"], report_id=st["id"] or None)
    except Invalid as e:
        return _builder(st, save_error=e.message, status=422)
    return go(url_for("crm.report_view", report_id=rid), f"Report “{' '.join(st['name'].split())}” was saved.")


@bp.get("/reports/<int:report_id>")
def report_view(report_id: int):
    res = S.run_report(g.store, g.caller.user, report_id)
    return render("crm/report_run.html", **template_ctx(tab="reports", result=res, r=res["report"]))


@bp.get("/reports/<int:report_id>/export")
def report_export(report_id: int):
    res = S.run_report(g.store, g.caller.user, report_id)
    name = "".join(ch if ch.isalnum() or ch in "-_ " else "_" for ch in res["report"]["name"]).strip() or "report"
    return Response(S.export_csv(res), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


@bp.post("/reports/<int:report_id>/delete")
def report_delete(report_id: int):
    r = S.delete_report(g.store, g.caller, report_id)
    return go(url_for("crm.reports"), f"Report “{r['name']}” was deleted.")
