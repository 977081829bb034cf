"""``GET /openapi.json`` of ``deskworld env-server``: the HTTP API as an OpenAPI 3.1 document.

OpenEnv's runtime check (``openenv validate --url``) reads it: ``info.version`` names the OpenEnv HTTP
API the server implements (``1.0.0``: profile ``openenv-http/1.x``, as OpenEnv's own FastAPI servers
declare) and the paths tell the mode (``/reset``, ``/step`` and ``/state``: a simulation server).
The schemas are the server's own (``GET /schema``), so the document can't drift from what is served.
"""
from __future__ import annotations

OPENENV_HTTP_API = "1.0.0"


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: dict | None = None) -> dict:
    return {"200": {"description": description, **(_json(schema) if schema else {})}}


def document(server) -> dict:
    s = server.schema()
    obs, action, state = s["observation"], s["action"], s["state"]
    error = {"type": "object", "properties": {"message": {"type": "string"}, "code": {"type": "string"}},
             "required": ["message", "code"]}
    refused = {code: {"description": why, **_json(error)} for code, why in (
        ("400", "bad request (the message names what was wrong)"), ("401", "the server's token is required"),
        ("404", "no such open session"), ("503", "the server is at capacity"))}
    session_header = {"name": "X-Session-Id", "in": "header", "required": False, "schema": {"type": "string"},
                      "description": "The session POST /reset answered (or session_id in the body/query)."}
    result = {"type": "object", "properties": {
        "observation": obs, "reward": {"type": ["number", "null"]}, "done": {"type": "boolean"},
        "terminated": {"type": "boolean"}, "truncated": {"type": "boolean"}, "info": {"type": "object"}}}
    reset_body = {"type": "object", "properties": {
        "task": {"type": "string", "description": "a served task id (GET /metadata lists them); none: drawn"},
        "seed": {"type": "integer", "minimum": 0}, "episode_id": {"type": "string"},
        "reward": {"type": "string", "enum": ["final", "milestones"]}, "options": {"type": "object"},
        "session_id": {"type": "string"}}}
    rpc = {"type": "object", "properties": {"jsonrpc": {"const": "2.0"}, "method": {"type": "string"},
                                            "params": {"type": "object"}, "id": {"type": ["string", "integer",
                                                                                          "null"]}}}
    paths = {
        "/health": {"get": {"summary": "Health", "responses": _ok("healthy", {"type": "object"})}},
        "/metadata": {"get": {"summary": "What is served", "responses": _ok("name, description, tasks",
                                                                            {"type": "object"})}},
        "/schema": {"get": {"summary": "Action, observation and state schemas",
                            "responses": _ok("the schemas", {"type": "object"})}},
        "/reset": {"post": {"summary": "Start an episode (a new session unless one is named)",
                            "requestBody": {"required": False, **_json(reset_body)},
                            "responses": {**_ok("the first observation", result), **refused}}},
        "/step": {"post": {"summary": "Carry out one action in a session's episode",
                           "parameters": [session_header],
                           "requestBody": {"required": True, **_json({"type": "object", "properties": {
                               "action": action, "session_id": {"type": "string"}}, "required": ["action"]})},
                           "responses": {**_ok("the next observation, reward and ending", result), **refused}}},
        "/state": {"get": {"summary": "Where a session's episode stands", "parameters": [session_header],
                           "responses": {**_ok("the state", state), **refused}}},
        "/close": {"post": {"summary": "Close a session and release its browser", "parameters": [session_header],
                            "responses": {**_ok("closed", {"type": "object"}), **refused}}},
        "/mcp": {"post": {"summary": "The apps' tools over JSON-RPC 2.0 (tools/list, tools/call, "
                                     "openenv/session/create, openenv/session/close); needs --tools for tools",
                          "requestBody": {"required": True, **_json(rpc)},
                          "responses": _ok("a JSON-RPC 2.0 response (result or error)", {"type": "object"})}},
    }
    meta = server.metadata()
    return {"openapi": "3.1.0",
            "info": {"title": "deskworld env server (OpenEnv HTTP API)", "version": OPENENV_HTTP_API,
                     "description": meta["description"] + " WebSocket sessions at /ws.",
                     "x-deskworld-version": meta.get("version")},
            "paths": paths}
