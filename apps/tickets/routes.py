"""Service Desk GUI: thin routes over ``apps.tickets.service``.

Pages: lists (``/tickets/<kind>``) with quick filters, a condition builder,
search, sort, pagination and bulk update; record forms
(``/tickets/<kind>/<number>``) with the journal and activity stream,
"Attached knowledge" and a "Search knowledge" panel; the knowledge base
(``/tickets/kb``); the service catalog (``/tickets/catalog``). Lists and
record forms re-fetch themselves on ``deskworld:refresh``.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

import nh3
from flask import abort, g, redirect, request, url_for
from markdown_it import MarkdownIt
from markupsafe import Markup

from apps.core.errors import Invalid, NotFound
from apps.core.store.db import parse_iso
from apps.core.timefmt import ago
from apps.tickets import service as S
from apps.tickets.blueprint import bp
from apps.web.render import flash_toast, go, render, toast

LIST_KINDS = ("incident", "request", "change")
PLURAL = {"incident": "Incidents", "request": "Requests", "change": "Change Requests"}
PER_PAGE = 20
REF_FIELDS = ("caller_id", "account", "requested_for", "requested_by", "assignment_group", "assigned_to",
              "business_service", "cmdb_ci")
KB_TAGS = {"p", "br", "h1", "h2", "h3", "h4", "ul", "ol", "li", "strong", "em", "b", "i", "code", "pre", "a",
           "blockquote", "table", "thead", "tbody", "tr", "th", "td", "hr"}


# ---------------------------------------------------------------- helpers
def _kind(kind: str) -> str:
    if kind not in LIST_KINDS:
        abort(404)
    return kind


def _ctx(**extra) -> dict:
    user = g.caller.user
    return {
        "app_name": "tickets",
        "sidebar_label": "Application navigator",
        "search": {"action": url_for("tickets.search"), "placeholder": "Search incidents, requests, changes, knowledge",
                   "q": extra.pop("q_top", ""), "clear": url_for("tickets.index")},
        "staff": S.is_staff(g.store, user),
        "nav_counts": S.counts(g.store, user),
        "S": S,
        "nav_current": extra.pop("nav_current", ""),
        **extra,
    }



@bp.app_template_filter("pair")
def _pair(v):
    return (v, v)


@bp.app_template_filter("tk_time")
def _tk_time(iso: str | None) -> str:
    """ServiceNow's date-time: 2026-06-09 09:30:00 (world-local)."""
    if not iso:
        return ""
    return g.store.local(iso).strftime("%Y-%m-%d %H:%M:%S")


@bp.app_template_filter("tk_input_time")
def _tk_input_time(iso: str | None) -> str:
    if not iso:
        return ""
    return g.store.local(iso).strftime("%Y-%m-%dT%H:%M")


@bp.app_template_filter("tk_ago")
def _tk_ago(iso: str | None) -> str:
    return ago(g.store, iso) if iso else ""


