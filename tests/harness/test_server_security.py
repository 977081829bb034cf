"""Every local server refuses the agent's browser (issue 15): the env server, the viewer, the MCP HTTP
server and the apps' own server check Host and Origin, take JSON only as JSON, cap request sizes; the env
server issues its session ids, takes an optional bearer token and keeps the verifier's expected values out
of /state; the viewer's forms carry a CSRF token and it can't be framed or read by another site's page.

Each test replays an attack the issue reproduced (a ``text/plain`` form post from the agent's page, a
guessed session id, ``expected`` read from /state, a forged grade, ``episodes/../run.json``, a 40 MB
body, a slot held by refused resets) and shows that it now fails. They run against real sockets; the env
server's sessions use a stand-in env, so no browser is needed."""
from __future__ import annotations

import io
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest
from PIL import Image

from harness.servers.envserver import EnvServer
from harness.servers.netguard import MB, Policy, refusal
from harness.servers.remote import RemoteEnv, RemoteError
from harness.env.appserver import AppServer

TASK = "meridian/corvane-deductible"
AGENT_PAGE = "http://desk.local"                  # the origin the agent is shown


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 10, 10)).save(buf, format="PNG")
    return buf.getvalue()


PNG = _png()
SECRET = "2,500,000 — the deductible"
RESULT = {"status": "failed", "passed": False, "score": 0.0, "lines": [f"✗ answer: expected {SECRET}; found 1"],
          "checks": [{"name": "deductible", "passed": False, "expected": SECRET, "found": "1"}],
          "answer": {"passed": False, "expected": SECRET, "found": "1"}, "rubric": [{"name": "x", "expected": SECRET}],
          "collateral": [], "done_status": "complete", "error": None, "zeroed": False}


class FakeEnv:
    """What EnvServer needs of a DeskEnv, without a browser: reset, step, state, the last PNG."""

    fail_reset = False

    def __init__(self):
        self.steps, self.done, self.closed = 0, False, False

    def _obs(self):
        import numpy as np
        return {"screenshot": np.zeros((3, 4, 3), "uint8"), "url": "http://desk.local/drive/my-drive",
                "goal": "What deductible?", "last_action_error": ""}

    @property
    def unwrapped(self):
        return self

    @property
    def session(self):                  # the privileged side the server reads: the last PNG
        return self

    def last_png(self):
        return PNG

    def reset(self, seed=None, options=None):
        if FakeEnv.fail_reset:
            raise RuntimeError("the browser would not start")
        self.steps, self.done = 0, False
        return self._obs(), {"step": 0, "task": TASK}

    def step(self, action):
        self.steps += 1
        self.done = action.get("type") == "done"
        return self._obs(), 0.0, self.done, False, {"step": self.steps, **({"result": RESULT} if self.done else {})}

    def episode_state(self):
        return {"step_count": self.steps, "task": TASK, "done": self.done, "status": "failed" if self.done else None,
                "url": "http://desk.local/drive/my-drive", "result": RESULT if self.done else None}

    def close(self):
        self.closed = True


def env_server(**kw) -> EnvServer:
    srv = EnvServer(port=0, idle_timeout=None, tasks=TASK, **{"capacity": 2, **kw})
    srv.make_env = FakeEnv
    return srv.start()


@pytest.fixture
def server():
    srv = env_server()
    yield srv
    srv.shutdown()


