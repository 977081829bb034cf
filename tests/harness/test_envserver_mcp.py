"""``deskworld env-server``'s ``GET /openapi.json`` and ``POST /mcp`` (JSON-RPC 2.0), the two routes
OpenEnv's runtime check and its MCP client need: the document, every malformed request answered with
the JSON-RPC error that names it, and the apps' tools called as steps of a session's episode."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from harness.servers.envserver import EnvServer

pytestmark = pytest.mark.browser

PELAGIC = "meridian/pelagic-hearing-date"


def call(url: str, body, *, raw: bytes | None = None, method: str = "POST", headers: dict | None = None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def rpc(server, method: str, params: dict | None = None, rid=1):
    status, body = call(server.url + "/mcp", {"jsonrpc": "2.0", "method": method, "params": params or {}, "id": rid})
    assert status == 200 and body["jsonrpc"] == "2.0" and body["id"] == rid
    return body


@pytest.fixture(scope="module")
def server():
    srv = EnvServer(port=0, capacity=2, idle_timeout=None, tasks=PELAGIC, tools=True).start()
    yield srv
    srv.shutdown()


def test_the_openapi_document_names_the_openenv_api_and_the_simulation_routes(server):
    status, doc = call(server.url + "/openapi.json", None, method="GET")
    assert status == 200 and doc["openapi"].startswith("3.1") and doc["info"]["version"].startswith("1.")
    assert {"/reset", "/step", "/state", "/mcp", "/health", "/schema"} <= set(doc["paths"])
    step_action = doc["paths"]["/step"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert step_action["properties"]["action"] == server.schema()["action"]     # the served schema, not a copy
    assert "tool_result" in doc["paths"]["/reset"]["post"]["responses"]["200"]["content"][
        "application/json"]["schema"]["properties"]["observation"]["properties"]


@pytest.mark.parametrize("raw, code, words", [
    (b"{}", -32600, "missing jsonrpc, method"),
    (b"{not json", -32700, "not JSON"),
    (b"[1, 2]", -32600, "is an object"),
    (b'{"jsonrpc": "1.0", "method": "tools/list"}', -32600, 'jsonrpc must be "2.0"'),
    (b'{"jsonrpc": "2.0", "method": "tools/list", "params": [1]}', -32602, "params must be an object"),
    (b'{"jsonrpc": "2.0", "method": "resources/list", "id": 7}', -32601, "'resources/list'"),
])
def test_a_malformed_request_gets_the_json_rpc_error_that_names_it(server, raw, code, words):
    status, body = call(server.url + "/mcp", None, raw=raw)
    assert status == 200 and body["jsonrpc"] == "2.0" and "result" not in body
    assert body["error"]["code"] == code and words in body["error"]["message"]


def test_tools_are_listed_and_a_call_is_a_step_of_the_sessions_episode(server):
    tools = rpc(server, "tools/list")["result"]["tools"]
    by_name = {t["name"]: t for t in tools}
    assert "chat_read" in by_name and by_name["chat_read"]["inputSchema"]["type"] == "object"
    sid = rpc(server, "openenv/session/create")["result"]["session_id"]
    early = rpc(server, "tools/call", {"name": "chat_read", "arguments": {"channel": "general"}, "session_id": sid})
    assert early["error"]["code"] == -32600 and "POST /reset" in early["error"]["message"]
    status, first = call(server.url + "/reset", {"task": PELAGIC, "seed": 0}, headers={"X-Session-Id": sid})
    assert status == 200 and first["info"]["session_id"] == sid
    out = rpc(server, "tools/call", {"name": "chat_read", "arguments": {"channel": "general"}, "session_id": sid})
    res = out["result"]
    assert not res["isError"] and res["done"] is False and res["data"] and "general" in res["content"][0]["text"]
    status, state = call(server.url + f"/state?session_id={sid}", None, method="GET")
    assert state["step_count"] == 1                                   # the call was the episode's step
    # OpenEnv's MCPToolClient sends the same as step messages (over /ws; here over HTTP /step)
    status, listed = call(server.url + "/step", {"action": {"type": "list_tools"}}, headers={"X-Session-Id": sid})
    assert status == 200 and {t["name"] for t in listed["observation"]["tools"]} == set(by_name)
    status, called = call(server.url + "/step", {"action": {"type": "call_tool", "tool_name": "chat_read",
                                                            "arguments": {"channel": "general"}}},
                          headers={"X-Session-Id": sid})
    obs = called["observation"]
    assert status == 200 and obs["tool_name"] == "chat_read" and obs["result"] == res["data"] and obs["error"] is None
    assert obs["screenshot"].startswith("iVBOR") and called["done"] is False
    status, missing = call(server.url + "/step", {"action": {"type": "call_tool", "tool_name": "chat_fly"}},
                           headers={"X-Session-Id": sid})
    assert missing["observation"]["error"]["error_type"] == "tool_not_found"
    status, state = call(server.url + f"/state?session_id={sid}", None, method="GET")
    assert state["step_count"] == 2                                   # listing is no step; a call is
    bad = rpc(server, "tools/call", {"name": "chat_read", "arguments": {"channel": "no-such-room"}, "session_id": sid})
    assert bad["result"]["isError"] and "no-such-room" in bad["result"]["content"][0]["text"]
    for params, words in (({"name": "mail_fly", "session_id": sid}, "No tool 'mail_fly'"),
                          ({"name": "chat_read", "arguments": [], "session_id": sid}, "arguments must be an object"),
                          ({"arguments": {}, "session_id": sid}, "name"),
                          ({"name": "chat_read"}, "session_id is required")):
        err = rpc(server, "tools/call", params)["error"]
        assert err["code"] == -32602 and words in err["message"], err
    assert rpc(server, "openenv/session/close", {"session_id": sid})["result"] == {"session_id": sid, "closed": True}
    gone = rpc(server, "tools/call", {"name": "chat_read", "arguments": {}, "session_id": sid})["error"]
    assert gone["code"] == -32000 and "closed" in gone["message"]


def test_a_server_without_tools_says_how_to_get_them_and_a_token_guards_mcp_not_the_document():
    srv = EnvServer(port=0, capacity=1, idle_timeout=None, tasks=PELAGIC, token="t0ken").start()
    try:
        status, body = call(srv.url + "/mcp", {"jsonrpc": "2.0", "method": "tools/list", "id": 1})
        assert status == 401
        status, body = call(srv.url + "/mcp", {"jsonrpc": "2.0", "method": "tools/list", "id": 1},
                            headers={"Authorization": "Bearer t0ken"})
        assert status == 200 and body["error"]["code"] == -32603 and "--tools" in body["error"]["message"]
        status, doc = call(srv.url + "/openapi.json", None, method="GET")
        assert status == 200 and doc["info"]["version"].startswith("1.")
    finally:
        srv.shutdown()