@bp.app_template_filter("tk_markdown")
def _tk_markdown(md: str) -> Markup:
    html = MarkdownIt("commonmark").enable("table").render(md or "")
    return Markup(nh3.clean(html, tags=KB_TAGS, attributes={"a": {"href"}},
                            url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer"))


@bp.app_template_filter("tk_due")
def _tk_due(iso: str | None) -> str:
    """"in 3h 20m" / "4h 10m overdue" relative to world time."""
    if not iso:
        return ""
    secs = int((parse_iso(iso) - g.store.now()).total_seconds())
    mins = abs(secs) // 60
    d, h, m = mins // 1440, (mins % 1440) // 60, mins % 60
    text = f"{d}d {h}h" if d else (f"{h}h {m}m" if h else f"{m}m")
    return f"{text} overdue" if secs < 0 else f"in {text}"


def _list_args(kind: str) -> dict:
    """The list's query: conditions, quick filter, search, sort, page (bad ones are 422)."""
    conds = [S.parse_condition(c, kind) for c in request.args.getlist("f") if c.strip()]
    # the condition builder sends parallel lists: field (cf), operator (co), value (cv) and how each row
    # joins the one before (cj: and | or | nq = new criteria); AND-only rows stay plain conditions
    cf, co, cv = request.args.getlist("cf"), request.args.getlist("co"), request.args.getlist("cv")
    cj = request.args.getlist("cj") + ["and"] * len(cf)
    rows = [(*S.parse_condition(f"{f}:{op}:{v}", kind), j if j in ("and", "or", "nq") else "and")
            for f, op, v, j in zip(cf, co, cv, cj) if f.strip()]
    query = S.parse_query(request.args.get("sysparm_query", ""), kind)
    if any(r[3] != "and" for r in rows[1:]):
        query = S.conjoin(query, S.from_rows(rows))
    else:
        conds += [r[:3] for r in rows]
    if query and conds:     # plain conditions beside an OR query hold in each of its criteria sets
        query, conds = S.conjoin([[[c] for c in conds]], query), []
    quick = request.args.get("quick", "")
    if quick and quick not in S.QUICK:
        raise Invalid(f"Unknown quick filter {quick!r}.", "quick")
    sort = request.args.get("sort", "")
    group = request.args.get("group", "")
    if group and group not in S.GROUPABLE:
        raise Invalid(f"A list can't be grouped by {group!r}.", "group")
    d = request.args.get("dir", "")
    try:
        page = max(1, int(request.args.get("page", "1") or 1))
    except ValueError:
        raise Invalid("The page must be a number.", "page") from None
    return {"conditions": conds, "quick": quick, "q": request.args.get("q", "").strip(), "sort": sort,
            "desc": None if d not in ("asc", "desc") else d == "desc", "page": page, "group": group, "query": query}


def list_url(kind: str, args: dict, **override) -> str:
    a = {**args, **override}
    params: list[tuple[str, str]] = []
    if a.get("quick"):
        params.append(("quick", a["quick"]))
    for f, op, v in a.get("conditions", []):
        params.append(("f", f"{f}:{op}:{v}"))
    if a.get("query"):
        params.append(("sysparm_query", S.encode_query(a["query"])))
    if a.get("q"):
        params.append(("q", a["q"]))
    if a.get("group"):
        params.append(("group", a["group"]))
    if a.get("sort"):
        params.append(("sort", a["sort"]))
        if a.get("desc") is not None:
            params.append(("dir", "desc" if a["desc"] else "asc"))
    if a.get("page", 1) != 1:
        params.append(("page", str(a["page"])))
    return url_for("tickets.records", kind=kind) + ("?" + urlencode(params) if params else "")


def _list_ctx(kind: str, args: dict, results: list | None = None) -> dict:
    res = S.list_records(g.store, g.caller.user, kind, conditions=args["conditions"], quick=args["quick"],
                         q=args["q"], sort=args["sort"], desc=args["desc"], page=args["page"], per_page=PER_PAGE,
                         group=args.get("group", ""), query=args.get("query") or [])
    args = {**args, "sort": res["sort"] if args["sort"] else "", "page": res["page"]}
    crumbs = [("All", list_url(kind, {}))]
    acc: dict = {"conditions": []}
    if args["quick"]:
        acc["quick"] = args["quick"]
        crumbs.append((S.QUICK[args["quick"]], list_url(kind, acc)))
    for c in args["conditions"]:
        acc = {**acc, "conditions": acc["conditions"] + [c]}
        label = dict(S.filter_fields(kind)).get(c[0], c[0])
        crumbs.append((f"{label} {c[1]} {c[2]}".strip(), list_url(kind, acc)))
    if args.get("query"):
        acc = {**acc, "query": args["query"]}
        crumbs.append((S.describe_query(args["query"], lambda f: dict(S.filter_fields(kind)).get(f, f)),
                       list_url(kind, acc)))
    if args["q"]:
        crumbs.append((f"Keywords = {args['q']}", list_url(kind, {**acc, "q": args["q"]})))
    return {"kind": kind, "plural": PLURAL[kind], "res": res, "args": args, "crumbs": crumbs,
            "columns": S.list_columns(g.store, g.caller.user, kind), "labels": S.LABELS,
            "available": S.available_columns(kind), "groupable": S.GROUPABLE,
            "filterable": [c for c in S.available_columns(kind) if c not in S.TIMES], "fields": S.filter_fields(kind),
            "operators": S.OPERATORS, "list_url": list_url, "results": results,
            "this_url": list_url(kind, args),
            "group_options": [(str(x["id"]), x["name"]) for x in S.groups(g.store)]}


def _me() -> str:
    return g.caller.user


# ---------------------------------------------------------------- lists
@bp.get("/")
def index():
    return redirect(url_for("tickets.records", kind="incident", quick="open"))


@bp.get("/<kind>")
def records(kind: str):
    kind = _kind(kind)
    args = _list_args(kind)
    if any(j in ("or", "nq") for j in request.args.getlist("cj")[1:]):
        return redirect(list_url(kind, args))          # the builder's OR / New criteria: as sysparm_query
    nav = {"incident": f"incident-{args['quick'] or 'all'}", "request": "request-all",
           "change": f"change-{args['quick'] or 'all'}"}[kind]
    return render("tickets/list.html", "list", **_ctx(nav_current=nav, **_list_ctx(kind, args)))


@bp.post("/<kind>/bulk")
def bulk(kind: str):
    kind = _kind(kind)
    ids = request.form.getlist("t")
    fields = {}
    for f in ("state", "assignment_group", "assigned_to", "on_hold_reason", "resolution_code", "resolution_notes"):
        v = request.form.get(f, "")
        if f in S.EDITABLE[kind] and v.strip():
            fields[f] = v
    if request.form.get("clear_assignee") == "1":
        fields["assigned_to"] = ""
    results = S.bulk_update(g.store, g.caller, kind, ids, **fields)
    back = request.form.get("back", "")
    args = _list_args_from(back, kind)
    ok = sum(1 for r in results if r["ok"])
    msg = f"Updated {ok} of {len(results)} record{'s' if len(results) != 1 else ''}"
    status = 200 if ok == len(results) else 207 if ok else 422
    resp = render("tickets/list.html", "list", status=200 if status == 207 else status, oob=[toast(msg)],
                  **_ctx(**_list_ctx(kind, args, results=results)))
    return resp


@bp.post("/<kind>/columns")
def personalize_columns(kind: str):
    """Personalize list columns: the ``col`` fields in order (none = the default columns)."""
    kind = _kind(kind)
    cols = [] if request.form.get("reset") else [c for c in request.form.getlist("col") if c.strip()]
    S.set_list_columns(g.store, g.caller, kind, cols)
    args = _list_args_from(request.form.get("back", ""), kind)
    return render("tickets/list.html", "list", **_ctx(**_list_ctx(kind, args)))


def _list_args_from(url: str, kind: str) -> dict:
    """Re-read a list's query from its URL (the list a bulk action came from)."""
    u = urlparse(url or "")
    if not u.path.startswith(url_for("tickets.records", kind=kind)):
        return {"conditions": [], "quick": "", "q": "", "sort": "", "desc": None, "page": 1}
    qs = parse_qs(u.query)
    conds = []
    for c in qs.get("f", []):
        try:
            conds.append(S.parse_condition(c, kind))
        except Invalid:
            pass
    d = (qs.get("dir") or [""])[0]
    try:
        page = int((qs.get("page") or ["1"])[0])
    except ValueError:
        page = 1
    quick = (qs.get("quick") or [""])[0]
    grp = (qs.get("group") or [""])[0]
    try:
        query = S.parse_query((qs.get("sysparm_query") or [""])[0], kind)
    except Invalid:
        query = []
    return {"group": grp if grp in S.GROUPABLE else "", "query": query,
            "conditions": conds, "quick": quick if quick in S.QUICK else "", "q": (qs.get("q") or [""])[0],
            "sort": (qs.get("sort") or [""])[0], "desc": None if d not in ("asc", "desc") else d == "desc",
            "page": page}


# ---------------------------------------------------------------- record forms
def _field_values(kind: str) -> dict:
    """The form's fields as the service takes them."""
    form = request.form
    out = {}
    for f in S.EDITABLE[kind]:
        if f not in form:
            continue
        v = form.get(f, "")
        if f in REF_FIELDS:
            ref = form.get(f + "_ref", "")
            v = ref if ref and form.get(f + "_ref_name", "") == v else v
        out[f] = v
    return out


def _record_ctx(kind: str, rec: dict, **extra) -> dict:
    user = g.caller.user
    nav = {"incident": "incident-new" if not rec.get("id") else "", "change": "change-new" if not rec.get("id") else "",
           "request": ""}[kind]
    ctx = _ctx(nav_current=nav, kind=kind, rec=rec, errors={}, values={}, tab="work_note",
               level_opts=[(lv, S.LEVEL_LABELS[lv]) for lv in S.LEVELS])
    if rec.get("id"):
        ctx.update(activity=S.activity(g.store, user, kind, rec["id"]), task_slas=S.task_slas(g.store, rec),
                   kb_attached=S.attached_kb(g.store, user, kind, rec["id"]))
    else:
        ctx.update(activity=[], kb_attached=[], task_slas=[])
    ctx.update(extra)
    return ctx


@bp.get("/<kind>/new")
def new_record(kind: str):
    kind = _kind(kind)
    if kind == "request":
        return redirect(url_for("tickets.catalog"))
    rec = _blank(kind)
    return render("tickets/record.html", **_record_ctx(kind, rec))


def _blank(kind: str) -> dict:
    if kind == "incident":
        rec = {"number": S.next_number(g.store, "incident"), "caller_id": g.caller.user, "account": "",
               "category": "Other", "subcategory": "", "impact": "Low", "urgency": "Low", "state": "New",
               "assignment_group": None, "assigned_to": "", "short_description": "", "description": "",
               "on_hold_reason": "", "resolution_code": "", "resolution_notes": "", "opened_at": g.store.now_iso(),
               "opened_by": g.caller.user, "priority": 4, "sla_due": None}
    else:
        rec = {"number": S.next_number(g.store, "change"), "type": "Normal", "category": "Other", "risk": "Moderate",
               "impact": "Medium", "state": "New", "requested_by": g.caller.user, "assignment_group": None,
               "assigned_to": "", "short_description": "", "description": "", "justification": "",
               "implementation_plan": "", "backout_plan": "", "planned_start": None, "planned_end": None,
               "close_code": "", "close_notes": "", "opened_at": g.store.now_iso()}
    rec = S.decorate(g.store, kind, {**rec, "id": None, "resolved_at": None, "closed_at": None})
    rec["new"] = True
    return rec


@bp.post("/<kind>/new")
def create_record(kind: str):
    kind = _kind(kind)
    if kind == "request":
        abort(404)
    fields = _field_values(kind)
    try:
        if kind == "incident":
            sd = fields.pop("short_description", "")
            rec = S.create_incident(g.store, g.caller, short_description=sd,
                                    work_note=request.form.get("work_note", ""),
                                    comment=request.form.get("comment", ""), **fields)
        else:
            sd = fields.pop("short_description", "")
            rec = S.create_change(g.store, g.caller, short_description=sd, **fields)
    except Invalid as e:
        blank = _blank(kind)
        return render("tickets/record.html", status=422,
                      **_record_ctx(kind, blank, errors=e.errors or {"form": e.message}, error=e.message,
                                    values=request.form))
    flash_toast(f"{S.KINDS[kind][2]} {rec['number']} created")
    return go(url_for("tickets.record", kind=kind, number=rec["number"]))


@bp.get("/<kind>/<number>")
def record(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    return render("tickets/record.html", "record", **_record_ctx(kind, rec))


@bp.post("/<kind>/<number>")
def save_record(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    fields = _field_values(kind)
    note, comment = request.form.get("work_note", ""), request.form.get("comment", "")
    try:
        out = S.update(g.store, g.caller, kind, rec["id"], work_note=note, comment=comment, **fields)
    except Invalid as e:
        return render("tickets/record.html", "record", status=422,
                      **_record_ctx(kind, rec, errors=e.errors or {"form": e.message}, error=e.message,
                                    values=request.form))
    changed = out["changed"]
    posted = [w for w, t in (("work note", note), ("comment", comment)) if t.strip()]
    if changed or posted:
        msg = f"{rec['number']} updated"
    else:
        msg = "No changes to save"
    if request.form.get("then") == "list":
        flash_toast(msg)
        return go(url_for("tickets.records", kind=kind, quick="open"))
    return render("tickets/record.html", "record", oob=[toast(msg)],
                  **_record_ctx(kind, out["record"], saved=True))


@bp.post("/<kind>/<number>/journal")
def post_journal(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    entry = request.form.get("entry", "work_note")
    text = request.form.get("work_note" if entry == "work_note" else "comment", "")
    try:
        S.add_journal(g.store, g.caller, kind, rec["id"], entry, text)
    except Invalid as e:
        return render("tickets/_activity.html", status=422,
                      **_record_ctx(kind, rec, journal_error=e.message, tab=entry))
    return render("tickets/_activity.html", oob=[toast("Work note posted" if entry == "work_note" else
                                                         "Comment posted")],
                  **_record_ctx(kind, rec, tab=entry))


@bp.get("/<kind>/<number>/activity")
def activity(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    return render("tickets/_activity.html", **_record_ctx(kind, rec, tab=request.args.get("tab", "work_note")))


# ---------------------------------------------------------------- knowledge on a record
@bp.get("/<kind>/<number>/kb-search")
def kb_search(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    q = request.args.get("q", rec.get("short_description") or "")
    arts = S.kb_list(g.store, g.caller.user, q)
    if not arts and q:
        # ServiceNow's contextual search is forgiving: any word of the query
        seen, arts = set(), []
        for w in [w for w in q.split() if len(w) > 3]:
            for a in S.kb_list(g.store, g.caller.user, w):
                if a["id"] not in seen:
                    seen.add(a["id"])
                    arts.append(a)
    attached = {a["id"] for a in S.attached_kb(g.store, g.caller.user, kind, rec["id"])}
    return render("tickets/_kb_panel.html", kind=kind, rec=rec, q=q, arts=arts[:10], attached=attached,
                  staff=S.is_staff(g.store, g.caller.user))


@bp.post("/<kind>/<number>/kb")
def kb_attach(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    kb = request.form.get("kb", "")
    S.attach_kb(g.store, g.caller, kind, rec["id"], kb)
    art = S.kb_get(g.store, g.caller.user, kb)
    return render("tickets/_kb_related.html", oob=[toast(f"{art['number']} attached to {rec['number']}")],
                  **_record_ctx(kind, rec), headers={"HX-Trigger": "tk-activity"})


@bp.post("/<kind>/<number>/kb/<kb>/detach")
def kb_detach(kind: str, number: str, kb: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    S.detach_kb(g.store, g.caller, kind, rec["id"], kb)
    return render("tickets/_kb_related.html", oob=[toast(f"{kb} removed from {rec['number']}")],
                  **_record_ctx(kind, rec), headers={"HX-Trigger": "tk-activity"})


@bp.get("/<kind>/<number>/kb-related")
def kb_related(kind: str, number: str):
    kind = _kind(kind)
    rec = S.get(g.store, g.caller.user, kind, number)
    return render("tickets/_kb_related.html", **_record_ctx(kind, rec))


# ---------------------------------------------------------------- knowledge base
@bp.get("/kb")
def kb():
    q = request.args.get("q", "")
    cat = request.args.get("category", "")
    arts = S.kb_list(g.store, g.caller.user, q, cat)
    return render("tickets/kb.html", "results", **_ctx(nav_current="kb", arts=arts, q=q, category=cat,
                                                       categories=S.kb_categories(g.store)))


@bp.get("/kb/<number>")
def kb_article(number: str):
    art = S.kb_get(g.store, g.caller.user, number)
    linked = []
    for link in g.store.select("tk_kb_links", "kb=?", (art["id"],), order="id"):
        try:
            linked.append(S.get(g.store, g.caller.user, link["record_table"], link["record"]))
        except NotFound:
            continue
    return render("tickets/kb_article.html", **_ctx(nav_current="kb", art=art, linked=linked,
                                                    categories=S.kb_categories(g.store)))


# ---------------------------------------------------------------- service catalog
@bp.get("/catalog")
def catalog():
    cat = request.args.get("category", "")
    q = request.args.get("q", "")
    return render("tickets/catalog.html", **_ctx(nav_current="catalog", items=S.catalog(g.store, g.caller.user, cat, q),
                                                 categories=S.catalog_categories(g.store), category=cat, q=q))


@bp.get("/catalog/<int:item_id>")
def catalog_item(item_id: int):
    item = S.catalog_item(g.store, g.caller.user, item_id)
    return render("tickets/catalog_item.html", **_ctx(nav_current="catalog", item=item, values={}, errors={},
                                                      requested_for=g.caller.user))


@bp.post("/catalog/<int:item_id>")
def order(item_id: int):
    item = S.catalog_item(g.store, g.caller.user, item_id)
    names = {f["name"] for f in item["fields"]}
    values = {k[2:]: v for k, v in request.form.items() if k.startswith("v_") and k[2:] in names}
    for f in item["fields"]:
        if f["type"] == "boolean" and f["name"] not in values:
            values[f["name"]] = ""
    rf = request.form.get("requested_for", "") or g.caller.user
    try:
        req = S.submit_request(g.store, g.caller, item_id, values, requested_for=rf)
    except Invalid as e:
        return render("tickets/catalog_item.html", status=422,
                      **_ctx(nav_current="catalog", item=item, values=values, errors=e.errors or {"form": e.message},
                             error=e.message, requested_for=rf))
    flash_toast(f"Thank you, your request has been submitted: {req['number']}")
    return go(url_for("tickets.record", kind="request", number=req["number"], submitted=1))


# ---------------------------------------------------------------- search
@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    kind = S.kind_of(q)
    if kind:
        try:
            rec = S.get(g.store, g.caller.user, kind, q)
            return redirect(url_for("tickets.record", kind=kind, number=rec["number"]))
        except NotFound:
            pass
    if q.upper().startswith("KB"):
        try:
            art = S.kb_get(g.store, g.caller.user, q)
            return redirect(url_for("tickets.kb_article", number=art["number"]))
        except NotFound:
            pass
    groups_ = []
    if q:
        for k in LIST_KINDS:
            res = S.list_records(g.store, g.caller.user, k, q=q, sort="number", desc=True, per_page=10)
            groups_.append((k, res))
        arts = S.kb_list(g.store, g.caller.user, q)[:10]
    else:
        arts = []
    return render("tickets/search.html", **_ctx(q_top=q, q=q, groups_=groups_, arts=arts, plural=PLURAL))
