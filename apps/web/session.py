"""Who is signed in, and which episode the page belongs to.

The session cookie carries the user and the slot generation it was issued
for. No route signs anyone in: the harness injects the cookie (see
``session_cookie``) and ``deskworld serve`` signs visitors in as one user
(``AUTO_LOGIN``). A request from a page of an earlier episode (older
generation) is refused with 409, so it can't touch the new episode.

Each request holds the slot for its whole duration (``g.store``): requests to
one slot run one at a time, which keeps episodes deterministic.

Package assets — the workspace's static files (``/static/…``), each app's
(``/<prefix>/static/…``) and the views marked ``public_asset`` (htmx, the fonts,
the favicon) — are served without a session or the store, and cached.
"""
from __future__ import annotations

from flask import Flask, current_app, g, request, session

from apps.core import people
from apps.core.store.db import AGENT, Caller
from apps.web.render import error_page


def session_cookie(app: Flask, user: str, generation: int) -> tuple[str, str]:
    """(cookie name, value) of a signed session for ``user`` in ``generation``."""
    ser = app.session_interface.get_signing_serializer(app)
    return app.config["SESSION_COOKIE_NAME"], ser.dumps({"uid": user, "gen": generation})


def public_asset(view):
    """Mark a view as serving a package asset: answered without a session or the store, and cached
    like the static files."""
    view.deskworld_public_asset = True
    return view


def is_asset() -> bool:
    """The request is for a package asset: a static file (anything under the workspace's
    ``/static/``, or an app blueprint's, endpoint ``<app>.static``) or a view marked
    ``public_asset``."""
    if request.path.startswith(current_app.static_url_path + "/"):
        return True
    endpoint = request.endpoint
    if endpoint is None:
        return False
    if endpoint.endswith(".static"):
        return True
    return getattr(current_app.view_functions.get(endpoint), "deskworld_public_asset", False)


def init_app(app: Flask) -> None:
    @app.before_request
    def _open_store():
        if is_asset():
            return None
        slot = current_app.config["SLOT"]
        cm = slot.store()
        g._store_cm = cm
        g.store = cm.__enter__()
        g.slot = slot
        uid, gen = session.get("uid"), session.get("gen")
        if current_app.config["AUTO_LOGIN"] and (uid is None or gen != slot.generation):
            uid = current_app.config["USER"] or g.store.meta("default_user")
            session["uid"], session["gen"] = uid, slot.generation
            gen = slot.generation
        if uid is None:
            return error_page(401, "You're not signed in",
                              "This workspace is opened by the deskworld harness, which signs you in.")
        if gen != slot.generation:
            return error_page(409, "This page has expired",
                              "The workspace was reset since this page was opened. Reload to continue.")
        person = people.person(g.store, uid)
        if person is None:
            return error_page(401, "Unknown user", "The signed-in user is not in this world's directory.")
        g.user = person
        g.caller = Caller(user=uid, actor=AGENT)
        return None

    @app.teardown_request
    def _close_store(exc):
        cm = g.pop("_store_cm", None)
        if cm is not None:
            cm.__exit__(None, None, None)

    @app.after_request
    def _headers(resp):
        # Pages and fragments are never cached (state changes under them);
        # package assets (htmx, fonts, css, js) are the same for every episode.
        resp.headers["Cache-Control"] = "public, max-age=3600" if is_asset() and resp.status_code == 200 \
            else "no-store"
        resp.headers["X-Frame-Options"] = "SAMEORIGIN"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp
