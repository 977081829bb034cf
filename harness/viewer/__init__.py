"""``deskworld view DIR``: browse a recorded run — the episodes table, each
episode's steps with what the agent saw and did (the action drawn on the
screenshot), the verifier's verdict and state diff, human grading
(``labels.json``) and verifier QC (``/qc``).

It reads the run folder (``harness.runs.layout``) on every request, so it can watch a
run in progress (episodes appear when they are complete). It never imports agent code;
task files are read (for prompts, apps, tags, rubrics) when they can be, and the
viewer still works when they can't. An episode whose files are missing or
corrupt is shown as *unreadable* with the reason, never as a server error. One run's
pages are in ``harness.viewer.episodes``, the pages comparing runs in ``harness.viewer.runs``.

It refuses the agent's browser (``harness.servers.netguard``): the Host must be its own
address, an Origin its own origin, and a page of another site (``Sec-Fetch-Site``
cross-site or same-site: the apps on another loopback port, a ``data:`` page) can
neither load nor frame it (``X-Frame-Options: DENY``, ``frame-ancestors 'none'``).
Every POST carries the server's CSRF token (a per-process secret in each form;
missing or wrong: 403, nothing written). It serves only files inside a run's
``episodes/`` folder, and bodies of at most 1 MB.
"""
from __future__ import annotations

import getpass
import hmac
import os
import secrets
from pathlib import Path

from flask import Flask, abort, g, request, send_from_directory

from apps.shell.vendor import HTMX_DIR
from harness.runs import layout
from harness.servers.netguard import UNSAFE, Guard, Policy
from harness.viewer.episodes import RUN_ENDPOINTS, register_run_pages
from harness.viewer.runs import register_runs

MAX_BODY = 1024 * 1024
CSRF_FIELD, CSRF_HEADER = "csrf_token", "X-CSRF-Token"


def default_grader() -> str:
    try:
        return os.environ.get("USER") or getpass.getuser()
    except Exception:
        return ""


def create_viewer(run_dir: str | Path) -> Flask:
    """DIR is either one run folder, or a folder of run folders (each a subfolder with run.json):
    then ``/`` lists the runs, ``/leaderboard`` and ``/compare`` compare them, and each run's pages
    live under ``/run/<name>/…``."""
    base = Path(run_dir).resolve()
    multi = not layout.is_run_dir(base) and bool(layout.child_runs(base))
    app = Flask(__name__, template_folder="templates", static_folder="static", static_url_path="/_static")
    app.config["GRADER"] = default_grader()
    app.config["MULTI"] = multi
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["CSRF_TOKEN"] = csrf = secrets.token_urlsafe(32)
    app.wsgi_app = Guard(app.wsgi_app, Policy(max_body=MAX_BODY, origin="all", browsers=False, no_framing=True,
                                              json_errors=False))

    @app.before_request
    def _csrf():
        if request.method in UNSAFE:
            given = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD) or ""
            if not hmac.compare_digest(given.encode(), csrf.encode()):
                return ("the form's CSRF token is missing or wrong: reload the page and submit it again\n", 403,
                        {"Content-Type": "text/plain; charset=utf-8"})
        return None

    @app.url_value_preprocessor
    def _pull_run(endpoint, values):
        g.run_name = None
        g.run_root = base
        if multi and values is not None and "run" in values:
            name = values.pop("run")
            if not layout.is_name(str(name)) or not layout.is_run_dir(base / name):
                abort(404)
            g.run_name = name
            g.run_root = base / name

    @app.url_defaults
    def _add_run(endpoint, values):
        if multi and endpoint in RUN_ENDPOINTS and "run" not in values and g.get("run_name"):
            values["run"] = g.run_name

    @app.context_processor
    def _ctx():
        return {"multi": multi, "run_name": g.get("run_name"), "csrf_token": csrf, "csrf_field": CSRF_FIELD,
                "csrf_header": CSRF_HEADER}

    @app.get("/_vendor/htmx.min.js")
    def htmx_js():
        return send_from_directory(HTMX_DIR, "htmx.min.js", mimetype="text/javascript", max_age=3600)

    register_run_pages(app, base, "/run/<run>" if multi else "")
    if multi:
        register_runs(app, base)
    return app
