"""``deskworld env-server``: sessions in isolation over WebSocket and HTTP, the
capacity limit, the idle timeout, SIGTERM, and OpenEnv's own client."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from harness.env import ResetNeeded
from harness.servers.envserver import EnvServer
from harness.servers.remote import CapacityError, RemoteEnv, SessionClosed

pytestmark = pytest.mark.browser

CORVANE, PELAGIC = "meridian/corvane-deductible", "meridian/pelagic-hearing-date"
WAIT = {"type": "wait", "ms": 0}


def eventually(check, timeout: float = 20.0):
    """Poll ``check`` until it returns something true (no fixed sleeps)."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {check}")
        time.sleep(0.05)
    return value


def post(url: str, body: dict, session: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"X-Session-Id": session} if session else {})}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def server():
    srv = EnvServer(port=0, capacity=2, idle_timeout=None, tasks=f"{CORVANE},{PELAGIC}").start()
    yield srv
    srv.shutdown()


def test_two_sessions_are_isolated_a_third_is_refused_and_both_transports_score(server):
    with RemoteEnv(server.url, transport="ws", task=CORVANE) as a, \
            RemoteEnv(server.url, transport="http", task=PELAGIC) as b:
        oa, ia = a.reset(seed=0)
        ob, ib = b.reset(seed=0)
        assert oa in a.observation_space and ob in b.observation_space
        assert oa["url"] == "http://desk.local/drive/my-drive" and ob["url"] == "http://desk.local/chat/c/1"
        assert (ia["task"], ib["task"]) == (CORVANE, PELAGIC) and ia["session_id"] != ib["session_id"]

        with pytest.raises(CapacityError, match="2/2 sessions"):
            RemoteEnv(server.url, transport="ws").reset()
        status, body = post(server.url + "/reset", {})
        assert status == 503 and body["code"] == "CAPACITY_REACHED" and "at capacity" in body["message"]
        status, body = post(server.url + "/reset", {}, session="a-third-one")      # ids are the server's
        assert status == 404 and "the server issues session ids" in body["message"]
        unknown, body = post(server.url + "/reset", {"task": "meridian/fund-shortfall"}, session=b.session_id)
        assert unknown == 400 and "unknown task" in body["message"]

        obs, *_ = a.step({"type": "navigate", "url": "/mail/inbox"})     # only a's browser moves
        sa, sb = a.state(), b.state()
        assert obs["url"] == sa["url"] == "http://desk.local/mail/inbox" and sb["url"] == ob["url"]
        assert (sa["step_count"], sb["step_count"]) == (1, 0) and sa["episode_id"] != sb["episode_id"]

        _, r, term, trunc, info = a.step({"type": "done", "answer": "ANSWER: $2,500,000"})
        assert (r, term, trunc) == (1.0, True, False) and info["result"]["passed"]
        _, r, term, trunc, info = b.step(json.dumps({"type": "done", "answer": "ANSWER: 2026-04-28"}))
        assert (r, term, trunc) == (1.0, True, False) and info["result"]["status"] == "passed"
        assert b.state()["done"] and b.state()["result"]["score"] == 1.0
        with pytest.raises(ResetNeeded):
            a.step(WAIT)
    eventually(lambda: server.health()["active_sessions"] == 0)


def test_an_idle_session_is_closed_and_its_browser_released():
    srv = EnvServer(port=0, capacity=2, idle_timeout=0.5, tasks=CORVANE).start()
    made = []
    make = srv.make_env
    srv.make_env = lambda: made.append(make()) or made[-1]
    try:
        http, ws = RemoteEnv(srv.url, transport="http"), RemoteEnv(srv.url, transport="ws")
        http.reset()
        ws.state()                                                    # a session without a browser
        assert len(made) == 2
        eventually(lambda: srv.health()["active_sessions"] == 0)
        assert not made[0].unwrapped.session.running                                # its browser was stopped
        with pytest.raises(SessionClosed, match="idle for more than 0.5 s"):
            http.step(WAIT)
        with pytest.raises(SessionClosed, match="idle for more than 0.5 s"):
            ws.step(WAIT)
        http.close()
        ws.close()
    finally:
        srv.shutdown()


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_sigterm_closes_every_session_and_browser():
    proc = subprocess.Popen([sys.executable, "-m", "harness.servers.envserver", "--port", "0", "--tasks", CORVANE],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner = proc.stdout.readline()
        url = re.search(r"(http://\S+) \(WebSocket", banner).group(1)
        env = RemoteEnv(url, transport="ws")
        obs, info = env.reset()
        assert info["task"] == CORVANE
        browsers = {p for p in descendants(proc.pid) if "chrom" in comm(p)}
        assert browsers
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0                             # handled, not killed by the signal
        assert "stopped; every session closed" in proc.stdout.read()
        eventually(lambda: not any(alive(p) for p in browsers), timeout=10)
        with pytest.raises(SessionClosed):
            env.step(WAIT)
        env.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_remote_observation_keeps_a_variant_screens_size():
    """An appearance variant's screenshot (2560x1600 at scale 2) is decoded whole, not cut to 1280x800."""
    import base64
    import io

    from PIL import Image

    from harness.servers.remote import decode_observation
    buf = io.BytesIO()
    Image.new("RGB", (2560, 1600), (10, 20, 30)).save(buf, "PNG")
    obs = decode_observation({"screenshot": base64.b64encode(buf.getvalue()).decode(), "url": "http://desk.local/"})
    assert obs["screenshot"].shape == (1600, 2560, 3) and tuple(obs["screenshot"][-1, -1]) == (10, 20, 30)