def call(url: str, body=None, *, method: str | None = None, headers: dict | None = None, raw: bytes | None = None):
    """(status, JSON or text, headers) of one request; ``raw`` sends bytes as they are."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    hdrs = dict(headers or {})
    if data is not None and raw is None:
        hdrs.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, text, h = r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as e:
        status, text, h = e.code, e.read().decode(), e.headers
    try:
        return status, json.loads(text), h
    except ValueError:
        return status, text, h


def raw_request(port: int, head: str, body: bytes = b"", read_timeout: float = 10.0) -> tuple[int, str, float]:
    """Send ``head`` (request line and headers) and ``body`` over a socket: (status, whole answer, seconds)."""
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            out += chunk
            if b"\r\n\r\n" in out:
                head_end = out.index(b"\r\n\r\n") + 4
                m = re.search(rb"Content-Length: (\d+)", out[:head_end], re.I)
                if m and len(out) >= head_end + int(m.group(1)):
                    break
    text = out.decode("utf-8", "replace")
    return int(text.split(" ", 2)[1]), text, time.monotonic() - t0


# ================================================================ the env server
def test_a_form_post_from_the_agents_page_cannot_drive_the_env_server(server):
    """The issue's hijack: a page posts text/plain (no CORS preflight) with a JSON-looking body."""
    url, other = server.url, f"http://127.0.0.1:{server.port + 1}"
    form = '{"task": "meridian/corvane-deductible", "x": "="}'.encode()
    for origin in (AGENT_PAGE, other, "null"):
        status, body, _ = call(url + "/reset", raw=form, headers={"Content-Type": "text/plain", "Origin": origin})
        assert status == 403 and body["message"].startswith(f"Origin {origin} is not allowed"), body
    status, body, _ = call(url + "/reset", raw=form, headers={"Content-Type": "text/plain"})
    assert status == 415 and body["message"] == "Content-Type text/plain: send application/json"
    status, body, _ = call(url + "/reset", raw=b"task=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    # JSON from another page needs a preflight the server never grants; even sent, its Origin is refused.
    status, body, _ = call(url + "/reset", {"task": TASK}, headers={"Origin": other})
    assert status == 403 and f"Origin {other} is not allowed" in body["message"]
    # A DNS-rebound name is not this server, whatever the port.
    status, body, _ = call(url + "/metadata", headers={"Host": f"attacker.example:{server.port}"})
    assert status == 403 and f"Host attacker.example:{server.port} is not this server's address" in body["message"]
    # A navigation of the agent's page (no Origin on a GET) still says where it comes from.
    for site in ("cross-site", "same-site"):
        status, body, _ = call(url + "/metadata", headers={"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"})
        assert status == 403 and f"Sec-Fetch-Site: {site}" in body["message"]
    assert server.health()["active_sessions"] == 0                       # nothing was opened
    # The server's own address, its localhost alias and an API client (no Origin) are fine.
    assert call(url + "/metadata")[0] == 200
    assert call(url + "/metadata", headers={"Host": f"localhost:{server.port}"})[0] == 200
    assert call(url + "/metadata", headers={"Origin": url})[0] == 200


def test_the_websocket_upgrade_checks_origin_and_host_too(server):
    from simple_websocket import Client
    from simple_websocket import ConnectionError as Refused
    ws = server.url.replace("http", "ws", 1) + "/ws"
    for headers in ({"Origin": f"http://127.0.0.1:{server.port + 1}"}, {"Origin": AGENT_PAGE},
                    {"Sec-Fetch-Site": "same-site"}):
        with pytest.raises(Refused) as e:
            Client.connect(ws, headers=headers)
        assert e.value.status_code == 403
    assert server.health()["active_sessions"] == 0
    env = RemoteEnv(server.url, transport="ws")
    obs, info = env.reset()
    assert info["task"] == TASK and len(info["session_id"]) >= 32
    env.close()


def test_session_ids_are_issued_by_the_server_and_a_guessed_one_is_refused(server):
    url = server.url
    status, body, headers = call(url + "/reset", {"task": TASK})
    sid = body["info"]["session_id"]
    assert status == 200 and headers["X-Session-Id"] == sid and re.fullmatch(r"[A-Za-z0-9_-]{32}", sid)
    other = call(url + "/reset", {})[1]["info"]["session_id"]
    assert other != sid
    for guess in ("default", "1", "a-third-one", sid[:-1] + ("A" if sid[-1] != "A" else "B")):
        for path, body_, hdr in (("/reset", {"task": TASK}, {"X-Session-Id": guess}),
                                 ("/step", {"action": {"type": "done", "answer": "x"}, "session_id": guess}, {}),
                                 ("/state", None, {"X-Session-Id": guess}), ("/close", {}, {"X-Session-Id": guess})):
            status, err, _ = call(url + path, body_, headers=hdr)
            assert status == 404 and "the server issues session ids" in err["message"], (path, guess, err)
    status, err, _ = call(url + "/step", {"action": {"type": "wait", "ms": 0}})
    assert status == 400 and "X-Session-Id" in err["message"]                 # no silent shared "default"
    status, body, _ = call(url + "/step", {"action": {"type": "wait", "ms": 0}}, headers={"X-Session-Id": sid})
    assert status == 200 and body["info"]["session_id"] == sid
    assert call(url + "/close", {}, headers={"X-Session-Id": other})[1]["closed"]
    status, err, _ = call(url + "/state", headers={"X-Session-Id": other})
    assert status == 404 and "it was closed: the client closed it" in err["message"]
    # RemoteEnv over HTTP takes the id the server issued.
    env = RemoteEnv(url, transport="http", task=TASK)
    assert env.session_id is None
    env.reset(seed=0)
    assert env.session_id and env.session_id not in (sid, other) and env.state()["session_id"] == env.session_id
    env.close()


def test_state_never_shows_the_expected_answer_without_the_token(server):
    sid = call(server.url + "/reset", {"task": TASK})[1]["info"]["session_id"]
    call(server.url + "/step", {"action": {"type": "done", "answer": "1"}}, headers={"X-Session-Id": sid})
    status, state, _ = call(server.url + "/state", headers={"X-Session-Id": sid})
    assert status == 200 and state["done"]
    assert SECRET not in json.dumps(state)
    assert {k: state["result"][k] for k in ("status", "passed", "score")} == \
        {"status": "failed", "passed": False, "score": 0.0}
    assert not {"checks", "answer", "lines", "rubric"} & state["result"].keys()
    env = RemoteEnv(server.url, transport="ws")                              # the WebSocket state too
    env.reset()
    env.step({"type": "done", "answer": "1"})
    assert SECRET not in json.dumps(env.state()) and env.state()["result"]["score"] == 0.0
    env.close()


def test_the_bearer_token_guards_every_route_but_health_and_unlocks_the_checks():
    srv = env_server(token="s3cret-token")
    try:
        url = srv.url
        assert call(url + "/health")[0] == 200
        for path, body in (("/metadata", None), ("/schema", None), ("/reset", {}), ("/state", None)):
            status, err, h = call(url + path, body)
            assert status == 401 and "Authorization: Bearer" in err["message"] and "Bearer" in h["WWW-Authenticate"]
            status, err, _ = call(url + path, body, headers={"Authorization": "Bearer wrong"})
            assert status == 401 and err["message"] == "the bearer token is wrong"
        assert srv.health()["active_sessions"] == 0
        with pytest.raises(RemoteError, match="token"):
            RemoteEnv(url, transport="http")
        from simple_websocket import Client
        from simple_websocket import ConnectionError as Refused
        with pytest.raises(Refused):
            Client.connect(url.replace("http", "ws", 1) + "/ws")
        for transport in ("http", "ws"):
            env = RemoteEnv(url, transport=transport, token="s3cret-token")
            env.reset()
            env.step({"type": "done", "answer": "1"})
            state = env.state()                                   # the token's holder sees the checks
            assert state["result"]["checks"][0]["expected"] == SECRET, transport
            env.close()
    finally:
        srv.shutdown()


def test_a_refused_reset_frees_its_slot_at_once():
    srv = env_server(capacity=1)
    try:
        url = srv.url
        for bad in ({"task": "meridian/no-such-task"}, {"seed": -1}, {"seed": "x"}, {"task": TASK, "seed": True},
                    ["not", "an", "object"]):
            status, err, _ = call(url + "/reset", bad)
            assert status == 400, (bad, err)
            assert srv.health()["active_sessions"] == 0, bad
        FakeEnv.fail_reset = True
        try:
            status, err, _ = call(url + "/reset", {"task": TASK})
            assert status == 500 and "the browser would not start" in err["message"]
        finally:
            FakeEnv.fail_reset = False
        assert srv.health()["active_sessions"] == 0
        status, body, _ = call(url + "/reset", {"task": TASK})                 # a valid client gets in
        assert status == 200 and srv.health()["active_sessions"] == 1
        status, err, _ = call(url + "/reset", {"task": TASK})
        assert status == 503 and err["code"] == "CAPACITY_REACHED"
    finally:
        srv.shutdown()


def test_an_oversized_body_is_refused_before_it_is_read(server):
    size = 40 * MB
    head = (f"POST /reset HTTP/1.1\nHost: 127.0.0.1:{server.port}\nContent-Type: application/json\n"
            f"Content-Length: {size}\n")
    status, text, seconds = raw_request(server.port, head, b'{"task": "' + b"x" * 4096)
    assert status == 413 and f"body of {size} bytes exceeds the 1048576-byte limit" in text
    assert seconds < 5                                                     # answered without waiting for 40 MB
    # The whole 40 MB sent: still 413, and the server is fine afterwards.
    status, err, _ = call(server.url + "/reset", raw=b"[" + b"0," * (20 * MB) + b"0]",
                          headers={"Content-Type": "application/json"})
    assert status == 413 and "exceeds the 1048576-byte limit" in err["message"]
    status, text, _ = raw_request(server.port, f"POST /reset HTTP/1.1\nHost: 127.0.0.1:{server.port}\n"
                                               "Content-Type: application/json\nTransfer-Encoding: chunked\n",
                                  b"2\r\n{}\r\n0\r\n\r\n")
    assert status == 411
    assert call(server.url + "/health")[0] == 200 and server.health()["active_sessions"] == 0
    # A WebSocket message over the limit closes that connection.
    from simple_websocket import Client, ConnectionClosed
    ws = Client.connect(server.url.replace("http", "ws", 1) + "/ws")
    with pytest.raises(ConnectionClosed):
        ws.send(json.dumps({"type": "step", "data": {"type": "type", "text": "x" * (2 * MB)}}))
        ws.receive(timeout=10)
        ws.receive(timeout=10)
    assert ws.close_reason == 1009                                         # "message too big"


# ================================================================ the viewer
@pytest.fixture
def run_dir(tmp_path):
    from tests.harness.test_viewer import record
    record(tmp_path)
    (tmp_path / "run.json").write_text(json.dumps({"agent": "oracle", "k": 1, "secret": "run-level"}))
    return tmp_path


def _token(client, page="/episode/meridian/gross-tonnage/0") -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).data.decode()).group(1)


