"""Reference fields of the Service Desk's forms (ServiceNow's type-ahead and "Look up value" list):
Caller, Account, Assignment group, Assigned to (only the group's members once a group is chosen),
Service and Configuration item (only the service's CIs once a service is chosen).
"""
from __future__ import annotations

from flask import abort, g, request

from apps.core.ids import as_id
from apps.tickets import service as S
from apps.tickets.blueprint import bp
from apps.tickets.service.cmdb import cis
from apps.web.render import render

WHAT = {"caller": "Caller", "account": "Account", "group": "Assignment group", "assignee": "Assigned to",
        "service": "Service", "ci": "Configuration item"}


def ref_options(what: str, q: str, group: str = "", service: str = "") -> list[dict]:
    """Matching records for a reference field: ``{id, name, sub, cols}``, best matches first."""
    q = (q or "").strip().lower()
    st = g.store
    out: list[dict] = []
    if what == "caller":
        for p in st.select("people", order="name"):
            if not q or q in p["name"].lower() or q in p["email"].lower() or q in p["slug"]:
                out.append({"id": p["slug"], "name": p["name"], "sub": p["email"], "cols": [p["email"], p.get("title") or ""]})
        if S.has_table(st, "crm_contacts"):
            people = {o["id"] for o in out}
            for c in st.select("crm_contacts", order="last_name, first_name"):
                name = S.contact_name(c)
                if c["slug"] in people:
                    continue
                if not q or q in name.lower() or q in (c.get("email") or "").lower() or q in c["slug"]:
                    out.append({"id": c["slug"], "name": name, "sub": f"{c.get('email') or ''} · CRM contact",
                                "cols": [c.get("email") or "", "CRM contact"]})
    elif what == "account":
        if S.has_table(st, "crm_accounts"):
            for a in st.select("crm_accounts", order="name"):
                if not q or q in a["name"].lower() or q in a["slug"]:
                    out.append({"id": a["slug"], "name": a["name"], "sub": a.get("industry") or "",
                                "cols": [a.get("industry") or ""]})
        else:
            for o in st.select("orgs", order="name"):
                if not q or q in o["name"].lower() or q in o["slug"]:
                    out.append({"id": o["slug"], "name": o["name"], "sub": o["domain"], "cols": [o["domain"]]})
    elif what == "group":
        for grp in S.groups(st):
            if not q or q in grp["name"].lower():
                mgr = S.person_name(st, grp["manager"])
                out.append({"id": str(grp["id"]), "name": grp["name"], "sub": f"Manager: {mgr}" if mgr else "",
                            "members": " ".join(grp["members"]), "cols": [mgr, grp["description"]]})
    elif what == "assignee":
        gid = as_id(group)
        slugs = S.members(st, gid) if gid else sorted({m for grp in S.groups(st) for m in grp["members"]})
        for slug in slugs:
            p = st.decode("people", st.one("SELECT * FROM people WHERE slug=?", (slug,)))
            if p and (not q or q in p["name"].lower() or q in p["email"].lower()):
                out.append({"id": slug, "name": p["name"], "sub": p.get("title") or p["email"],
                            "cols": [p["email"], p.get("title") or ""]})
    elif what in ("service", "ci"):
        sid = as_id(service) if what == "ci" else None
        for row in cis(st, q, services=what == "service", service=sid):
            grp = S.group_name(st, row["support_group"])
            sub = grp if what == "service" else f"{row['sys_class']} · {row['service_name']} · {row['environment']}"
            out.append({"id": str(row["id"]), "name": row["name"], "sub": sub,
                        "cols": [grp] if what == "service" else [row["sys_class"], row["service_name"],
                                                                  row["environment"], grp]})
    else:
        abort(404)
    out.sort(key=lambda o: (not o["name"].lower().startswith(q), o["name"].lower()))
    return out


def _params(what: str) -> dict:
    field = request.args.get("field", what)
    q = request.args.get("q")
    if q is None:
        q = request.args.get(field, "")
    return {"field": field, "q": q, "group": request.args.get("assignment_group_ref", ""),
            "service": request.args.get("business_service_ref", "")}


@bp.get("/ref/<what>")
def ref_suggest(what: str):
    p = _params(what)
    return render("tickets/_ref_options.html", options=ref_options(what, p["q"], p["group"], p["service"])[:10],
                  field=p["field"])


COLS = {"caller": ("Name", "Email", "Title"), "account": ("Name", "Industry"),
        "group": ("Name", "Manager", "Description"), "assignee": ("Name", "Email", "Title"),
        "service": ("Name", "Support group"), "ci": ("Name", "Class", "Service", "Environment", "Support group")}


@bp.get("/ref/<what>/lookup")
def ref_lookup(what: str):
    """The "Look up value" list: a searchable list of the records the field can take."""
    if what not in WHAT:
        abort(404)
    p = _params(what)
    q = request.args.get("q", "")
    return render("tickets/_lookup.html", what=what, title=WHAT[what], field=p["field"], q=q, cols=COLS[what],
                  options=ref_options(what, q, p["group"], p["service"])[:50], group=p["group"], service=p["service"])


@bp.get("/search/suggest")
def search_suggest():
    """The global search's type-ahead: Service Desk records and knowledge only (no Mail or Drive)."""
    q = request.args.get("q", "").strip()
    hits = S.search(g.store, g.caller.user, q, limit=8) if q else []
    return render("tickets/_suggest.html", hits=hits, q=q)


@bp.post("/<kind>/columns")
def personalize_columns(kind: str):
    """Personalize list columns: the ``col`` fields in order (none = the default columns)."""
    from apps.tickets.routes import LIST_KINDS, _list_args_from, _list_ctx, _ctx
    if kind not in LIST_KINDS:
        abort(404)
    cols = [] if request.form.get("reset") else [c for c in request.form.getlist("col") if c.strip()]
    S.set_list_columns(g.store, g.caller, kind, cols)
    args = _list_args_from(request.form.get("back", ""), kind)
    return render("tickets/list.html", "list", **_ctx(**_list_ctx(kind, args)))
