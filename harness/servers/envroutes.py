"""The env server's HTTP routes and its WebSocket loop (``deskworld env-server``).

``make_app(server)`` is the Flask app of an ``harness.servers.envserver.EnvServer``: ``/health``,
``/metadata``, ``/schema``, ``/reset``, ``/step``, ``/state``, ``/close``, ``/openapi.json`` (the API
described: ``harness.servers.openapi``), ``/mcp`` (the apps' tools over JSON-RPC:
``harness.servers.jsonrpc``) and the ``/ws`` WebSocket,
behind the policy of ``harness.servers.netguard`` (own Host and Origin only, JSON bodies of at most
1 MB, the bearer token when the server has one). Each route parses the request, calls the server's
session operations and answers in the wire format of ``harness.servers.wire``; a WebSocket is one
session for its lifetime (``serve_ws``).
"""
from __future__ import annotations

import json

from flask import Flask, jsonify, request
from flask_sock import Sock

from harness.servers.netguard import Guard, Policy, has_token
from harness.servers.wire import (CAPACITY_REACHED, EXECUTION_ERROR, INVALID_JSON, MAX_BODY, SESSION_ERROR,
                                  SESSION_HEADER, UNKNOWN_TYPE, VALIDATION_ERROR, Refused)

WS_POLL_SECONDS = 0.5          # how often an idle WebSocket loop looks whether its session was closed


def make_app(server) -> Flask:
    """The Flask app serving ``server`` (an ``EnvServer``): its HTTP routes and its WebSocket."""
    app = Flask("deskworld.envserver")
    app.json.sort_keys = False               # keep the fields in the order they are documented
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["SOCK_SERVER_OPTIONS"] = {"max_message_size": MAX_BODY}
    app.wsgi_app = Guard(app.wsgi_app, Policy(max_body=MAX_BODY, json=True, origin="all", browsers=False,
                                              token=server.token, open_paths=frozenset({"/health", "/openapi.json"}),
                                              no_framing=True))
    sock = Sock(app)

    def http_session_id(body: dict, required: bool = True) -> str | None:
        sid = body.get("session_id") or request.headers.get(SESSION_HEADER) or request.args.get("session_id")
        if sid is None and required:
            raise Refused(400, VALIDATION_ERROR, "name the session: send the X-Session-Id header (or "
                                                 "session_id) that POST /reset answered")
        return None if sid is None else str(sid)

    def authorized() -> bool:
        return has_token(request.environ, server.token)

    def body() -> dict:
        data = request.get_json(force=True, silent=True) if request.data else {}
        if data is None or not isinstance(data, dict):
            raise Refused(400, INVALID_JSON, "the request body is not a JSON object")
        return data

    def reply(payload: dict, sid: str | None = None):
        resp = jsonify(payload)
        if sid:
            resp.headers[SESSION_HEADER] = sid
        return resp

    @app.errorhandler(Refused)
    def refused(e: Refused):
        resp = jsonify(e.body())
        resp.status_code = e.status
        if e.code == CAPACITY_REACHED:
            resp.headers["Retry-After"] = "5"
        return resp

    @app.get("/health")
    def health():
        return reply(server.health())

    @app.get("/metadata")
    def metadata():
        return reply(server.metadata())

    @app.get("/schema")
    def schema():
        return reply(server.schema())

    @app.post("/reset")
    def reset():
        data = body()
        sid = http_session_id(data, required=False)
        payload = server.reset(server.get(sid, "http") if sid else None, data)
        return reply(payload, payload["info"]["session_id"])

    @app.post("/step")
    def step():
        data = body()
        sid = http_session_id(data)
        if "action" not in data:
            raise Refused(400, VALIDATION_ERROR, 'the body is {"action": {...}}')
        return reply(server.step(server.get(sid, "http"), data["action"]), sid)

    @app.get("/state")
    def state():
        sid = http_session_id({})
        return reply(server.state(server.get(sid, "http"), details=authorized()), sid)

    @app.post("/close")
    def close():
        sid = http_session_id(body())
        server.get(sid, "http")
        server.close(sid, "the client closed it")
        return reply({"session_id": sid, "closed": True}, sid)

    @app.get("/openapi.json")
    def openapi():
        from harness.servers.openapi import document
        return reply(document(server))

    @app.post("/mcp")
    def mcp():
        from harness.servers.jsonrpc import handle
        return reply(handle(server, request.get_data()))

    @sock.route("/ws")
    def ws(conn):
        serve_ws(server, conn, details=authorized())

    return app


def serve_ws(server, conn, details: bool = False) -> None:
    """One WebSocket = one session; messages are answered in order until ``close``. ``details``:
    the connection was opened with the server's token (its ``state`` shows the checks)."""
    try:
        session = server.open("ws")
    except Refused as e:
        error = json.dumps({"type": "error", "data": e.body()})
        conn.send(error)                     # OpenEnv's way: say why at once, then hang up ...
        # ... but answer a first message too: closing with it unread would reset the TCP
        # connection, and the reset can discard the error before the client reads it.
        if conn.receive(timeout=5) is not None:
            conn.send(error)
        return
    try:
        while True:
            raw = conn.receive(timeout=WS_POLL_SECONDS)
            if session.closed:
                conn.send(json.dumps({"type": "error", "data": Refused(
                    410, SESSION_ERROR, f"session {session.id} is closed: {session.closed}").body()}))
                return
            if raw is None:
                continue
            answer = ws_message(server, session, raw, details)
            if answer is None:
                return
            conn.send(json.dumps(answer))
    finally:
        server.close(session.id, "its WebSocket disconnected")

def ws_message(server, session, raw, details: bool = False) -> dict | None:
    """The answer to one WebSocket message of ``session``; None for ``close``."""
    try:
        msg = json.loads(raw)
    except (TypeError, ValueError) as e:
        return {"type": "error", "data": Refused(400, INVALID_JSON, f"invalid JSON: {e}").body()}
    kind = msg.get("type") if isinstance(msg, dict) else None
    try:
        if kind == "reset":
            return {"type": "observation", "data": server.reset(session, msg.get("data") or {})}
        if kind == "step":
            if "data" not in msg:
                raise Refused(400, VALIDATION_ERROR, 'a step message is {"type": "step", "data": <action>}')
            return {"type": "observation", "data": server.step(session, msg["data"])}
        if kind == "state":
            return {"type": "state", "data": server.state(session, details)}
        if kind == "close":
            return None
        raise Refused(400, UNKNOWN_TYPE, f"unknown message type {kind!r}; use reset, step, state or close")
    except Refused as e:
        return {"type": "error", "data": e.body()}
    except Exception as e:                   # the session stays usable; say what broke
        return {"type": "error", "data": {"message": f"{type(e).__name__}: {e}", "code": EXECUTION_ERROR}}