def test_a_forged_grade_is_refused_and_writes_nothing(run_dir):
    from harness.viewer import create_viewer
    labels = run_dir / "episodes/meridian/gross-tonnage/0/labels.json"
    c = create_viewer(run_dir).test_client()
    url = "/episode/meridian/gross-tonnage/0/grade"
    forged = {"verdict": "pass", "grader": "human", "note": "looks right"}
    for extra in ({}, {"csrf_token": ""}, {"csrf_token": "guessed"}):
        r = c.post(url, data={**forged, **extra})
        assert r.status_code == 403 and b"CSRF token is missing or wrong" in r.data
        assert not labels.exists()
    r = c.post(url, data=forged, headers={"X-CSRF-Token": "x" * 43})
    assert r.status_code == 403 and not labels.exists()
    token = _token(c)
    assert create_viewer(run_dir).config["CSRF_TOKEN"] != token                # a secret of this server
    # The right token from another page's origin is still refused (a page can't read it anyway).
    for origin in (AGENT_PAGE, "http://127.0.0.1:5000", "null"):
        r = c.post(url, data={**forged, "csrf_token": token}, headers={"Origin": origin})
        assert r.status_code == 403 and f"Origin {origin} is not allowed".encode() in r.data
    assert not labels.exists()
    r = c.post(url, data={**forged, "csrf_token": token}, headers={"Origin": "http://localhost"})
    assert r.status_code == 200 and labels.exists()                         # the viewer's own form works


