"""``POST /mcp`` of ``deskworld env-server``: the apps' tools over JSON-RPC 2.0, as OpenEnv serves them.

OpenEnv 0.3 servers answer ``POST /mcp`` with JSON-RPC 2.0 (``tools/list``, ``tools/call``, and its
session methods ``openenv/session/create`` / ``openenv/session/close``); its ``MCPToolClient`` and
``openenv validate --url`` speak it. Here the tools are the apps' typed tools (``harness.tools``,
MCP names such as ``mail_search``) in a session started with ``--tools``: a call is a step of the
session's episode (``{"type": "tool_call", ...}``), counted and verified like any GUI work, so a
session needs a reset (``POST /reset`` naming it) before its first call.

Every answer is HTTP 200 with a JSON-RPC body, an ``error`` object when something is wrong (what it
was, in ``message``), as the specification and OpenEnv's own server do.
"""
from __future__ import annotations

import json

from harness.servers.wire import VALIDATION_ERROR, Refused

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (-32700, -32600, -32601,
                                                                                  -32602, -32603)
SERVER_ERROR = -32000
METHODS = ("tools/list", "tools/call", "openenv/session/create", "openenv/session/close")


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: dict | None = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def error(code: int, message: str, request_id=None, data: dict | None = None) -> dict:
    err = {"code": code, "message": message}
    if data:
        err["data"] = data
    return {"jsonrpc": "2.0", "error": err, "id": request_id}


def handle(server, raw: bytes) -> dict:
    """The JSON-RPC answer to one ``POST /mcp`` body."""
    try:
        req = json.loads(raw or b"")
    except ValueError as e:
        return error(PARSE_ERROR, f"Parse error: the body is not JSON ({e})")
    if not isinstance(req, dict):
        return error(INVALID_REQUEST, "Invalid Request: a JSON-RPC 2.0 request is an object")
    rid = req.get("id")
    if not isinstance(rid, (str, int, type(None))) or isinstance(rid, bool):
        return error(INVALID_REQUEST, "Invalid Request: id must be a string, an integer or null")
    if req.get("jsonrpc") != "2.0" or not isinstance(req.get("method"), str):
        missing = [k for k in ("jsonrpc", "method") if k not in req]
        why = f"missing {', '.join(missing)}" if missing else 'jsonrpc must be "2.0" and method a string'
        return error(INVALID_REQUEST, f"Invalid Request: {why}", rid)
    params = req.get("params", {})
    if not isinstance(params, dict):
        return error(INVALID_PARAMS, "Invalid params: params must be an object", rid)
    method = req["method"]
    if method not in METHODS:
        return error(METHOD_NOT_FOUND, f"Method not found: {method!r} (this server answers {', '.join(METHODS)})",
                     rid)
    try:
        result = _call(server, method, params)
    except RpcError as e:
        return error(e.code, e.message, rid, e.data)
    except Refused as e:
        return error(SERVER_ERROR, e.message, rid, {"code": e.code, "status": e.status})
    return {"jsonrpc": "2.0", "result": result, "id": rid}


def _call(server, method: str, params: dict) -> dict:
    if method == "openenv/session/create":
        return {"session_id": server.open("http").id}
    if method == "openenv/session/close":
        sid = _session_id(params)
        server.get(sid, "http")
        server.close(sid, "the client closed it")
        return {"session_id": sid, "closed": True}
    if not server.tools:
        raise RpcError(INTERNAL_ERROR, "this server serves no tools: start it with `deskworld env-server --tools`")
    if method == "tools/list":
        from harness.tools.registry import registry
        return {"tools": [{"name": t.mcp_name, "description": t.description, "inputSchema": t.input_schema}
                          for t in registry()]}
    return _tool_call(server, params)


def _session_id(params: dict) -> str:
    sid = params.get("session_id")
    if not isinstance(sid, str) or not sid:
        raise RpcError(INVALID_PARAMS, "Invalid params: session_id is required (openenv/session/create or "
                                       "POST /reset answers one)")
    return sid


def _tool_call(server, params: dict) -> dict:
    name, args = params.get("name"), params.get("arguments", {})
    if not isinstance(name, str) or not name:
        raise RpcError(INVALID_PARAMS, "Invalid params: name (the tool's name, from tools/list) is required")
    if not isinstance(args, dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: arguments must be an object, not {type(args).__name__}")
    tool = _tool(name)
    session = server.get(_session_id(params), "http")
    out, text, data, problem = call_in_episode(server, session, tool, args)
    return {"content": [{"type": "text", "text": text}], "isError": bool(problem), "data": data,
            "reward": out["reward"], "done": out["done"], "info": {k: out["info"][k] for k in ("session_id",
                                                                                                "episode_id")}}


def _tool(name: str):
    from harness.tools.registry import ToolError, get_tool
    try:
        return get_tool(name)
    except ToolError as e:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {e} (tools/list names them)") from None


def call_in_episode(server, session, tool, args: dict) -> tuple[dict, str, object, str]:
    """Step ``session``'s episode with a call of ``tool``: the step's payload, the result's text, its
    JSON data (None when refused) and why it was refused ("" when it wasn't)."""
    if session.episode_id is None:
        raise RpcError(INVALID_REQUEST, f"session {session.id!r} has no episode yet: POST /reset naming it first")
    out = server.step(session, {"type": "tool_call", "tool": tool.name, "arguments": args})
    obs = out["observation"]
    problem = obs.get("last_action_error") or ""
    try:
        data = json.loads(obs.get("tool_result") or "null") if not problem else None
    except ValueError:
        data = None
    return out, problem or obs.get("tool_result") or "", data, problem


def openenv_step(server, session, action: dict) -> dict:
    """OpenEnv's MCP actions as a step message (what its ``MCPToolClient`` sends over ``/ws``):
    ``{"type": "list_tools"}`` lists the tools (no step of the episode); ``{"type": "call_tool",
    "tool_name", "arguments"}`` calls one as a step, answered with the usual observation plus
    ``tool_name``, ``result`` and, when refused, ``error`` (what OpenEnv's client reads)."""
    if not server.tools:
        raise Refused(400, VALIDATION_ERROR, "this server serves no tools: start it with `deskworld env-server --tools`")
    info = {"session_id": session.id, "episode_id": session.episode_id}
    if action["type"] == "list_tools":
        return {"observation": _call(server, "tools/list", {}), "reward": None, "done": False,
                "terminated": False, "truncated": False, "info": info}
    name, args = action.get("tool_name"), action.get("arguments") or {}
    if not isinstance(name, str) or not isinstance(args, dict):
        raise Refused(400, VALIDATION_ERROR, 'call_tool is {"type": "call_tool", "tool_name": "...", "arguments": {...}}')
    try:
        tool = _tool(name)
        out, text, data, problem = call_in_episode(server, session, tool, args)
    except RpcError as e:
        kind = "tool_not_found" if e.code == INVALID_PARAMS else "execution_error"
        return {"observation": {"tool_name": name, "result": None, "error": {"error_type": kind, "message": e.message}},
                "reward": None, "done": False, "terminated": False, "truncated": False, "info": info}
    out["observation"].update(tool_name=tool.mcp_name, result=data if data is not None else text,
                              error={"error_type": "execution_error", "message": problem} if problem else None)
    return out
