"""The page a person records on: the episode's screenshot, and their input on it sent as deskworld actions.

Routes (all on the ``deskworld record`` server):
- ``GET /``             the page (``templates/record.html``, ``static/record.js``);
- ``GET /state``        the session as JSON; ``?after=V`` waits (up to 25 s) until its version is past V;
- ``GET /screen.png``   the screenshot the person is looking at;
- ``POST /act``         ``{"action": {...}, "timing": {"look_ms", "gesture_ms"}}``: one deskworld action
  (``harness.env.actions``) and, measured in the page, how long the person looked at the screen before the
  gesture began and how long the gesture took (written into the step as ``person``) — refused
  with 422 naming what is wrong if it isn't one, 409 if it isn't the person's turn; answered with the
  state once the env has taken the step;
- ``POST /next``        on to the next task after a verdict.

The server refuses the agent's browser as every local server does (``harness.servers.netguard``: its own
Host, its own Origin, no page of another site, no framing), and every POST carries the page's CSRF token
in ``X-CSRF-Token`` (403 without it). It can be reached over an SSH tunnel (``ssh -L 8777:localhost:8777``);
served beyond this machine (``--host 0.0.0.0``) it needs a key, carried by the address the command prints.
"""
from __future__ import annotations

import hmac
import secrets
from pathlib import Path

from flask import Flask, jsonify, redirect, render_template, request

from harness.env import actions as A
from harness.human.live import Busy, Live
from harness.servers.netguard import UNSAFE, Guard, Policy

MAX_BODY = 256 * 1024
CSRF_HEADER = "X-CSRF-Token"
LONG_POLL_S = 25.0
# What a person can send: the agent's action space, without tool calls (a hybrid episode's) or raw
# mouse_down/mouse_up (the page sends a press-move-release as one drag).
PERSON_ACTIONS = {"click", "double_click", "triple_click", "move", "drag", "scroll", "type", "key", "wait",
                  "navigate", "back", "done", "ask_user"}


KEY_COOKIE = "deskworld_record_key"


def create_record_app(live: Live, *, name: str, key: str | None = None, show_verdict: bool = True,
                      direct: bool = False) -> Flask:
    """The page's app. ``key``: when set (a server reachable beyond this machine), every request needs it —
    opening ``/?key=KEY`` once sets it as a cookie; ``show_verdict=False`` tells the person only that
    the task was submitted (a study that must not teach people as they go); ``direct``: the person works in
    a real window (``deskworld record --direct``), and the page shows the task and the buttons, no screenshot."""
    here = Path(__file__).parent
    app = Flask(__name__, template_folder=str(here / "templates"), static_folder=str(here / "static"),
                static_url_path="/_static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    csrf = secrets.token_urlsafe(32)
    app.wsgi_app = Guard(app.wsgi_app, Policy(max_body=MAX_BODY, origin="all", browsers=False, no_framing=True,
                                              json_errors=True))

    @app.before_request
    def _csrf():
        if key is not None:
            given = request.cookies.get(KEY_COOKIE) or request.args.get("key") or ""
            if not hmac.compare_digest(given.encode(), key.encode()):
                return jsonify(message="open the address the record command printed (it carries the key)"), 403
            if request.args.get("key") and request.method == "GET" and request.path == "/":
                resp = redirect("/")
                resp.set_cookie(KEY_COOKIE, key, httponly=True, samesite="Strict")
                return resp
        if request.method in UNSAFE:
            given = request.headers.get(CSRF_HEADER) or ""
            if not hmac.compare_digest(given.encode(), csrf.encode()):
                return jsonify(message="the page's CSRF token is missing or wrong: reload the page"), 403
        return None

    @app.after_request
    def _no_store(resp):
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/")
    def page():
        return render_template("record.html", csrf=csrf, csrf_header=CSRF_HEADER, name=name, show_verdict=show_verdict,
                               direct=direct)

    @app.get("/state")
    def state():
        after = request.args.get("after")
        if after is None:
            return jsonify(shown(live.state()))
        try:
            v = int(after)
        except ValueError:
            return jsonify(message=f"after must be a version number, not {after!r}"), 422
        return jsonify(shown(live.wait_change(v, LONG_POLL_S)))

    def shown(st: dict) -> dict:
        """The state as the person may see it: without the verdict's content when it is hidden."""
        if show_verdict:
            return st
        out = dict(st)
        if out.get("verdict"):
            out["verdict"] = {"hidden": True, "steps": out["verdict"].get("steps"),
                              "seconds": out["verdict"].get("seconds"), "status": out["verdict"].get("status")}
        if out.get("summary"):
            out["summary"] = {"tasks": out["summary"].get("tasks"), "hidden": True}
        return out

    @app.get("/screen.png")
    def screen():
        if not live.png:
            return jsonify(message="no screenshot yet: the task is starting"), 404
        return live.png, 200, {"Content-Type": "image/png"}

    @app.post("/act")
    def act():
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or not isinstance(body.get("action"), dict):
            return jsonify(message='send {"action": {...}}: a JSON object with the action'), 422
        action = body["action"]
        timing = body.get("timing")
        if timing is not None and not (isinstance(timing, dict) and set(timing) <= {"look_ms", "gesture_ms"} and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 86_400_000 for v in timing.values())):
            return jsonify(message="timing is {look_ms, gesture_ms}: milliseconds, at least 0"), 422
        kind = action.get("type")
        if kind not in PERSON_ACTIONS:
            return jsonify(message=f"{kind!r} is not an action a person sends here; "
                                   f"use one of {', '.join(sorted(PERSON_ACTIONS))}"), 422
        try:
            A.parse(action, screen=live.state().get("screen"))
        except (A.ActionError, ValueError) as e:
            return jsonify(message=f"that {kind} action is not valid: {str(e).splitlines()[0]}"), 422
        try:
            return jsonify(shown(live.submit(action, timing)))
        except Busy as e:
            return jsonify(message=str(e), state=shown(live.state())), 409

    @app.post("/next")
    def next_task():
        try:
            return jsonify(shown(live.next_task()))
        except Busy as e:
            return jsonify(message=str(e), state=shown(live.state())), 409

    return app