def test_the_viewer_cannot_be_shown_framed_or_rebound(run_dir):
    from harness.viewer import create_viewer
    c = create_viewer(run_dir).test_client()
    r = c.get("/episode/meridian/gross-tonnage/0")
    assert r.status_code == 200
    assert r.headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    assert c.get("/").headers["X-Frame-Options"] == "DENY"
    # The escape: the agent's page navigated to the viewer and read the expected answer there.
    for site in ("cross-site", "same-site"):
        r = c.get("/episode/meridian/gross-tonnage/0", headers={"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"})
        assert r.status_code == 403 and b"58,400" not in r.data and b"Sec-Fetch-Site" in r.data
        assert r.headers["X-Frame-Options"] == "DENY"
    assert c.get("/", headers={"Sec-Fetch-Site": "none"}).status_code == 200      # typed into the address bar
    assert c.get("/", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200
    r = c.get("/", headers={"Host": "rebound.example"})
    assert r.status_code == 403 and b"Host rebound.example is not this server's address" in r.data


def test_the_viewer_serves_only_files_inside_episodes(run_dir):
    from harness.viewer import create_viewer
    c = create_viewer(run_dir).test_client()
    assert c.get("/files/meridian/gross-tonnage/0/screens/0001.png").status_code == 200
    for path in ("/files/../run.json", "/files/..%2Frun.json", "/files/meridian/../../run.json",
                 "/files/%2E%2E/run.json", "/files/../results.jsonl", "/files/../../etc/passwd"):
        r = c.get(path)
        assert r.status_code == 404 and b"run-level" not in r.data, path
    (run_dir / "episodes/meridian/gross-tonnage/0/link.json").symlink_to(run_dir / "run.json")
    assert c.get("/files/meridian/gross-tonnage/0/link.json").status_code == 404
    # Over a real socket, where no client tidies the path.
    srv = AppServer(create_viewer(run_dir)).start()
    try:
        for path in ("/files/../run.json", "/files/..%2frun.json"):
            status, text, _ = raw_request(srv.port, f"GET {path} HTTP/1.1\nHost: 127.0.0.1:{srv.port}\n"
                                                    "Connection: close\n")
            assert status == 404 and "run-level" not in text, path
    finally:
        srv.stop()


def test_the_viewer_caps_bodies(run_dir):
    from harness.viewer import create_viewer
    c = create_viewer(run_dir).test_client()
    r = c.post("/episode/meridian/gross-tonnage/0/grade", data=b"x" * (2 * MB),
               headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413 and b"exceeds the 1048576-byte limit" in r.data


# ================================================================ the apps' own server
def _app():
    from flask import Flask, request
    app = Flask("probe")
    app.writes = []

    @app.route("/save", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
    def save():
        if request.method != "GET":
            app.writes.append(request.get_data()[:10])
        return "ok"
    return app


def test_the_apps_server_refuses_foreign_pages_and_hosts():
    app = _app()
    with AppServer(app) as srv:
        own = srv.url
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            for origin in (AGENT_PAGE, f"http://127.0.0.1:{srv.port + 1}", "null"):
                status, text, _ = call(own + "/save", raw=b"a=1", method=method,
                                       headers={"Origin": origin, "Content-Type": "application/x-www-form-urlencoded"})
                assert status == 403 and f"Origin {origin} is not allowed" in text, (method, origin)
        assert app.writes == []
        # Its own pages (the agent's browser is on the real loopback origin) and clients without Origin work.
        assert call(own + "/save", raw=b"a=1", headers={"Origin": own})[:2] == (200, "ok")
        assert call(own + "/save", raw=b"a=1")[:2] == (200, "ok")
        assert call(own + "/save", headers={"Origin": AGENT_PAGE})[0] == 200       # a GET: a link is fine
        assert len(app.writes) == 2
        status, text, _ = call(own + "/save", headers={"Host": f"rebound.example:{srv.port}"})
        assert status == 403 and "is not this server's address" in text
        status, text, seconds = raw_request(srv.port, f"POST /save HTTP/1.1\nHost: 127.0.0.1:{srv.port}\n"
                                                      f"Content-Length: {40 * MB}\n", b"x" * 1024)
        assert status == 413 and f"body of {40 * MB} bytes exceeds the {32 * MB}-byte limit" in text
        assert seconds < 5 and len(app.writes) == 2


def test_the_apps_server_takes_a_large_legitimate_upload():
    app = _app()
    with AppServer(app) as srv:
        body = b"x" * (25 * MB)                                     # a 25 MB mail attachment's worth
        status, text, _ = call(srv.url + "/save", raw=body, headers={"Origin": srv.url,
                                                                    "Content-Type": "application/octet-stream"})
        assert (status, text) == (200, "ok")


# ================================================================ the MCP HTTP server
@pytest.fixture(scope="module")
def mcp_url():
    import uvicorn

    from harness.tools import registry
    from harness.tools.mcp import build_server, http_app
    from harness.tools.session import open_session
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = build_server(open_session("meridian"), registry("mail"))
    web = uvicorn.Server(uvicorn.Config(http_app(server, "127.0.0.1", port), log_level="warning"))
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not web.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    web.should_exit = True
    thread.join(10)


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_the_mcp_server_refuses_the_agents_pages(mcp_url):
    port = int(mcp_url.rsplit(":", 1)[1].split("/")[0])
    # The SDK's default would take any loopback port's pages — the apps' included; this one takes its own.
    for origin in (f"http://127.0.0.1:{port + 1}", AGENT_PAGE, "null"):
        status, _, _ = call(mcp_url, INIT, headers={**ACCEPT, "Origin": origin})
        assert status == 403, origin
    for host in (f"127.0.0.1:{port + 1}", f"rebound.example:{port}"):
        assert call(mcp_url, INIT, headers={**ACCEPT, "Host": host})[0] == 421, host
    status, _, _ = call(mcp_url, raw=json.dumps(INIT).encode(), headers={**ACCEPT, "Content-Type": "text/plain"})
    assert status == 400
    status, text, seconds = raw_request(port, f"POST /mcp HTTP/1.1\nHost: 127.0.0.1:{port}\n"
                                              f"Content-Type: application/json\nAccept: {ACCEPT['Accept']}\n"
                                              f"Content-Length: {40 * MB}\n", b" " * 1024)
    assert status == 413 and seconds < 5
    status, _, h = call(mcp_url, INIT, headers={**ACCEPT, "Origin": f"http://127.0.0.1:{port}"})
    assert status == 200 and h.get("mcp-session-id")


# ================================================================ the shared policy
def test_the_policy_names_what_was_wrong():
    env = {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1:8000", "REQUEST_METHOD": "POST",
           "PATH_INFO": "/reset", "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": "2"}
    policy = Policy(json=True, token="t", open_paths=frozenset({"/health"}))
    authed = {**env, "HTTP_AUTHORIZATION": "Bearer t"}
    assert refusal(authed, policy) is None
    assert refusal({**authed, "HTTP_HOST": "[::1]:8000"}, policy) is None
    assert refusal({**authed, "HTTP_HOST": "127.0.0.1"}, policy) is None       # no port: the one it came in on
    cases = [({"HTTP_HOST": "127.0.0.1:8001"}, 403, "Host 127.0.0.1:8001 is not this server's address"),
             ({"HTTP_HOST": ""}, 403, "no Host header"),
             ({"HTTP_HOST": "a:b:c"}, 403, "malformed"),
             ({"HTTP_ORIGIN": "http://127.0.0.1:8001"}, 403, "Origin http://127.0.0.1:8001 is not allowed"),
             ({"HTTP_ORIGIN": "https://127.0.0.1:8000"}, 403, "is not allowed"),
             ({"CONTENT_TYPE": "text/plain;charset=UTF-8"}, 415, "Content-Type text/plain;charset=UTF-8: send"),
             ({"CONTENT_TYPE": "", "CONTENT_LENGTH": "5"}, 415, "Content-Type (none): send application/json"),
             ({"CONTENT_LENGTH": str(41943040)}, 413, "body of 41943040 bytes exceeds the 1048576-byte limit"),
             ({"CONTENT_LENGTH": "many"}, 400, "is not a number"),
             ({"HTTP_AUTHORIZATION": ""}, 401, "Authorization: Bearer"),
             ({"HTTP_AUTHORIZATION": "Basic dDp0"}, 401, "Authorization: Bearer"),
             ({"HTTP_AUTHORIZATION": "Bearer tt"}, 401, "wrong")]
    for change, status, message in cases:
        r = refusal({**authed, **change}, policy)
        assert r is not None and r.status == status and message in r.message, (change, r and r.message)
    assert refusal({**env, "PATH_INFO": "/health", "REQUEST_METHOD": "GET", "CONTENT_LENGTH": ""}, policy) is None
    assert refusal({**authed, "CONTENT_TYPE": "", "CONTENT_LENGTH": ""}, policy) is None    # an empty POST
    wildcard = {**authed, "SERVER_NAME": "0.0.0.0", "HTTP_HOST": "box.internal:9000",
                "HTTP_ORIGIN": "http://box.internal:9000"}
    assert refusal(wildcard, policy) is None
    assert refusal({**wildcard, "HTTP_ORIGIN": "http://desk.local"}, policy).status == 403


def test_the_env_server_off_loopback_needs_a_token():
    """Bound to a wildcard address it can't check Host (a DNS-rebinding page would pass), so it
    refuses to start without a token, before it takes the port."""
    from click.testing import CliRunner

    from harness.servers.envserver import env_server
    out = CliRunner().invoke(env_server, ["--host", "0.0.0.0", "--port", "0"], env={"DESKWORLD_ENV_TOKEN": ""})
    assert out.exit_code != 0 and "needs --token" in out.output
