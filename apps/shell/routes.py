"""The shell's views: the home page, the vendored files, cross-app search, directory suggestions and
the "Open file" dialog over the user's computer."""
from __future__ import annotations

import importlib
import os

from flask import abort, current_app, g, redirect, request, send_from_directory, url_for

from apps.core import addresses, local_files
from apps.core.errors import Invalid
from apps.drive import service as drive
from apps.mail import service as mail
from apps.mail.search import SearchError
from apps.shell.blueprint import bp
from apps.shell.vendor import FONT_DIR, FONTS, HTMX_DIR
from apps.web.render import render
from apps.web.session import public_asset


@bp.get("/")
def home():
    return redirect(url_for("mail.folder", folder="inbox"))


@bp.get("/favicon.ico")
@public_asset
def favicon():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" '
           'fill="#1a73e8"/><path d="M8 11h16v10H8z" fill="none" stroke="#fff" stroke-width="2"/></svg>')
    return svg, 200, {"Content-Type": "image/svg+xml"}


@bp.get("/_vendor/htmx.min.js")
@public_asset
def htmx_js():
    return send_from_directory(HTMX_DIR, "htmx.min.js", mimetype="text/javascript", max_age=0)


@bp.get("/_fonts/<name>")
@public_asset
def font(name: str):
    if name not in FONTS:
        abort(404)
    return send_from_directory(FONT_DIR, name, mimetype="font/ttf", max_age=0)


def search_all(q: str, limit: int = 5) -> dict:
    """Matches across apps, for the search page and the suggestions under the box."""
    store, user = g.store, g.caller.user
    results = {"q": q, "mail": [], "mail_total": 0, "drive": [], "people": [], "records": [], "error": None}
    if not q.strip():
        return results
    try:
        page = mail.search(store, user, q)
        results["mail"], results["mail_total"] = page.threads[:limit], page.total
    except SearchError as e:
        results["error"] = str(e)
    try:
        results["drive"] = drive.search(store, user, q)[:limit]
    except Invalid as e:                     # a half-typed operator ("before:2026-0") finds no files
        results["error"] = results["error"] or e.message
    results["people"] = addresses.suggestions(store, "", q, limit=limit)
    results["records"] = record_hits(store, user, q, limit)
    return results


# Apps whose records the workspace search lists, when the workspace has them: each has
# ``service.search(store, user, q, limit)`` returning ``[{title, subtitle, url, kind}]``.
RECORD_APPS = (("crm", "CRM", "briefcase"), ("tickets", "Service Desk", "lifebuoy"))


def record_hits(store, user: str, q: str, limit: int) -> list[dict]:
    out = []
    names = {a.name for a in current_app.extensions.get("deskworld.apps", [])}
    for name, title, icon_name in RECORD_APPS:
        if name not in names:
            continue
        hits = importlib.import_module(f"apps.{name}.service").search(store, user, q, limit=limit)
        if hits:
            out.append({"app": name, "title": title, "icon": icon_name, "hits": hits})
    return out


@bp.get("/search")
def search():
    q = request.args.get("q", "")
    return render("shell/search.html", "results", results=search_all(q, limit=20), q=q)


@bp.get("/search/suggest")
def suggest():
    q = request.args.get("q", "")
    return render("shell/_suggest.html", results=search_all(q, limit=4), q=q)


@bp.get("/people/suggest")
def people_suggest():
    field = request.args.get("field", "q")
    q = request.args.get(field, "") or request.args.get("q", "")
    return render("_people_suggest.html", people=addresses.suggestions(g.store, g.caller.user, q), q=q)


@bp.get("/local/picker")
def local_picker():
    """The "Open file" dialog over the user's computer. ``action`` is where the
    chosen files are posted (an app route), ``target`` what it updates."""
    path = request.args.get("path", "").strip("/")
    action = request.args.get("action", "")
    if not action.startswith("/") or action.startswith("//"):
        abort(400)
    dirs, files = local_files.folder(g.store, g.caller.user, path)
    crumbs = []
    acc = []
    for part in [p for p in path.split("/") if p]:
        acc.append(part)
        crumbs.append((part, "/".join(acc)))
    return render("_local_picker.html", dirs=dirs, files=files, path=path, crumbs=crumbs,
                  action=action, target=request.args.get("target", ""),
                  submit_label=request.args.get("label", "Open"), parent=os.path.dirname(path))
