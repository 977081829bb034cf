"""Reference fields of the Service Desk's forms (ServiceNow's type-ahead and "Look up value" list):
Caller, Account, Assignment group, Assigned to (only the group's members once a group is chosen),
Service and Configuration item (only the service's CIs once a service is chosen).
"""
from __future__ import annotations

from flask import abort, g, request

from apps.tickets import service as S
from apps.tickets.blueprint import bp
from apps.web.render import render

WHAT = {"caller": "Caller", "account": "Account", "group": "Assignment group", "assignee": "Assigned to",
        "service": "Service", "ci": "Configuration item"}


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
    if what not in WHAT:
        abort(404)
    return render("tickets/_ref_options.html", options=S.ref_options(g.store, what, p["q"], p["group"], p["service"])[:10],
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
                  options=S.ref_options(g.store, what, q, p["group"], p["service"])[:50], group=p["group"], service=p["service"])


@bp.get("/search/suggest")
def search_suggest():
    """The global search's type-ahead: Service Desk records and knowledge only (no Mail or Drive)."""
    q = request.args.get("q", "").strip()
    hits = S.search(g.store, g.caller.user, q, limit=8) if q else []
    return render("tickets/_suggest.html", hits=hits, q=q)
